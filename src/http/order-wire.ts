import { pendingChanges } from '../domain/booking-outcome.js';
import { toWireAmount } from '../domain/money.js';
import type { Booking, Order } from '../domain/order.js';
import { refundQuote } from '../domain/refund-quote.js';
import { wireChange, wireRefundQuote, wireSegment } from '../events/change-wire.js';

function wireBooking(booking: Booking, currency: string) {
  const money = (minor: number) => toWireAmount(minor, currency);
  return {
    GdsBookingReference: booking.reference,
    BookingStatus: booking.status,
    Segments: booking.segments.map(wireSegment),
    Passengers: booking.passengers.map((passenger) => ({
      PassengerID: passenger.passengerId,
      Type: passenger.type,
      GivenName: passenger.givenName,
      Surname: passenger.surname,
      ...(passenger.ticket
        ? {
            Ticket: {
              TicketNumber: passenger.ticket.ticketNumber,
              BaseFare: money(passenger.ticket.baseFare),
              Taxes: money(passenger.ticket.taxes),
              Coupons: passenger.ticket.coupons.map((coupon) => ({
                SegmentID: coupon.segmentId,
                Status: coupon.status,
                Value: money(coupon.value),
              })),
            },
          }
        : {}),
      ...(passenger.canceled ? { CanceledAt: passenger.canceled.at } : {}),
    })),
    AirlineChanges: booking.changes.map(wireChange),
    Refunds: booking.refunds.map((refund) => ({
      TicketNumber: refund.ticketNumber,
      Amount: money(refund.amount),
      QuoteType: refund.quoteType,
      CreatedAt: refund.createdAt,
      ...(refund.breakdown
        ? {
            Fare: money(refund.breakdown.fare),
            Taxes: money(refund.breakdown.taxes),
            Penalty: money(refund.breakdown.penalty),
            TaxBreakdown: refund.breakdown.taxLines.map((line) => ({
              TaxCode: line.code,
              Amount: money(line.amount),
              Refundable: line.refundable,
            })),
            QuoteID: refund.quoteId,
          }
        : {}),
    })),
    // What AirOrderInvoluntaryCancel would refund now: shown while there is a change to answer.
    ...(booking.status === 'CONFIRMED' && pendingChanges(booking).length > 0
      ? { RefundQuote: wireRefundQuote(refundQuote(booking), currency) }
      : {}),
  };
}

/**
 * AirOrderRetrieve's `Order` (schemas/order-schema.ts): the domain order in the interface's
 * PascalCase, with the given bookings only, amounts as JSON numbers in the order's currency.
 */
export function wireOrder(order: Order, bookings: readonly Booking[]) {
  return {
    OrderID: order.orderId,
    Currency: order.currency,
    Bookings: bookings.map((booking) => wireBooking(booking, order.currency)),
  };
}
