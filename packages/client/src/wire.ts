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

/** Any operation's response envelope (the object under the response root key). */
export type OperationEnvelope = OrderViewRS | OrderInvoluntaryAcceptRS | OrderInvoluntaryCancelRS;

/** The body of a failure that is not an operation's envelope (unknown route, oversized headers). */
export interface PlainErrorBody { Errors: WireError[] }
