/**
 * The wire format of the airorder service: request and response envelopes of each operation,
 * field for field, taken from the types openapi-typescript generates from the service's own OpenAPI
 * document (generated/openapi.ts), so that they cannot drift from what the service sends. These are
 * the JSON bodies exactly as sent and received; the friendlier views are in results.ts.
 */
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

// ---------------------------------------------------------------------------------------------
// Requests: the service also accepts one GdsBookingReference as a string and ReferenceVersion as
// a number; the client sends the array and the string.

type Request<Name extends keyof Schemas, Root extends keyof Schemas[Name]> = Schemas[Name][Root];

export type WireRequest = Request<'AirOrderCancelRequest', 'OrderCancelRQ'>;
export type WireDocument = NonNullable<WireRequest['Document']>;
export type WireTravelAgencySenderInput = NonNullable<
  NonNullable<NonNullable<WireRequest['Party']>['Sender']>['TravelAgencySender']
>;

export type CancelRequestBody = Schemas['AirOrderCancelRequest'];
export type InvoluntaryAcceptRequestBody = Schemas['AirOrderInvoluntaryAcceptRequest'];
export type InvoluntaryCancelRequestBody = Schemas['AirOrderInvoluntaryCancelRequest'];
export type RetrieveRequestBody = Schemas['AirOrderRetrieveRequest'];

/** AirOrderEventList's request: no order, and every field optional. */
export type WireEventListRequest = Request<'AirOrderEventListRequest', 'OrderEventListRQ'>;
export type EventListRequestBody = Schemas['AirOrderEventListRequest'];

// ---------------------------------------------------------------------------------------------
// Responses

/** AirOrderCancel's envelope (OrderViewRS), the model of the fields every envelope shares. */
type CancelEnvelope = Schemas['AirOrderCancelResponse']['OrderViewRS'];

/** The authenticated agency's registered profile; empty strings (and no contacts) when unauthenticated. */
export type WireTravelAgencySender = CancelEnvelope['Party']['Sender']['TravelAgencySender'];

type ErrorsOf<Body> = Body extends Record<string, { Errors?: (infer Item)[] }> ? Item : never;

/** One failure of a response's Errors: Code is one the operation can answer (the union over all here). */
export type WireError =
  | ErrorsOf<Schemas['AirOrderCancelResponse']>
  | ErrorsOf<Schemas['AirOrderInvoluntaryAcceptResponse']>
  | ErrorsOf<Schemas['AirOrderInvoluntaryCancelResponse']>
  | ErrorsOf<Schemas['AirOrderRetrieveResponse']>
  | ErrorsOf<Schemas['AirOrderEventListResponse']>;

/** Fields every response envelope carries, on every outcome (docs/contract.md §4). */
export type WireEnvelopeBase = Pick<CancelEnvelope, 'Document' | 'Party' | 'ShoppingResponseId' | 'Success'> & {
  Errors?: WireError[];
};

/**
 * SUCCESS or FAILED as the service sends it. The interface also documents FAILURE as a variant of
 * FAILED: the client's readers take anything but SUCCESS as a failure.
 */
export type WireStatus = CancelEnvelope['Response'][number]['Status'];

export type WireCancelItem = CancelEnvelope['Response'][number];
export type OrderViewRS = CancelEnvelope;
export type OrderInvoluntaryAcceptRS = Schemas['AirOrderInvoluntaryAcceptResponse']['OrderInvoluntaryAcceptRS'];
export type OrderInvoluntaryCancelRS = Schemas['AirOrderInvoluntaryCancelResponse']['OrderInvoluntaryCancelRS'];
export type WireInvoluntaryAcceptItem = OrderInvoluntaryAcceptRS['Result'][number];
export type WireInvoluntaryCancelItem = OrderInvoluntaryCancelRS['Result'][number];
export type WireRefundPaxWiseFare = WireInvoluntaryCancelItem['RefundPaxWiseFare'][number];

export type CancelResponseBody = Schemas['AirOrderCancelResponse'];
export type InvoluntaryAcceptResponseBody = Schemas['AirOrderInvoluntaryAcceptResponse'];
export type InvoluntaryCancelResponseBody = Schemas['AirOrderInvoluntaryCancelResponse'];

// ---------------------------------------------------------------------------------------------
// AirOrderRetrieve: the order as it stands. Amounts are JSON numbers in Order.Currency.

/** AirOrderRetrieve's envelope: AirOrderCancel's, with the order (absent from an error's envelope). */
type RetrieveEnvelope = Schemas['AirOrderRetrieveResponse']['OrderViewRS'];
export type WireOrder = NonNullable<RetrieveEnvelope['Order']>;
export type WireBooking = WireOrder['Bookings'][number];
export type WireSegment = WireBooking['Segments'][number];
export type WirePassenger = WireBooking['Passengers'][number];
export type WireTicket = NonNullable<WirePassenger['Ticket']>;
export type WireCoupon = WireTicket['Coupons'][number];
/** An airline-initiated change, as AirOrderRetrieve and the events show it. */
export type WireAirlineChange = WireBooking['AirlineChanges'][number];
export type WireChangeKind = WireAirlineChange['Kind'];
export type WireChangeStatus = WireAirlineChange['Status'];
export type WireConsequence = WireAirlineChange['ConsequenceOfInaction'];
/** What AirOrderInvoluntaryCancel would refund now. */
export type WireRefundQuote = NonNullable<WireBooking['RefundQuote']>;
export type WireQuoteType = WireRefundQuote['QuoteType'];
/** A refund made by AirOrderInvoluntaryCancel (or a deadline's CANCEL), per ticket. */
export type WireRefundRecord = WireBooking['Refunds'][number];

/** AirOrderRetrieve's answer on HTTP 200: AirOrderCancel's envelope and items, plus the order. */
export type RetrieveOrderViewRS = RetrieveEnvelope & { Order: WireOrder };
export interface RetrieveResponseBody {
  OrderViewRS: RetrieveOrderViewRS;
}

// ---------------------------------------------------------------------------------------------
// AirOrderEventList: the agency's event feed. Data is in the interface's PascalCase.

/** Who made the change happen. */
export type WireEventActor = 'AGENCY' | 'OPERATOR' | 'DEADLINE';

/** `airline_change.detected` and `airline_change.deadline_approaching`: a change awaits the agency. */
export interface WireChangeNoticeData {
  OrderID: string;
  GdsBookingReference: string;
  Currency: string;
  Change: WireAirlineChange;
  /** Empty when the booking is no longer CONFIRMED or nothing is pending; ACCEPT only when every pending change replaces what it removes. */
  AvailableActions: WireConsequence[];
  /** Present exactly when AvailableActions is not empty. */
  RefundQuote?: WireRefundQuote;
}

export interface WireChangeResolvedData {
  OrderID: string;
  GdsBookingReference: string;
  /** The change with its new Status (ACCEPTED, CANCELED or CLOSED). */
  Change: WireAirlineChange;
  ResolvedBy: WireEventActor;
}

export interface WireBookingCanceledData {
  OrderID: string;
  GdsBookingReference: string;
  Cancellation: 'VOLUNTARY' | 'INVOLUNTARY';
  CanceledBy: WireEventActor;
}

export interface WireBookingRefundedData {
  OrderID: string;
  GdsBookingReference: string;
  Currency: string;
  /** The sum of the tickets' amounts. */
  RefundAmount: number;
  Tickets: { TicketNumber: string; Amount: number; QuoteType: WireQuoteType }[];
  RefundedBy: WireEventActor;
}

/** Each event type of the feed and the Data it carries. */
export interface WireEventDataByType {
  'airline_change.detected': WireChangeNoticeData;
  'airline_change.deadline_approaching': WireChangeNoticeData;
  'airline_change.resolved': WireChangeResolvedData;
  'booking.canceled': WireBookingCanceledData;
  'booking.refunded': WireBookingRefundedData;
}

export type WireEventType = keyof WireEventDataByType;

// The document leaves Data open (docs/webhooks.md describes it per type), but names the types: the
// client's must be exactly the document's, or this does not compile.
type GeneratedEvent = Schemas['AirOrderEventListResponse']['OrderEventListRS']['Events'][number];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<Condition extends true> = Condition;
export type EventTypesAreTheDocuments = Assert<Same<WireEventType, GeneratedEvent['Type']>>;

/** One event of the feed, as sent. */
export type WireEvent = {
  [Type in WireEventType]: { EventID: string; Type: Type; Timestamp: string; Data: WireEventDataByType[Type] };
}[WireEventType];

export interface OrderEventListRS extends WireEnvelopeBase {
  /** The id to send as Query.After for the next page. Always on HTTP 200; absent from an error's envelope. */
  NextAfter?: string;
  /** Oldest first. */
  Events: WireEvent[];
}

export interface EventListResponseBody {
  OrderEventListRS: OrderEventListRS;
}

/** Any operation's response envelope (the object under the response root key). */
export type OperationEnvelope = OrderViewRS | OrderInvoluntaryAcceptRS | OrderInvoluntaryCancelRS | OrderEventListRS;

/** The body of a failure that is not an operation's envelope (unknown route, oversized headers). */
export interface PlainErrorBody {
  Errors: { Code: string; Message: string }[];
}
