import type { ItemError } from '../errors/item-error.js';
import type { AirlineChange, Booking } from './order.js';
import type { TicketQuote } from './voluntary-quote.js';

/** A voluntary refund quoted or confirmed on a booking, as its item shows it. */
export interface QuotedRefund {
  quoteId: string;
  expiresAt: string;
  /** The passengers the refund takes out of the booking. */
  passengerIds: string[];
  tickets: TicketQuote[];
}

/**
 * What an operation did to one booking. `booking` is the new state; `changed` says whether it
 * differs from the stored one, so that retries write nothing.
 */
export type BookingOutcome =
  { ok: true; booking: Booking; changed: boolean; refund?: QuotedRefund } | ({ ok: false } & ItemError);

/** A failure from the catalogue (src/errors/item-error.ts): the domain names it, never words it. */
export function failed(error: ItemError): BookingOutcome {
  return { ok: false, code: error.code, message: error.message };
}

export function unchanged(booking: Booking): BookingOutcome {
  return { ok: true, booking, changed: false };
}

export function changedTo(booking: Booking): BookingOutcome {
  return { ok: true, booking, changed: true };
}

/**
 * Changes in the order they were detected (by the instant, then by changeId), whatever order they
 * arrived or were listed in: accepting pending changes applies them in this order.
 */
export function inDetectionOrder<T extends Pick<AirlineChange, 'detectedAt' | 'changeId'>>(changes: readonly T[]): T[] {
  return changes
    .map((change) => ({ change, at: Date.parse(change.detectedAt) }))
    .sort(
      (a, b) =>
        a.at - b.at || (a.change.changeId < b.change.changeId ? -1 : a.change.changeId > b.change.changeId ? 1 : 0),
    )
    .map(({ change }) => change);
}

export function pendingChanges(booking: Booking) {
  return booking.changes.filter((change) => change.status === 'PENDING');
}
