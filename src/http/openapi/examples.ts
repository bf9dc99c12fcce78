import { acceptChanges } from '../../domain/accept-changes.js';
import { failed, unchanged, type BookingOutcome } from '../../domain/booking-outcome.js';
import { cancelBooking } from '../../domain/cancel-booking.js';
import { involuntaryCancel } from '../../domain/involuntary-cancel.js';
import type { Booking, Order, Segment } from '../../domain/order.js';
import { errors, type ApiError } from '../../errors/api-error.js';
import type { RequestErrorCode } from '../../errors/error-codes.js';
import { itemErrors } from '../../errors/item-error.js';
import type { Agency } from '../../store/repositories/agencies-repository.js';
import { buildEnvelope } from '../envelope.js';
import { bookingEvents, changeNotice } from '../../events/booking-events.js';
import { feedItem } from '../../events/wire-event.js';
import type { OperationWire } from '../operations.js';
import { wireOrder } from '../order-wire.js';
import { failedItem, renderItems, type ItemOperationName } from '../result-items.js';
import { FIELD_RULES } from '../schemas/field-rules.js';
import { OPERATION_DOCS } from './operation-docs.js';
import { refundableSample, refundFailure, refundSuccess } from './refund-examples.js';

/**
 * The OpenAPI document's examples. The sample agency, order and bookings below are plain data; the
 * wire examples are made from them by the service's own rules and renderers (domain transitions,
 * result items, envelope, order mapping), so an example cannot drift from what the service sends.
 */

export interface NamedExample {
  summary: string;
  value: unknown;
}

const SERVICE_NAME = 'airorder';
const REQUEST_ID = '0b9e5a6c-3f1d-4c2e-9a57-6d1f0c8e2b41';
const NOW = '2026-11-21T09:30:00.000Z';

const SAMPLE_AGENCY: Agency = {
  agencyId: 'AGT042',
  name: 'Blue Sky Travel',
  iataNumber: '12345678',
  email: 'ops@bluesky.example',
};

function flight(segmentId: string, flightNumber: string, departure: string, arrival: string): Segment {
  return { segmentId, carrier: 'LH', flightNumber, origin: 'FRA', destination: 'JFK', departure, arrival };
}

const S1 = flight('S1', '400', '2026-12-01T10:00:00Z', '2026-12-01T18:55:00Z');
const S1B = flight('S1B', '402', '2026-12-01T14:00:00Z', '2026-12-01T22:55:00Z');

function sampleBooking(reference: string, ticketNumber: string, passenger: [string, string]): Booking {
  return {
    reference,
    status: 'CONFIRMED',
    cancellation: null,
    segments: [S1],
    passengers: [
      {
        passengerId: 'P1',
        type: 'ADT',
        givenName: passenger[0],
        surname: passenger[1],
        ticket: {
          ticketNumber,
          baseFare: 45000,
          taxes: 12050,
          coupons: [{ segmentId: 'S1', status: 'OPEN', value: 57050 }],
        },
      },
    ],
    changes: [
      {
        changeId: `AIC-${reference}`,
        kind: 'SCHEDULE_CHANGE',
        detectedAt: '2026-11-20T08:00:00Z',
        removedSegments: ['S1'],
        addedSegments: [S1B],
        status: 'PENDING',
        actionDeadline: '2026-11-27T08:00:00.000Z',
        consequenceOfInaction: 'ACCEPT',
      },
    ],
    refunds: [],
  };
}

/** Booking ABC123 has a pending schedule change; DEF456 another one. */
const ABC123 = sampleBooking('ABC123', '2201234567890', ['ADA', 'LOVELACE']);
const DEF456 = sampleBooking('DEF456', '2201234567891', ['ALAN', 'TURING']);
const SAMPLE_ORDER: Order = {
  orderId: 'ORD-1001',
  agencyId: SAMPLE_AGENCY.agencyId,
  currency: 'EUR',
  bookings: [ABC123, DEF456],
};

/** Bookings in the states that make each item-level failure. */
const WITHOUT_CHANGE: Booking = { ...ABC123, changes: [] };
const CANCELLED: Booking = {
  ...ABC123,
  status: 'CANCELED',
  cancellation: 'VOLUNTARY',
  changes: [{ ...ABC123.changes[0]!, status: 'CLOSED' }],
};
const REMOVE_ONLY: Booking = {
  ...ABC123,
  changes: [{ ...ABC123.changes[0]!, kind: 'FLIGHT_CANCELLATION', addedSegments: [] }],
};

function applyRule(operation: ItemOperationName, booking: Booking): BookingOutcome {
  switch (operation) {
    case 'cancel':
      return cancelBooking(booking);
    case 'involuntaryAccept':
      return acceptChanges(booking);
    case 'involuntaryCancel':
      return involuntaryCancel(booking, NOW);
    case 'refundQuote':
    case 'refund':
      return refundSuccess(operation, refundableSample(booking, NOW), NOW);
    case 'retrieve':
      return unchanged(booking);
  }
}

const SAMPLE_SENDER = {
  Name: SAMPLE_AGENCY.name,
  IATA_Number: SAMPLE_AGENCY.iataNumber,
  AgencyID: SAMPLE_AGENCY.agencyId,
  Contacts: { Contact: [{ EmailContact: SAMPLE_AGENCY.email }] },
};

/** The agency's events after an airline change was imported and one booking cancelled because of it. */
function sampleEvents() {
  const cancelled = afterOk(involuntaryCancel(DEF456, NOW));
  const stored = [
    changeNotice('airline_change.detected', SAMPLE_ORDER, ABC123, ABC123.changes[0]!),
    ...bookingEvents(SAMPLE_ORDER, DEF456, cancelled, 'AGENCY'),
  ].map((event, index) => ({
    ...event,
    eventId: `evt_0193a4c2e1f0${String(index + 1).padStart(8, '0')}5c1e9a7b`,
    occurredAt: NOW,
  }));
  return stored.map(feedItem);
}

/** Request examples: the Query alone, and the full envelope of the interface. */
export function requestExamples(operation: OperationWire): Record<string, NamedExample> {
  if (operation.name === 'eventList') {
    return {
      first: { summary: 'From the oldest kept event', value: { [operation.requestRoot]: { Query: { Limit: 100 } } } },
      next: {
        summary: "The next page: After is the previous page's NextAfter",
        value: { [operation.requestRoot]: { Query: { After: sampleEvents().at(-1)!.EventID, Limit: 100 } } },
      },
    };
  }
  const references = operation.name === 'retrieve' ? ['ABC123', 'DEF456'] : ['ABC123'];
  const query = {
    OrderID: SAMPLE_ORDER.orderId,
    GdsBookingReference: references,
    ...(operation.name === 'refund' ? { QuoteID: sampleQuoteId() } : {}),
  };
  return {
    minimal: { summary: 'Query only', value: { [operation.requestRoot]: { Query: query } } },
    full: {
      summary: "With Document and Party (the sender must be the token's agency)",
      value: {
        [operation.requestRoot]: {
          Document: { Name: operation.title, ReferenceVersion: '1.0' },
          Party: { Sender: { TravelAgencySender: SAMPLE_SENDER } },
          Query: query,
        },
      },
    },
  };
}

interface ItemCase {
  reference: string;
  outcome: BookingOutcome;
}

function processedEnvelope(operation: OperationWire, cases: ItemCase[]) {
  const name = operation.name;
  if (name === 'eventList') throw new Error('The event feed has no booking items');
  const { items, failures } = renderItems(name, SAMPLE_ORDER.orderId, SAMPLE_ORDER.currency, cases);
  const shown = cases.flatMap(({ outcome }) => (outcome.ok ? [outcome.booking] : []));
  return buildEnvelope({
    operation,
    serviceName: SERVICE_NAME,
    referenceVersion: '1.0',
    requestId: REQUEST_ID,
    agency: SAMPLE_AGENCY,
    ...(operation.name === 'retrieve' ? { extra: { Order: wireOrder(SAMPLE_ORDER, shown) } } : {}),
    items,
    failures,
  });
}

const ITEM_SCENARIOS: Booking[] = [WITHOUT_CHANGE, CANCELLED, REMOVE_ONLY];

/** HTTP 200 examples: every item SUCCESS, and each item-level failure the operation can answer. */
export function successExamples(operation: OperationWire): Record<string, NamedExample> {
  const name = operation.name;
  if (name === 'eventList') {
    const events = sampleEvents();
    return {
      SUCCESS: {
        summary: 'A page of events, oldest first',
        value: buildEnvelope({
          operation,
          serviceName: SERVICE_NAME,
          referenceVersion: '1.0',
          requestId: REQUEST_ID,
          agency: SAMPLE_AGENCY,
          extra: { NextAfter: events.at(-1)!.EventID },
          items: events,
          failures: [],
        }),
      },
    };
  }
  const doc = OPERATION_DOCS[name];
  const success =
    name === 'retrieve'
      ? // The second booking was cancelled because of its airline change: the order shows its refund.
        [
          { reference: 'ABC123', outcome: unchanged(ABC123) },
          { reference: 'DEF456', outcome: unchanged(afterOk(involuntaryCancel(DEF456, NOW))) },
        ]
      : [{ reference: 'ABC123', outcome: applyRule(name, ABC123) }];
  const examples: Record<string, NamedExample> = {
    SUCCESS: { summary: 'Every item SUCCESS', value: processedEnvelope(operation, success) },
  };
  for (const code of doc.itemErrors) {
    if (code === 'BOOKING_NOT_FOUND') {
      examples[code] = {
        summary: 'BOOKING_NOT_FOUND: one of the references is not in the order',
        value: processedEnvelope(operation, [
          success[0]!,
          { reference: 'NOPE12', outcome: failed(itemErrors.bookingNotFound('NOPE12', SAMPLE_ORDER.orderId)) },
        ]),
      };
      continue;
    }
    const outcome =
      name === 'refundQuote' || name === 'refund'
        ? refundFailure(code, refundableSample(ABC123, NOW), NOW)
        : ITEM_SCENARIOS.map((booking) => applyRule(name, booking)).find(
            (candidate) => !candidate.ok && candidate.code === code,
          );
    if (!outcome) throw new Error(`No example booking answers ${code} to ${operation.title}`);
    examples[code] = {
      summary: `${code}: the item FAILED, HTTP 200`,
      value: processedEnvelope(operation, [{ reference: 'ABC123', outcome }]),
    };
  }
  return examples;
}

/** The QuoteID of the AirOrderRefundQuote example, which the AirOrderRefund example confirms. */
function sampleQuoteId(): string {
  const quoted = refundSuccess('refundQuote', refundableSample(ABC123, NOW), NOW);
  if (!quoted.ok || !quoted.refund) throw new Error('The example quote should succeed');
  return quoted.refund.quoteId;
}

function afterOk(outcome: BookingOutcome): Booking {
  if (!outcome.ok) throw new Error(`The example booking should succeed: ${outcome.code}`);
  return outcome.booking;
}

interface ErrorCase {
  error: ApiError;
  /** Whether the token was read when the failure happened (the sender is the agency's profile then). */
  authenticated: boolean;
  /** Whether the order id and references were readable (one FAILED item per reference then). */
  readable: boolean;
  orderId?: string;
  summary: string;
}

function errorCase(operation: OperationWire, code: RequestErrorCode): ErrorCase {
  switch (code) {
    case 'AUTH_MISSING':
      return { error: errors.authMissing(), authenticated: false, readable: true, summary: 'No Authorization header' };
    case 'AUTH_INVALID':
      return {
        error: errors.authInvalid(),
        authenticated: false,
        readable: true,
        summary: 'Unknown, revoked or expired token',
      };
    case 'SENDER_MISMATCH':
      return {
        error: errors.senderMismatch('Party.Sender.TravelAgencySender.AgencyID'),
        authenticated: true,
        readable: true,
        summary: 'The request names another agency',
      };
    case 'INVALID_JSON':
      return {
        error: errors.invalidJson('Unexpected end of JSON input'),
        authenticated: false,
        readable: false,
        summary: 'The body is not JSON',
      };
    case 'INVALID_REQUEST':
      if (operation.name === 'eventList') {
        return {
          error: errors.invalidRequest(`${operation.requestRoot}.Query.Limit ${FIELD_RULES.Limit}.`),
          authenticated: true,
          readable: false,
          summary: 'A field breaks the schema; the message names it',
        };
      }
      return {
        error: errors.invalidRequest(
          `${operation.requestRoot}.Query.GdsBookingReference[0] ${FIELD_RULES.GdsBookingReference}.`,
        ),
        authenticated: true,
        readable: false,
        summary: 'A field breaks the schema; the message names it',
      };
    case 'UNSUPPORTED_MEDIA_TYPE':
      return {
        error: errors.unsupportedMediaType(),
        authenticated: false,
        readable: false,
        summary: 'Content-Type is not application/json',
      };
    case 'PAYLOAD_TOO_LARGE':
      return {
        error: errors.payloadTooLarge(),
        authenticated: false,
        readable: false,
        summary: 'The body is over 64 KiB',
      };
    case 'ORDER_NOT_FOUND':
      return {
        error: errors.orderNotFound('ORD-404'),
        authenticated: true,
        readable: true,
        orderId: 'ORD-404',
        summary: "No such order for this agency (another agency's order looks the same)",
      };
    case 'IDEMPOTENCY_KEY_REUSED':
      return {
        error: errors.idempotencyKeyReused(),
        authenticated: true,
        readable: true,
        summary: 'The Idempotency-Key was used with another body',
      };
    case 'IDEMPOTENCY_KEY_IN_USE':
      return {
        error: errors.idempotencyKeyInUse(),
        authenticated: true,
        readable: true,
        summary: 'A request with this Idempotency-Key is still running',
      };
    case 'IDEMPOTENCY_KEYS_EXHAUSTED':
      return {
        error: errors.idempotencyKeysExhausted(3600),
        authenticated: true,
        readable: true,
        summary: "A new Idempotency-Key past the agency's cap of kept responses; retry after Retry-After",
      };
    case 'RATE_LIMITED':
      return {
        error: errors.rateLimited({}),
        authenticated: true,
        readable: true,
        summary: "Over the token's rate; retry after Retry-After",
      };
    case 'INTERNAL_ERROR':
      return { error: errors.internal(), authenticated: true, readable: true, summary: 'A bug; nothing was changed' };
    case 'UNAVAILABLE':
      return {
        error: errors.unavailable(1),
        authenticated: true,
        readable: true,
        summary: 'The store is away or busy; retry after Retry-After',
      };
    default:
      throw new Error(`${code} is not answered by the operations`);
  }
}

/** The example of a request-level failure, as the error handler renders it. */
export function errorExample(operation: OperationWire, code: RequestErrorCode): NamedExample {
  const { error, authenticated, readable, orderId = SAMPLE_ORDER.orderId, summary } = errorCase(operation, code);
  const failure = { code: error.code, message: error.message };
  const name = operation.name;
  return {
    summary: `${code}: ${summary}`,
    value: buildEnvelope({
      operation,
      serviceName: SERVICE_NAME,
      referenceVersion: '1.0',
      requestId: REQUEST_ID,
      agency: authenticated ? SAMPLE_AGENCY : null,
      items: readable && name !== 'eventList' ? [failedItem(name, orderId, 'ABC123', failure)] : [],
      failures: [failure],
    }),
  };
}
