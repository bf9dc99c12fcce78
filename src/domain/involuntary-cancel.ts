import { itemErrors } from '../errors/item-error.js';
import { changedTo, failed, pendingChanges, unchanged, type BookingOutcome } from './booking-outcome.js';
import type { Booking } from './order.js';
import { refundQuote } from './refund-quote.js';

/**
 * AirOrderInvoluntaryCancel on one booking: cancels it because of pending airline changes and
 * refunds every ticket's open coupons. A booking this operation already cancelled answers with
 * its stored refunds, so a retry refunds nothing twice.
 */
export function involuntaryCancel(booking: Booking, now: string): BookingOutcome {
  if (booking.status === 'CANCELED') {
    if (booking.cancellation === 'INVOLUNTARY') return unchanged(booking);
    return failed(itemErrors.cancelledVoluntarily(booking.reference));
  }
  if (pendingChanges(booking).length === 0) {
    return failed(itemErrors.noPendingChange(booking.reference));
  }
  const refunds = refundQuote(booking).tickets.map((ticket) => ({ ...ticket, createdAt: now }));
  return changedTo({
    ...booking,
    status: 'CANCELED',
    cancellation: 'INVOLUNTARY',
    passengers: booking.passengers.map((passenger) =>
      passenger.ticket
        ? {
            ...passenger,
            ticket: {
              ...passenger.ticket,
              coupons: passenger.ticket.coupons.map((coupon) =>
                coupon.status === 'OPEN' ? { ...coupon, status: 'REFUNDED' } : coupon,
              ),
            },
          }
        : passenger,
    ),
    changes: booking.changes.map((change) =>
      change.status === 'PENDING' ? { ...change, status: 'CANCELED' } : change,
    ),
    // Passengers refunded voluntarily before keep their refunds.
    refunds: [...booking.refunds, ...refunds],
  });
}
