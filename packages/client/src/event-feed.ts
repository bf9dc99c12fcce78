/**
 * AirOrderEventList's result: a page of the agency's events, oldest first, each typed by its
 * `type` with its data in camelCase (amounts also as minor units where the event names the currency).
 */
import type { OperationSpec } from './operations.js';
import {
  AmountReader,
  readChange,
  readRefundQuote,
  type AirlineChangeView,
  type RefundQuoteView,
} from './order-view.js';
import { Reader, type EnvelopeResult, type ResponseContext } from './results.js';
import type { EventListResponseBody, OrderEventListRS, WireEvent } from './wire.js';

/** The event types the service announces, by webhook and in the feed. */
export const EVENT_TYPES = [
  'airline_change.detected',
  'airline_change.deadline_approaching',
  'airline_change.resolved',
  'booking.canceled',
  'booking.refunded',
] as const;

export type AirOrderEventType = (typeof EVENT_TYPES)[number];

/** Who made a change happen: the agency's call, the operator, or a deadline passing. */
export type EventActor = 'AGENCY' | 'OPERATOR' | 'DEADLINE' | (string & {});

/** `airline_change.detected`, `airline_change.deadline_approaching`: a change awaits the agency. */
export interface ChangeNoticeData {
  orderId: string;
  bookingReference: string;
  currency: string;
  change: AirlineChangeView;
  /** What the agency can do: ACCEPT only when every pending change replaces what it removes. Empty once there is nothing to answer. */
  availableActions: ('ACCEPT' | 'CANCEL' | (string & {}))[];
  /** What cancelInvoluntarily would refund, when there is an action to take. */
  refundQuote: RefundQuoteView | undefined;
}

/** `airline_change.resolved`: a change is no longer pending. */
export interface ChangeResolvedData {
  orderId: string;
  bookingReference: string;
  /** With its new status: ACCEPTED, CANCELED or CLOSED. */
  change: AirlineChangeView;
  resolvedBy: EventActor;
}

/** `booking.canceled`. */
export interface BookingCanceledData {
  orderId: string;
  bookingReference: string;
  cancellation: 'VOLUNTARY' | 'INVOLUNTARY' | (string & {});
  canceledBy: EventActor;
}

/** `booking.refunded`: tickets refunded by an involuntary cancel (the agency's, or a deadline's). */
export interface BookingRefundedData {
  orderId: string;
  bookingReference: string;
  currency: string;
  /** RefundAmount, the JSON number, for display. */
  amount: number;
  /** The exact sum of the tickets' `amountMinor`. */
  amountMinor: number;
  tickets: {
    ticketNumber: string;
    amount: number;
    amountMinor: number;
    quoteType: 'FULL' | 'PARTIAL' | (string & {});
  }[];
  refundedBy: EventActor;
}

export interface AirOrderEventDataByType {
  'airline_change.detected': ChangeNoticeData;
  'airline_change.deadline_approaching': ChangeNoticeData;
  'airline_change.resolved': ChangeResolvedData;
  'booking.canceled': BookingCanceledData;
  'booking.refunded': BookingRefundedData;
}

interface EventFields {
  /** `evt_…`: sortable and unique; also the `webhook-id` of its webhook deliveries. Resume the feed after it. */
  eventId: string;
  /** When the change it reports was made. */
  timestamp: string;
}

/** An event of a type this client knows; `type` narrows `data`. */
export type KnownAirOrderEvent = {
  [Type in AirOrderEventType]: EventFields & {
    type: Type;
    data: AirOrderEventDataByType[Type];
    raw: Extract<WireEvent, { Type: Type }>;
  };
}[AirOrderEventType];

/**
 * An event of a type added to the service after this client: kept rather than dropped, so that a
 * feed reader neither stops at it nor skips it unknowingly. Its type is `raw.Type`.
 */
export interface UnknownAirOrderEvent extends EventFields {
  type: 'unknown';
  data: Record<string, unknown>;
  raw: { EventID: string; Type: string; Timestamp: string; Data: Record<string, unknown> };
}

export type AirOrderEvent = KnownAirOrderEvent | UnknownAirOrderEvent;

export interface EventPage extends EnvelopeResult<EventListResponseBody, OrderEventListRS> {
  /** Oldest first; empty when there is nothing after `after` yet. */
  events: AirOrderEvent[];
  /** Send it as `after` for the next page: the last event's id, or `after` itself when the page is empty ("" with no event at all). */
  nextAfter: string;
}

// ---------------------------------------------------------------------------------------------

function isKnownType(type: string): type is AirOrderEventType {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

function readData(
  reader: Reader,
  type: AirOrderEventType,
  data: Record<string, unknown>,
  where: string,
): AirOrderEventDataByType[AirOrderEventType] {
  const head = {
    orderId: reader.string(data, 'OrderID', where),
    bookingReference: reader.string(data, 'GdsBookingReference', where),
  };
  switch (type) {
    case 'airline_change.detected':
    case 'airline_change.deadline_approaching': {
      const currency = reader.string(data, 'Currency', where);
      const amounts = new AmountReader(reader, currency, where);
      return {
        ...head,
        currency,
        change: readChange(reader, reader.object(data, 'Change', where), `${where}.Change`),
        availableActions: reader.strings(data, 'AvailableActions', where),
        refundQuote:
          data.RefundQuote === undefined
            ? undefined
            : readRefundQuote(reader, amounts, reader.object(data, 'RefundQuote', where), `${where}.RefundQuote`),
      };
    }
    case 'airline_change.resolved':
      return {
        ...head,
        change: readChange(reader, reader.object(data, 'Change', where), `${where}.Change`),
        resolvedBy: reader.string(data, 'ResolvedBy', where),
      };
    case 'booking.canceled':
      return {
        ...head,
        cancellation: reader.string(data, 'Cancellation', where),
        canceledBy: reader.string(data, 'CanceledBy', where),
      };
    case 'booking.refunded': {
      const currency = reader.string(data, 'Currency', where);
      const amounts = new AmountReader(reader, currency, where);
      const [amount, amountMinor] = amounts.read(data, 'RefundAmount', where);
      const tickets = reader.objects(data, 'Tickets', where).map(([ticket, at]) => {
        const [ticketAmount, ticketMinor] = amounts.read(ticket, 'Amount', at);
        return {
          ticketNumber: reader.string(ticket, 'TicketNumber', at),
          amount: ticketAmount,
          amountMinor: ticketMinor,
          quoteType: reader.string(ticket, 'QuoteType', at),
        };
      });
      if (tickets.reduce((sum, ticket) => sum + ticket.amountMinor, 0) !== amountMinor) {
        throw reader.invalid(`${where}.RefundAmount ${amount} is not the sum of its tickets' amounts`);
      }
      return { ...head, currency, amount, amountMinor, tickets, refundedBy: reader.string(data, 'RefundedBy', where) };
    }
  }
}

export function readEventPage(body: unknown, context: ResponseContext, operation: OperationSpec): EventPage {
  const reader = new Reader(body, context);
  const envelope = reader.envelope(operation);
  const events = reader.items(envelope, operation).map((event, index): AirOrderEvent => {
    const where = `${operation.resultKey}[${index}]`;
    const fields = {
      eventId: reader.string(event, 'EventID', where),
      timestamp: reader.string(event, 'Timestamp', where),
    };
    const type = reader.string(event, 'Type', where);
    const data = reader.object(event, 'Data', where);
    if (!isKnownType(type)) return { ...fields, type: 'unknown', data, raw: event as UnknownAirOrderEvent['raw'] };
    // The switch in readData pairs each type with its data; TypeScript cannot follow it through the union.
    return { ...fields, type, data: readData(reader, type, data, `${where}.Data`), raw: event } as KnownAirOrderEvent;
  });
  const nextAfter = reader.string(envelope, 'NextAfter', operation.responseRoot);
  if (events.length > 0 && nextAfter !== events.at(-1)!.eventId)
    throw reader.invalid('NextAfter is not the id of the last event listed');
  return { ...reader.envelopeResult<EventListResponseBody, OrderEventListRS>(envelope), events, nextAfter };
}
