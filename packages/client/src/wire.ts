/**
 * The wire format of the airorder service, as the interface and the contract define it: request
 * and response envelopes of each operation, field for field. These are the JSON bodies exactly as
 * sent and received; the friendlier views are in results.ts.
 */

// ---------------------------------------------------------------------------------------------
// Requests

export interface WireDocument {
  Name?: string;
  /** A decimal number carried as a string, such as "1.0". */
  ReferenceVersion?: string;
}

export interface WireTravelAgencySenderInput {
  Name?: string;
  IATA_Number?: string;
  AgencyID?: string;
  Contacts?: { Contact: { EmailContact: string }[] };
}

export interface WireRequest {
  Document?: WireDocument;
  Party?: { Sender: { TravelAgencySender: WireTravelAgencySenderInput } };
  Query: { OrderID: string; GdsBookingReference: string[] };
}

export interface CancelRequestBody { OrderCancelRQ: WireRequest }
export interface InvoluntaryAcceptRequestBody { OrderInvoluntaryAcceptRQ: WireRequest }
export interface InvoluntaryCancelRequestBody { OrderInvoluntaryCancelRQ: WireRequest }
export interface RetrieveRequestBody { OrderRetrieveRQ: WireRequest }

/** AirOrderEventList's request: no order, and every field optional. */
export interface WireEventListRequest {
  Document?: WireDocument;
  Party?: { Sender: { TravelAgencySender: WireTravelAgencySenderInput } };
  Query?: {
    /** The last event id seen (`evt_` and 28 hex digits): the previous page's NextAfter. */
    After?: string;
    /** Events per page, 1 to 500; the service's default is 100. */
    Limit?: number;
  };
}

export interface EventListRequestBody { OrderEventListRQ: WireEventListRequest }

// ---------------------------------------------------------------------------------------------
// Responses

/** The authenticated agency's registered profile; empty strings (and no contacts) when unauthenticated. */
export interface WireTravelAgencySender {
  Name: string;
  IATA_Number: string;
  AgencyID: string;
  Contacts: { Contact: { EmailContact: string }[] };
}

export interface WireError {
  Code: string;
  Message: string;
}

/** Fields every response envelope carries, on every outcome (contract §4). */
export interface WireEnvelopeBase {
  Document: { Name: string; ReferenceVersion: string };
  Party: { Sender: { TravelAgencySender: WireTravelAgencySender } };
  /** Unique per response; equal to the X-Request-Id header. */
  ShoppingResponseId: string;
  /** `{}` exactly when every item succeeded. */
  Success?: Record<string, never>;
  /** Present when `Success` is not: one entry per distinct failure. */
  Errors?: WireError[];
}

/** SUCCESS or FAILED; the interface also documents FAILURE as a variant of FAILED. */
export type WireStatus = 'SUCCESS' | 'FAILED' | 'FAILURE';

export interface WireCancelItem {
  Status: WireStatus;
  /** "" on success, "CODE: text" on failure. */
  Msg: string;
  /** CANCELED or CONFIRMED; "" on a failed item. */
  BookingStatus: string;
  OrderID: string;
  GdsBookingReference: string;
}

export interface WireInvoluntaryAcceptItem {
  OrderID: string;
  GdsBookingReference: string[];
  /** "" on success, "CODE: text" on failure. */
  ErrorMsg: string;
  Status: WireStatus;
}

export interface WireRefundPaxWiseFare {
  TicketNumber: string;
  Amount: number;
}

export interface WireInvoluntaryCancelItem extends WireInvoluntaryAcceptItem {
  RefundAmount: number;
  /** `TicketNumber:<n> QuoteType:<FULL|PARTIAL> RefundAmount:<amount>` per ticket, joined by spaces. */
  RefundText: string;
  RefundPaxWiseFare: WireRefundPaxWiseFare[];
}

export interface OrderViewRS extends WireEnvelopeBase { Response: WireCancelItem[] }
export interface OrderInvoluntaryAcceptRS extends WireEnvelopeBase { Result: WireInvoluntaryAcceptItem[] }
export interface OrderInvoluntaryCancelRS extends WireEnvelopeBase { Result: WireInvoluntaryCancelItem[] }

export interface CancelResponseBody { OrderViewRS: OrderViewRS }
export interface InvoluntaryAcceptResponseBody { OrderInvoluntaryAcceptRS: OrderInvoluntaryAcceptRS }
export interface InvoluntaryCancelResponseBody { OrderInvoluntaryCancelRS: OrderInvoluntaryCancelRS }

// ---------------------------------------------------------------------------------------------
// AirOrderRetrieve: the order as it stands. Amounts are JSON numbers in Order.Currency.

export interface WireSegment {
  SegmentID: string;
  /** IATA airline code. */
  Carrier: string;
  FlightNumber: string;
  /** IATA airport code. */
  Origin: string;
  Destination: string;
  Departure: string;
  Arrival: string;
}

export interface WireCoupon {
  SegmentID: string;
  /** USED: flown. */
  Status: 'OPEN' | 'USED' | 'REFUNDED';
  Value: number;
}

export interface WireTicket {
  TicketNumber: string;
  BaseFare: number;
  Taxes: number;
  /** One per segment of the booking. */
  Coupons: WireCoupon[];
}

export interface WirePassenger {
  PassengerID: string;
  Type: 'ADT' | 'CHD' | 'INF';
  GivenName: string;
  Surname: string;
  /** Absent for an unticketed passenger. */
  Ticket?: WireTicket;
}

export type WireChangeKind = 'SCHEDULE_CHANGE' | 'FLIGHT_CANCELLATION' | 'ROUTING_CHANGE';
export type WireChangeStatus = 'PENDING' | 'ACCEPTED' | 'CANCELED' | 'CLOSED';
export type WireQuoteType = 'FULL' | 'PARTIAL';
export type WireConsequence = 'ACCEPT' | 'CANCEL';

/** An airline-initiated change, as AirOrderRetrieve and the events show it. */
export interface WireAirlineChange {
  ChangeID: string;
  Kind: WireChangeKind;
  Status: WireChangeStatus;
  DetectedAt: string;
  /** SegmentIDs the change takes out of the itinerary. */
  RemovedSegments: string[];
  /** The replacement flights; empty when the change only removes flights. */
  AddedSegments: WireSegment[];
  /** When the airline applies ConsequenceOfInaction if the change is still PENDING; absent: no time limit. */
  ActionDeadline?: string;
  ConsequenceOfInaction: WireConsequence;
}

/** What AirOrderInvoluntaryCancel would refund now. */
export interface WireRefundQuote {
  Amount: number;
  /** PARTIAL when a coupon of any ticket was flown. */
  QuoteType: WireQuoteType;
  /** Per ticket, in passenger order. */
  Tickets: { TicketNumber: string; Amount: number }[];
}

/** A refund made by AirOrderInvoluntaryCancel (or a deadline's CANCEL), per ticket. */
export interface WireRefundRecord {
  TicketNumber: string;
  Amount: number;
  QuoteType: WireQuoteType;
  CreatedAt: string;
}

export interface WireBooking {
  GdsBookingReference: string;
  BookingStatus: 'CONFIRMED' | 'CANCELED';
  /** The current itinerary, by departure. */
  Segments: WireSegment[];
  Passengers: WirePassenger[];
  /** In detection order. */
  AirlineChanges: WireAirlineChange[];
  /** Per ticket, in passenger order; empty until the booking is cancelled involuntarily. */
  Refunds: WireRefundRecord[];
  /** Only on a CONFIRMED booking with a PENDING change. */
  RefundQuote?: WireRefundQuote;
}

export interface WireOrder {
  OrderID: string;
  /** ISO 4217 code of every amount in the order. */
  Currency: string;
  /** The requested bookings the order has, in request order. */
  Bookings: WireBooking[];
}

/** AirOrderRetrieve's answer on HTTP 200: AirOrderCancel's envelope and items, plus the order. */
export interface RetrieveOrderViewRS extends OrderViewRS { Order: WireOrder }
export interface RetrieveResponseBody { OrderViewRS: RetrieveOrderViewRS }

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

/** One event of the feed, as sent. */
export type WireEvent = {
  [Type in WireEventType]: { EventID: string; Type: Type; Timestamp: string; Data: WireEventDataByType[Type] }
}[WireEventType];

export interface OrderEventListRS extends WireEnvelopeBase {
  /** The id to send as Query.After for the next page. Always on HTTP 200; absent from an error's envelope. */
  NextAfter?: string;
  /** Oldest first. */
  Events: WireEvent[];
}

export interface EventListResponseBody { OrderEventListRS: OrderEventListRS }

/** Any operation's response envelope (the object under the response root key). */
export type OperationEnvelope = OrderViewRS | OrderInvoluntaryAcceptRS | OrderInvoluntaryCancelRS | OrderEventListRS;

/** The body of a failure that is not an operation's envelope (unknown route, oversized headers). */
export interface PlainErrorBody { Errors: WireError[] }
