import { acceptChanges } from './accept-changes.js';
import { pendingChanges, type BookingOutcome } from './booking-outcome.js';
import { involuntaryCancel } from './involuntary-cancel.js';
import type { AirlineChange, Booking } from './order.js';

/** Pending changes whose deadline has passed at `now`. */
export function dueChanges(booking: Booking, now: string): AirlineChange[] {
  if (booking.status === 'CANCELED') return [];
  const at = Date.parse(now);
  return pendingChanges(booking).filter(
    (change) => change.actionDeadline !== null && Date.parse(change.actionDeadline) <= at,
  );
}

/**
 * What the airline does when pending changes reach their deadline without the agency acting: the
 * agency's own operation, applied for it. CANCEL (of any due change) is AirOrderInvoluntaryCancel,
 * with its refunds; ACCEPT is AirOrderInvoluntaryAccept, which accepts every pending change as the
 * agency's call would. When the accept rules refuse (another pending change only removes flights,
 * so the itinerary has a hole nothing fills), the booking is cancelled and refunded instead: the
 * airline's default for a flight it no longer operates. Null when nothing is due.
 */
export function applyDeadlineConsequence(
  booking: Booking,
  now: string,
): { outcome: BookingOutcome; consequence: 'ACCEPT' | 'CANCEL' } | null {
  const due = dueChanges(booking, now);
  if (due.length === 0) return null;
  if (due.every((change) => change.consequenceOfInaction === 'ACCEPT')) {
    const accepted = acceptChanges(booking);
    if (accepted.ok) return { outcome: accepted, consequence: 'ACCEPT' };
  }
  return { outcome: involuntaryCancel(booking, now), consequence: 'CANCEL' };
}
