import { pendingChanges } from '../domain/booking-outcome.js';
import { toWireAmount } from '../domain/money.js';
import type { AirlineChange, Booking } from '../domain/order.js';
import { refundTotal } from '../domain/refund-calculator.js';
import { refundQuote } from '../domain/refund-quote.js';
import { wireChange, wireRefundQuote } from './change-wire.js';
import type { AgencyEvent, EventActor, EventType } from './event-types.js';

export interface OrderHead {
  orderId: string;
  agencyId: string;
  currency: string;
}

/** What an agency can do about a pending change: accept it only when something replaces the removed flights. */
function availableActions(booking: Booking): string[] {
  if (booking.status !== 'CONFIRMED' || pendingChanges(booking).length === 0) return [];
  return pendingChanges(booking).every((change) => change.addedSegments.length > 0) ? ['ACCEPT', 'CANCEL'] : ['CANCEL'];
}

/**
 * A change that awaits the agency, with what it can do and what cancelling would refund:
 * `airline_change.detected` and `airline_change.deadline_approaching`.
 */
export function changeNotice(
  type: Extract<EventType, 'airline_change.detected' | 'airline_change.deadline_approaching'>,
  order: OrderHead,
  booking: Booking,
  change: AirlineChange,
): AgencyEvent {
  const actions = availableActions(booking);
  return {
    agencyId: order.agencyId,
    type,
    data: {
      OrderID: order.orderId,
      GdsBookingReference: booking.reference,
      Currency: order.currency,
      Change: wireChange(change),
      AvailableActions: actions,
      ...(actions.length > 0 ? { RefundQuote: wireRefundQuote(refundQuote(booking), order.currency) } : {}),
    },
  };
}

/**
 * What an operation changed on one booking, as events: changes no longer pending, the booking
 * cancelled, tickets refunded. Written by the same transaction as the change itself.
 */
export function bookingEvents(order: OrderHead, before: Booking, after: Booking, by: EventActor): AgencyEvent[] {
  const events: AgencyEvent[] = [];
  const base = { OrderID: order.orderId, GdsBookingReference: after.reference };
  const previous = new Map(before.changes.map((change) => [change.changeId, change.status]));
  for (const change of after.changes) {
    if (previous.get(change.changeId) !== 'PENDING' || change.status === 'PENDING') continue;
    events.push({
      agencyId: order.agencyId,
      type: 'airline_change.resolved',
      data: { ...base, Change: wireChange(change), ResolvedBy: by },
    });
  }
  if (before.status !== 'CANCELED' && after.status === 'CANCELED') {
    // Ended by a voluntary refund: what the booking's refunds came to, in the order's currency.
    const voluntary = after.refunds.length > before.refunds.length && after.refunds.at(-1)!.quoteId !== undefined;
    events.push({
      agencyId: order.agencyId,
      type: 'booking.canceled',
      data: {
        ...base,
        Cancellation: after.cancellation,
        CanceledBy: by,
        ...(voluntary
          ? { Currency: order.currency, RefundAmount: toWireAmount(refundTotal(after.refunds), order.currency) }
          : {}),
      },
    });
  }
  const refunds = after.refunds.slice(before.refunds.length);
  if (refunds.length > 0) {
    events.push({
      agencyId: order.agencyId,
      type: 'booking.refunded',
      data: {
        ...base,
        Currency: order.currency,
        RefundAmount: toWireAmount(refundTotal(refunds), order.currency),
        Tickets: refunds.map((refund) => ({
          TicketNumber: refund.ticketNumber,
          Amount: toWireAmount(refund.amount, order.currency),
          QuoteType: refund.quoteType,
          // A voluntary refund's breakdown, as its AirOrderRefund item shows it.
          ...(refund.breakdown
            ? {
                Fare: toWireAmount(refund.breakdown.fare, order.currency),
                Taxes: toWireAmount(refund.breakdown.taxes, order.currency),
                Penalty: toWireAmount(refund.breakdown.penalty, order.currency),
                QuoteID: refund.quoteId,
              }
            : {}),
        })),
        RefundedBy: by,
      },
    });
  }
  return events;
}
