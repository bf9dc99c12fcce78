import { pendingChanges } from '../domain/booking-outcome.js';
import { toWireAmount } from '../domain/money.js';
import type { AirlineChange, Booking, Order, Segment } from '../domain/order.js';
import { refundQuote, type RefundQuote } from '../domain/refund-quote.js';

export function wireSegment(segment: Segment) {
  return {
    SegmentID: segment.segmentId,
    Carrier: segment.carrier,
    FlightNumber: segment.flightNumber,
    Origin: segment.origin,
    Destination: segment.destination,
    Departure: segment.departure,
    Arrival: segment.arrival,
  };
}

/** An airline change as AirOrderRetrieve and the events show it; ActionDeadline only when the airline set one. */
export function wireChange(change: AirlineChange) {
  return {
    ChangeID: change.changeId,
    Kind: change.kind,
    Status: change.status,
    DetectedAt: change.detectedAt,
    RemovedSegments: change.removedSegments,
    AddedSegments: change.addedSegments.map(wireSegment),
    ...(change.actionDeadline ? { ActionDeadline: change.actionDeadline } : {}),
    ConsequenceOfInaction: change.consequenceOfInaction,
  };
}

export function wireRefundQuote(quote: RefundQuote, currency: string) {
  return {
    Amount: toWireAmount(quote.amount, currency),
    QuoteType: quote.quoteType,
    Tickets: quote.tickets.map((ticket) => ({ TicketNumber: ticket.ticketNumber, Amount: toWireAmount(ticket.amount, currency) })),
  };
}

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
      ...(passenger.ticket ? {
        Ticket: {
          TicketNumber: passenger.ticket.ticketNumber,
          BaseFare: money(passenger.ticket.baseFare),
          Taxes: money(passenger.ticket.taxes),
          Coupons: passenger.ticket.coupons.map((coupon) => ({ SegmentID: coupon.segmentId, Status: coupon.status, Value: money(coupon.value) })),
        },
      } : {}),
    })),
    AirlineChanges: booking.changes.map(wireChange),
    Refunds: booking.refunds.map((refund) => ({
      TicketNumber: refund.ticketNumber,
      Amount: money(refund.amount),
      QuoteType: refund.quoteType,
      CreatedAt: refund.createdAt,
    })),
    // What AirOrderInvoluntaryCancel would refund now: shown while there is a change to answer.
    ...(booking.status === 'CONFIRMED' && pendingChanges(booking).length > 0 ? { RefundQuote: wireRefundQuote(refundQuote(booking), currency) } : {}),
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
