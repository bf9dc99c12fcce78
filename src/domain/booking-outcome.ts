import type { Booking } from './order.js';

export type ItemFailureCode = 'BOOKING_NOT_FOUND' | 'BOOKING_CANCELED' | 'NO_PENDING_CHANGE' | 'NO_REPLACEMENT_OFFERED';

/**
 * What an operation did to one booking. `booking` is the new state; `changed` says whether it
 * differs from the stored one, so that retries write nothing.
 */
export type BookingOutcome =
  | { ok: true; booking: Booking; changed: boolean }
  | { ok: false; code: ItemFailureCode; message: string };

export function failed(code: ItemFailureCode, message: string): BookingOutcome {
  return { ok: false, code, message };
}

export function unchanged(booking: Booking): BookingOutcome {
  return { ok: true, booking, changed: false };
}

export function changedTo(booking: Booking): BookingOutcome {
  return { ok: true, booking, changed: true };
}

export function pendingChanges(booking: Booking) {
  return booking.changes.filter((change) => change.status === 'PENDING');
}
