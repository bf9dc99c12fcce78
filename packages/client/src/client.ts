import { readEventPage, type AirOrderEvent, type EventPage } from './event-feed.js';
import { OPERATIONS, type OperationName, type OperationSpec } from './operations.js';
import { readRetrieveResult, type RetrieveResult } from './order-view.js';
import {
  readCancelResult,
  readInvoluntaryAcceptResult,
  readInvoluntaryCancelResult,
  readVoluntaryRefundResult,
  type CancelResult,
  type InvoluntaryAcceptResult,
  type InvoluntaryCancelResult,
  type ResponseContext,
  type VoluntaryRefundResult,
} from './results.js';
import { currencyExponent } from './money.js';
import {
  Transport,
  type ClientOptions,
  type RequestOptions,
  type RetryInfo,
  type TransportResponse,
} from './transport.js';
import type { WireEventListRequest, WireRequest } from './wire.js';

/** The agency block of a request. Optional: when given, the service checks it names the token's agency. */
export interface SenderParams {
  name?: string;
  /** 7 or 8 digits. */
  iataNumber?: string;
  agencyId?: string;
  emails?: readonly string[];
}

/** What every request may carry besides its query: the Document and the sender. */
export interface EnvelopeParams {
  /** Document.ReferenceVersion, a decimal in a string such as "1.0"; echoed in the response. */
  referenceVersion?: string;
  /** Document.Name. */
  documentName?: string;
  sender?: SenderParams;
}

/** What every operation on an order takes: the order and its booking references. */
export interface OrderParams extends EnvelopeParams {
  orderId: string;
  /** GDS booking references (1 to 20; case-insensitive; duplicates collapsed by the service). */
  bookingReferences: string | readonly string[];
  /**
   * Sent on every attempt of this call. Give your own (e.g. your refund request's id) to make the
   * call safe to repeat across process restarts; otherwise one is generated per call.
   */
  idempotencyKey?: string;
}

export type CancelParams = OrderParams;
export type InvoluntaryAcceptParams = OrderParams;
/** A read takes no Idempotency-Key: it changes nothing, so it is retried as it is. */
export type RetrieveParams = Omit<OrderParams, 'idempotencyKey'>;

export interface ListEventsParams extends EnvelopeParams {
  /** The last event id seen (`evt_…`): the previous page's `nextAfter`. From the oldest kept event when absent. */
  after?: string;
  /** Events per page, 1 to 500; the service's default is 100. */
  limit?: number;
}

/** The event feed from `after` on; `limit` is the page size of each request. */
export type EventFeedParams = ListEventsParams;

export interface InvoluntaryCancelParams extends OrderParams {
  /**
   * The order's ISO 4217 currency. When given, refunds also come as integer minor units
   * (`amountMinor`), read from RefundText's decimals; the service's responses do not name the currency.
   */
  currency?: string;
}

export interface RefundQuoteParams extends InvoluntaryCancelParams {
  /** The passengers to refund (PassengerIDs of each booking); every passenger still in the booking when absent. */
  passengerIds?: readonly string[];
}

export interface RefundParams extends InvoluntaryCancelParams {
  /** The QuoteID of a quoteRefund answer for this order. */
  quoteId: string;
}

/** Document and Party of a request, each only when the call gave something for it. */
function envelopeFields(params: EnvelopeParams): Pick<WireRequest, 'Document' | 'Party'> {
  const fields: Pick<WireRequest, 'Document' | 'Party'> = {};
  if (params.documentName !== undefined || params.referenceVersion !== undefined) {
    fields.Document = {
      ...(params.documentName === undefined ? {} : { Name: params.documentName }),
      ...(params.referenceVersion === undefined ? {} : { ReferenceVersion: params.referenceVersion }),
    };
  }
  const sender = params.sender;
  if (sender) {
    fields.Party = {
      Sender: {
        TravelAgencySender: {
          ...(sender.name === undefined ? {} : { Name: sender.name }),
          ...(sender.iataNumber === undefined ? {} : { IATA_Number: sender.iataNumber }),
          ...(sender.agencyId === undefined ? {} : { AgencyID: sender.agencyId }),
          ...(sender.emails === undefined
            ? {}
            : { Contacts: { Contact: sender.emails.map((email) => ({ EmailContact: email })) } }),
        },
      },
    };
  }
  return fields;
}

/** Builds the request envelope (docs/contract.md §1) under the operation's root key. */
export function buildRequest(
  operation: OperationSpec,
  params: OrderParams,
  extraQuery: Record<string, unknown> = {},
): Record<string, WireRequest> {
  const request: WireRequest = {
    Query: {
      OrderID: params.orderId,
      GdsBookingReference:
        typeof params.bookingReferences === 'string' ? [params.bookingReferences] : [...params.bookingReferences],
      ...extraQuery,
    },
    ...envelopeFields(params),
  };
  return { [operation.requestRoot]: request };
}

/** AirOrderEventList's request: After and Limit only when given, so the service's defaults apply. */
export function buildEventListRequest(params: ListEventsParams): { OrderEventListRQ: WireEventListRequest } {
  return {
    OrderEventListRQ: {
      ...envelopeFields(params),
      Query: {
        ...(params.after === undefined ? {} : { After: params.after }),
        ...(params.limit === undefined ? {} : { Limit: params.limit }),
      },
    },
  };
}

function contextOf(response: TransportResponse): ResponseContext {
  return {
    status: response.status,
    headers: response.headers,
    requestId: response.requestId,
    idempotencyKey: response.idempotencyKey,
    replayed: response.replayed,
    attempts: response.attempts,
  };
}

/**
 * The airorder client. Operations return the whole envelope and typed views of its items;
 * item-level failures (BOOKING_NOT_FOUND, NO_PENDING_CHANGE, …) are in the result, never thrown.
 * Request-level failures throw a subclass of AirOrderError.
 *
 * ```ts
 * const airorder = new AirOrderClient({ baseUrl: 'https://airorder.example.com', token: process.env.AIRORDER_TOKEN! });
 * const result = await airorder.cancel({ orderId: 'ORD-1001', bookingReferences: ['ABC123'] });
 * ```
 */
export class AirOrderClient {
  readonly transport: Transport;

  constructor(options: ClientOptions & { onRetry?: (info: RetryInfo) => void }) {
    this.transport = new Transport(options);
    this.transport.onRetry = options.onRetry;
  }

  /** POST /AirOrderCancel: cancels bookings of the order. Cancelling a cancelled booking succeeds again. */
  async cancel(params: CancelParams, options?: RequestOptions): Promise<CancelResult> {
    const response = await this.send(OPERATIONS.cancel, params, options);
    return readCancelResult(response.body, contextOf(response), OPERATIONS.cancel);
  }

  /** POST /AirOrderInvoluntaryAccept: accepts the airline-initiated changes pending on the bookings. */
  async acceptInvoluntaryChange(
    params: InvoluntaryAcceptParams,
    options?: RequestOptions,
  ): Promise<InvoluntaryAcceptResult> {
    const response = await this.send(OPERATIONS.involuntaryAccept, params, options);
    return readInvoluntaryAcceptResult(response.body, contextOf(response), OPERATIONS.involuntaryAccept);
  }

  /**
   * POST /AirOrderInvoluntaryCancel: cancels bookings because of a pending airline-initiated change,
   * refunding each ticket's unflown coupons. Repeating it returns the same refund.
   */
  async cancelInvoluntarily(
    params: InvoluntaryCancelParams,
    options?: RequestOptions,
  ): Promise<InvoluntaryCancelResult> {
    // A currency this client cannot read is refused before anything is sent.
    if (params.currency !== undefined) currencyExponent(params.currency);
    const response = await this.send(OPERATIONS.involuntaryCancel, params, options);
    return readInvoluntaryCancelResult(
      response.body,
      contextOf(response),
      OPERATIONS.involuntaryCancel,
      params.currency,
    );
  }

  /**
   * POST /AirOrderRefundQuote: what refunding the passengers would give back now by the fare's rules
   * (a void within the void window), per ticket with its breakdown, and the quote to confirm. Changes
   * no booking.
   */
  async quoteRefund(params: RefundQuoteParams, options?: RequestOptions): Promise<VoluntaryRefundResult> {
    if (params.currency !== undefined) currencyExponent(params.currency);
    const query = params.passengerIds === undefined ? {} : { PassengerID: [...params.passengerIds] };
    const response = await this.send(OPERATIONS.refundQuote, params, options, query);
    return readVoluntaryRefundResult(response.body, contextOf(response), OPERATIONS.refundQuote, params.currency);
  }

  /**
   * POST /AirOrderRefund: makes exactly the refund the quote said. Repeating it answers the same
   * refund and refunds nothing twice.
   */
  async refund(params: RefundParams, options?: RequestOptions): Promise<VoluntaryRefundResult> {
    if (params.currency !== undefined) currencyExponent(params.currency);
    const response = await this.send(OPERATIONS.refund, params, options, { QuoteID: params.quoteId });
    return readVoluntaryRefundResult(response.body, contextOf(response), OPERATIONS.refund, params.currency);
  }

  /**
   * POST /AirOrderRetrieve: the requested bookings as they stand, with their changes, refunds and,
   * while a change is pending, the refund cancelInvoluntarily would make. Changes nothing, so it
   * sends no Idempotency-Key and is retried as it is.
   */
  async retrieve(params: RetrieveParams, options?: RequestOptions): Promise<RetrieveResult> {
    const response = await this.transport.post({
      path: OPERATIONS.retrieve.path,
      body: buildRequest(OPERATIONS.retrieve, params),
      readOnly: true,
      ...(options ? { options } : {}),
    });
    return readRetrieveResult(response.body, contextOf(response), OPERATIONS.retrieve);
  }

  /**
   * POST /AirOrderEventList: one page of the agency's events after `after`, oldest first. Send the
   * page's `nextAfter` as `after` for the next one; an `after` the service no longer keeps (events
   * are kept 30 days) is AirOrderValidationError INVALID_REQUEST. Changes nothing, like retrieve.
   */
  async listEvents(params: ListEventsParams = {}, options?: RequestOptions): Promise<EventPage> {
    const response = await this.transport.post({
      path: OPERATIONS.eventList.path,
      body: buildEventListRequest(params),
      readOnly: true,
      ...(options ? { options } : {}),
    });
    return readEventPage(response.body, contextOf(response), OPERATIONS.eventList);
  }

  /**
   * Every event after `after`, one at a time, oldest first: pages with `nextAfter` until a page
   * is empty, so each event is seen exactly once, also while new ones arrive. Store the `eventId`
   * of the last event handled, and start again after it.
   *
   * ```ts
   * for await (const event of airorder.events({ after: saved })) { await handle(event); saved = event.eventId; }
   * ```
   */
  async *events(
    params: EventFeedParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<AirOrderEvent, void, undefined> {
    let after = params.after;
    for (;;) {
      const page = await this.listEvents({ ...params, ...(after === undefined ? {} : { after }) }, options);
      if (page.events.length === 0) return;
      yield* page.events;
      after = page.nextAfter;
    }
  }

  /**
   * The escape hatch: POSTs any body (an object sent as JSON, or a string sent as is) to an
   * operation's path, with the client's authentication, time-outs and retries, and returns the
   * parsed 2xx response without interpreting it. Errors are thrown as by the typed methods. An
   * Idempotency-Key is generated only for an operation that changes orders.
   */
  async request(
    operation: OperationName | OperationSpec,
    body: unknown,
    options?: RequestOptions & { idempotencyKey?: string },
  ): Promise<TransportResponse> {
    const spec = typeof operation === 'string' ? OPERATIONS[operation] : operation;
    return this.transport.post({
      path: spec.path,
      body,
      readOnly: !spec.changesOrders,
      ...(options?.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
      ...(options ? { options } : {}),
    });
  }

  private send(
    operation: OperationSpec,
    params: OrderParams,
    options: RequestOptions | undefined,
    extraQuery: Record<string, unknown> = {},
  ): Promise<TransportResponse> {
    return this.transport.post({
      path: operation.path,
      body: buildRequest(operation, params, extraQuery),
      ...(params.idempotencyKey === undefined ? {} : { idempotencyKey: params.idempotencyKey }),
      ...(options ? { options } : {}),
    });
  }
}
