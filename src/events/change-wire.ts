import { toWireAmount } from '../domain/money.js';
import type { AirlineChange, Segment } from '../domain/order.js';
import type { RefundQuote } from '../domain/refund-quote.js';

// The pieces of an order that both the events and AirOrderRetrieve show, in the interface's
// PascalCase: one shape for both, kept here so that the events (which the service emits inside its
// changes) need nothing of the HTTP layer.

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
    Tickets: quote.tickets.map((ticket) => ({
      TicketNumber: ticket.ticketNumber,
      Amount: toWireAmount(ticket.amount, currency),
    })),
  };
}
