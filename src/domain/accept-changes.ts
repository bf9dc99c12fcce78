import { itemErrors } from '../errors/item-error.js';
import {
  changedTo,
  failed,
  inDetectionOrder,
  pendingChanges,
  unchanged,
  type BookingOutcome,
} from './booking-outcome.js';
import { reassignCoupons } from './coupon-reassignment.js';
import { changeItinerary, orderCoupons } from './itinerary.js';
import type { Booking } from './order.js';

/**
 * AirOrderInvoluntaryAccept on one booking: every pending airline change is accepted in detection
 * order; the itinerary becomes the changed one and the coupons move with it.
 */
export function acceptChanges(booking: Booking): BookingOutcome {
  if (booking.status === 'CANCELED') {
    return failed(itemErrors.bookingCancelled(booking.reference));
  }
  const pending = inDetectionOrder(pendingChanges(booking));
  if (pending.length === 0) {
    const latest = booking.changes.at(-1);
    if (latest?.status === 'ACCEPTED') return unchanged(booking);
    return failed(itemErrors.noPendingChange(booking.reference));
  }
  const withoutReplacement = pending.find((change) => change.addedSegments.length === 0);
  if (withoutReplacement) {
    return failed(itemErrors.noReplacementOffered(withoutReplacement.changeId));
  }

  let { segments, passengers } = booking;
  for (const change of pending) {
    segments = changeItinerary(segments, new Set(change.removedSegments), change.addedSegments);
    passengers = passengers.map((passenger) =>
      passenger.ticket
        ? { ...passenger, ticket: reassignCoupons(passenger.ticket, change.removedSegments, change.addedSegments) }
        : passenger,
    );
  }
  passengers = passengers.map((passenger) =>
    passenger.ticket
      ? { ...passenger, ticket: { ...passenger.ticket, coupons: orderCoupons(passenger.ticket.coupons, segments) } }
      : passenger,
  );

  return changedTo({
    ...booking,
    segments,
    passengers,
    changes: booking.changes.map((change) =>
      change.status === 'PENDING' ? { ...change, status: 'ACCEPTED' } : change,
    ),
  });
}
