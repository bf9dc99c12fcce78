/**
 * AirOrderRetrieve's result: the order as it stands, in camelCase, every amount both as the wire's
 * JSON number and as integer minor units of `Order.Currency`, read without floating-point arithmetic.
 */
import { currencyExponent, numberToMinor } from './money.js';
import type { OperationSpec } from './operations.js';
import { readCancelItems, Reader, type CancelItem, type EnvelopeResult, type ResponseContext } from './results.js';
import type { RetrieveOrderViewRS, RetrieveResponseBody, WireOrder } from './wire.js';

export interface SegmentView {
  segmentId: string;
  /** IATA airline code. */
  carrier: string;
  flightNumber: string;
  /** IATA airport code. */
  origin: string;
  destination: string;
  departure: string;
  arrival: string;
}

export interface CouponView {
  segmentId: string;
  /** USED: flown; REFUNDED after an involuntary cancel. */
  status: 'OPEN' | 'USED' | 'REFUNDED' | (string & {});
  /** The JSON number, for display. */
  value: number;
  /** Integer minor units of the order's currency: do arithmetic on these. */
  valueMinor: number;
}

export interface TicketView {
  ticketNumber: string;
  baseFare: number;
  baseFareMinor: number;
  taxes: number;
  taxesMinor: number;
  /** One per segment of the booking. */
  coupons: CouponView[];
}

export interface PassengerView {
  passengerId: string;
  type: 'ADT' | 'CHD' | 'INF' | (string & {});
  givenName: string;
  surname: string;
  /** Undefined for an unticketed passenger. */
  ticket: TicketView | undefined;
}

export interface AirlineChangeView {
  changeId: string;
  kind: 'SCHEDULE_CHANGE' | 'FLIGHT_CANCELLATION' | 'ROUTING_CHANGE' | (string & {});
  /** PENDING awaits acceptInvoluntaryChange or cancelInvoluntarily; CLOSED: the booking was cancelled voluntarily meanwhile. */
  status: 'PENDING' | 'ACCEPTED' | 'CANCELED' | 'CLOSED' | (string & {});
  detectedAt: string;
  /** SegmentIDs the change takes out of the itinerary. */
  removedSegments: string[];
  /** The replacement flights; empty when the change only removes flights. */
  addedSegments: SegmentView[];
  /** When the airline applies `consequenceOfInaction` if the change is still PENDING; undefined: no time limit. */
  actionDeadline: string | undefined;
  /** ACCEPT: deemed accepted; CANCEL: the booking is cancelled and refunded as cancelInvoluntarily would. */
  consequenceOfInaction: 'ACCEPT' | 'CANCEL' | (string & {});
}

/** What cancelInvoluntarily would refund now. */
export interface RefundQuoteView {
  amount: number;
  /** The exact sum of the tickets' `amountMinor`. */
  amountMinor: number;
  currency: string;
  /** PARTIAL when a coupon of any ticket was flown. */
  quoteType: 'FULL' | 'PARTIAL' | (string & {});
  /** Per ticket, in passenger order. */
  tickets: { ticketNumber: string; amount: number; amountMinor: number }[];
}

/** A refund made per ticket by an involuntary cancel. */
export interface RefundRecordView {
  ticketNumber: string;
  amount: number;
  amountMinor: number;
  quoteType: 'FULL' | 'PARTIAL' | (string & {});
  createdAt: string;
}

export interface BookingView {
  bookingReference: string;
  bookingStatus: 'CONFIRMED' | 'CANCELED' | (string & {});
  /** The current itinerary, by departure. */
  segments: SegmentView[];
  passengers: PassengerView[];
  /** In detection order. */
  airlineChanges: AirlineChangeView[];
  /** Per ticket, in passenger order; empty until the booking is cancelled involuntarily. */
  refunds: RefundRecordView[];
  /** Present on a CONFIRMED booking with a PENDING change: exactly what cancelInvoluntarily would refund now. */
  refundQuote: RefundQuoteView | undefined;
}

export interface OrderView {
  orderId: string;
  /** ISO 4217 code of every amount of the order. */
  currency: string;
  /** The requested bookings the order has, in request order. */
  bookings: BookingView[];
  raw: WireOrder;
}

/** A Response item, as AirOrderCancel's, with the booking it names (undefined on a failed item). */
export type RetrieveItem = CancelItem & { booking: BookingView | undefined };

export interface RetrieveResult extends EnvelopeResult<RetrieveResponseBody, RetrieveOrderViewRS> {
  /** One per requested booking reference, in request order; `bookingStatus` is the booking's status now. */
  items: RetrieveItem[];
  order: OrderView;
}

// ---------------------------------------------------------------------------------------------

/** Reads wire amounts in one currency into `{ amount, amountMinor }` pairs. */
export class AmountReader {
  private readonly exponent: number;

  constructor(
    private readonly reader: Reader,
    readonly currency: string,
    where: string,
  ) {
    try {
      this.exponent = currencyExponent(currency);
    } catch {
      throw reader.invalid(`${where}.Currency "${currency}" is not an ISO 4217 code`);
    }
  }

  /** The field's number and its minor units; a number with more decimals than the currency is a broken contract. */
  read(item: Record<string, unknown>, field: string, where: string): [number, number] {
    const value = this.reader.number(item, field, where);
    try {
      return [value, numberToMinor(value, this.exponent)];
    } catch (error) {
      throw this.reader.invalid(
        `${where}.${field} ${value} is not an amount in ${this.currency}: ${(error as Error).message}`,
      );
    }
  }
}

export function readSegment(reader: Reader, segment: Record<string, unknown>, where: string): SegmentView {
  return {
    segmentId: reader.string(segment, 'SegmentID', where),
    carrier: reader.string(segment, 'Carrier', where),
    flightNumber: reader.string(segment, 'FlightNumber', where),
    origin: reader.string(segment, 'Origin', where),
    destination: reader.string(segment, 'Destination', where),
    departure: reader.string(segment, 'Departure', where),
    arrival: reader.string(segment, 'Arrival', where),
  };
}

export function readChange(reader: Reader, change: Record<string, unknown>, where: string): AirlineChangeView {
  return {
    changeId: reader.string(change, 'ChangeID', where),
    kind: reader.string(change, 'Kind', where),
    status: reader.string(change, 'Status', where),
    detectedAt: reader.string(change, 'DetectedAt', where),
    removedSegments: reader.strings(change, 'RemovedSegments', where),
    addedSegments: reader
      .objects(change, 'AddedSegments', where)
      .map(([segment, at]) => readSegment(reader, segment, at)),
    actionDeadline: reader.optionalString(change, 'ActionDeadline', where),
    consequenceOfInaction: reader.string(change, 'ConsequenceOfInaction', where),
  };
}

export function readRefundQuote(
  reader: Reader,
  amounts: AmountReader,
  quote: Record<string, unknown>,
  where: string,
): RefundQuoteView {
  const [amount, amountMinor] = amounts.read(quote, 'Amount', where);
  const tickets = reader.objects(quote, 'Tickets', where).map(([ticket, at]) => {
    const [ticketAmount, ticketMinor] = amounts.read(ticket, 'Amount', at);
    return { ticketNumber: reader.string(ticket, 'TicketNumber', at), amount: ticketAmount, amountMinor: ticketMinor };
  });
  // The total is the sum of the tickets' refunds: checked in integers, never guessed.
  if (tickets.reduce((sum, ticket) => sum + ticket.amountMinor, 0) !== amountMinor) {
    throw reader.invalid(`${where}.Amount ${amount} is not the sum of its tickets' amounts`);
  }
  return {
    amount,
    amountMinor,
    currency: amounts.currency,
    quoteType: reader.string(quote, 'QuoteType', where),
    tickets,
  };
}

function readTicket(reader: Reader, amounts: AmountReader, ticket: Record<string, unknown>, where: string): TicketView {
  const [baseFare, baseFareMinor] = amounts.read(ticket, 'BaseFare', where);
  const [taxes, taxesMinor] = amounts.read(ticket, 'Taxes', where);
  return {
    ticketNumber: reader.string(ticket, 'TicketNumber', where),
    baseFare,
    baseFareMinor,
    taxes,
    taxesMinor,
    coupons: reader.objects(ticket, 'Coupons', where).map(([coupon, at]) => {
      const [value, valueMinor] = amounts.read(coupon, 'Value', at);
      return {
        segmentId: reader.string(coupon, 'SegmentID', at),
        status: reader.string(coupon, 'Status', at),
        value,
        valueMinor,
      };
    }),
  };
}

function readBooking(
  reader: Reader,
  amounts: AmountReader,
  booking: Record<string, unknown>,
  where: string,
): BookingView {
  return {
    bookingReference: reader.string(booking, 'GdsBookingReference', where),
    bookingStatus: reader.string(booking, 'BookingStatus', where),
    segments: reader.objects(booking, 'Segments', where).map(([segment, at]) => readSegment(reader, segment, at)),
    passengers: reader.objects(booking, 'Passengers', where).map(([passenger, at]) => ({
      passengerId: reader.string(passenger, 'PassengerID', at),
      type: reader.string(passenger, 'Type', at),
      givenName: reader.string(passenger, 'GivenName', at),
      surname: reader.string(passenger, 'Surname', at),
      ticket:
        passenger.Ticket === undefined
          ? undefined
          : readTicket(reader, amounts, reader.object(passenger, 'Ticket', at), `${at}.Ticket`),
    })),
    airlineChanges: reader
      .objects(booking, 'AirlineChanges', where)
      .map(([change, at]) => readChange(reader, change, at)),
    refunds: reader.objects(booking, 'Refunds', where).map(([refund, at]) => {
      const [amount, amountMinor] = amounts.read(refund, 'Amount', at);
      return {
        ticketNumber: reader.string(refund, 'TicketNumber', at),
        amount,
        amountMinor,
        quoteType: reader.string(refund, 'QuoteType', at),
        createdAt: reader.string(refund, 'CreatedAt', at),
      };
    }),
    refundQuote:
      booking.RefundQuote === undefined
        ? undefined
        : readRefundQuote(reader, amounts, reader.object(booking, 'RefundQuote', where), `${where}.RefundQuote`),
  };
}

export function readRetrieveResult(body: unknown, context: ResponseContext, operation: OperationSpec): RetrieveResult {
  const reader = new Reader(body, context);
  const envelope = reader.envelope(operation);
  const order = reader.object(envelope, 'Order', operation.responseRoot);
  const currency = reader.string(order, 'Currency', 'Order');
  const amounts = new AmountReader(reader, currency, 'Order');
  const bookings = reader
    .objects(order, 'Bookings', 'Order')
    .map(([booking, at]) => readBooking(reader, amounts, booking, at));
  const items = readCancelItems(reader, envelope, operation).map((item): RetrieveItem => ({
    ...item,
    booking:
      item.status === 'SUCCESS'
        ? bookings.find((booking) => booking.bookingReference === item.bookingReference)
        : undefined,
  }));
  if (items.some((item) => item.status === 'SUCCESS' && item.booking === undefined)) {
    throw reader.invalid('a booking reported SUCCESS is missing from Order.Bookings');
  }
  return {
    ...reader.envelopeResult<RetrieveResponseBody, RetrieveOrderViewRS>(
      envelope,
      items.every((item) => item.status === 'SUCCESS'),
    ),
    items,
    order: {
      orderId: reader.string(order, 'OrderID', 'Order'),
      currency,
      bookings,
      raw: order as unknown as WireOrder,
    },
  };
}
