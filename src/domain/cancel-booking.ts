import { changedTo, unchanged, type BookingOutcome } from './booking-outcome.js';
import type { Booking } from './order.js';

/**
 * AirOrderCancel on one booking: a confirmed booking becomes CANCELED and its pending airline
 * changes are CLOSED; an already cancelled booking stays as it is (a retry succeeds).
 * A voluntary cancellation refunds nothing: coupons keep their status.
 */
export function cancelBooking(booking: Booking): BookingOutcome {
  if (booking.status === 'CANCELED') return unchanged(booking);
  return changedTo({
    ...booking,
    status: 'CANCELED',
    cancellation: 'VOLUNTARY',
    changes: booking.changes.map((change) => (change.status === 'PENDING' ? { ...change, status: 'CLOSED' } : change)),
  });
}
