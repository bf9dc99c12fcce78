import { acceptChanges } from '../domain/accept-changes.js';
import { failed, type BookingOutcome } from '../domain/booking-outcome.js';
import { cancelBooking } from '../domain/cancel-booking.js';
import { involuntaryCancel } from '../domain/involuntary-cancel.js';
import { dueChanges } from '../domain/deadline-consequence.js';
import type { Booking } from '../domain/order.js';
import { bookingEvents } from '../events/booking-events.js';
import type { EventActor } from '../events/event-types.js';
import { itemErrors } from '../errors/item-error.js';
import type { Actor } from '../store/repositories/audit-repository.js';
import type { KeptResponseKey } from '../store/repositories/kept-responses-repository.js';
import type { OrderRow } from '../store/repositories/orders-repository.js';
import {
  KeptResponsesExhausted,
  KeptResponseTaken,
  type OrderDecision,
  type OrderUpdate,
} from '../store/order-update.js';
import type { Store } from '../store/store.js';
import { bookingAuditEvents } from './audit-events.js';
import type { Clock } from '../runtime/clock.js';
import type { TimeBudget } from '../runtime/time-budget.js';
import { applyDueActionDeadlines } from './deadline-consequences.js';
import { quoteAuditEvents, quoteToStore, refundQuoteRule, refundRule, type RefundInput } from './refund-operations.js';

export type OperationName = 'cancel' | 'involuntaryAccept' | 'involuntaryCancel' | 'refundQuote' | 'refund';

/** How long the first response to an Idempotency-Key is kept (docs/contract.md §8.1). */
export const KEPT_RESPONSE_TTL_MS = 24 * 3_600_000;

const RULES: Record<OperationName, (booking: Booking, now: string, refund: RefundInput | undefined) => BookingOutcome> =
  {
    cancel: (booking) => cancelBooking(booking),
    involuntaryAccept: (booking) => acceptChanges(booking),
    involuntaryCancel: (booking, now) => involuntaryCancel(booking, now),
    refundQuote: (booking, now, refund) => refundQuoteRule(booking, now, refund ?? missing()),
    refund: (booking, now, refund) => refundRule(booking, now, refund ?? missing()),
  };

/** The routes give the refund operations their input; a caller that does not is a bug. */
function missing(): never {
  throw new Error('AirOrderRefundQuote and AirOrderRefund are run with their RefundInput');
}

export interface ItemResult {
  reference: string;
  outcome: BookingOutcome;
}

export interface OperationResult {
  orderId: string;
  currency: string;
  items: ItemResult[];
}

/**
 * A response of the caller's, kept under an Idempotency-Key so that a replay is the first response
 * byte for byte. The service stores it and hands it back, and never reads it: its shape is the caller's.
 */
export interface CallerResponse {
  status: number;
  body: string;
}

/**
 * The port through which a caller that sends an Idempotency-Key supplies the response to keep. It
 * is asked inside the change, so that what is kept is exactly what is stored, and may be asked more
 * than once (a change is decided again when the order moved meanwhile).
 */
export type ResponsePort = (result: OperationResult) => CallerResponse;

/** What a request with an Idempotency-Key brings for its kept response: the key, and the port that makes the response. */
export interface KeptResponsePort {
  key: string;
  /** Tells a retry (the same body) from a reuse of the key with another body. */
  requestHash: string;
  respond: ResponsePort;
}

export interface OperationRequest {
  operation: OperationName;
  actor: Actor & { agencyId: string };
  orderId: string;
  references: readonly string[];
  keptResponse: KeptResponsePort | null;
  /**
   * How many kept responses the agency may have (KEPT_RESPONSES_PER_AGENCY): past it, a request under
   * a new key is refused, and one under a key already kept is still answered. No cap when absent.
   */
  keptResponsesPerAgency?: number;
  /** The request's time budget: past it, nothing is committed. */
  budget?: TimeBudget;
  /**
   * An operator's act in the console: what the console's journal calls it, and on what. When a
   * booking's outcome is a success, the journal's row (the actor's operatorEmail and reason) is
   * stored in the change itself, never apart from it.
   */
  operatorRecord?: { action: string; target: string };
  /** AirOrderRefundQuote and AirOrderRefund: the passengers, the quote, the settings. */
  refund?: RefundInput;
}

/** Why a request was refused as a whole: nothing of it was done, and the caller says so its own way. */
export type OperationRefusal =
  /** The Idempotency-Key's kept response was made for another request body. */
  | 'idempotency-key-reused'
  /** Another request with the key, for another order, kept its response first. */
  | 'idempotency-key-in-use'
  /** The request's time budget ran out before its commit. */
  | 'out-of-time'
  /** Its key is new, and the agency keeps as many responses as it may: `retryAfterSeconds` until one expires. */
  | 'kept-responses-exhausted';

export type OperationOutcome =
  /** `kept`: the response kept under the Idempotency-Key, when the request had one. */
  | { kind: 'processed'; result: OperationResult; kept: CallerResponse | null }
  | { kind: 'replayed'; response: CallerResponse; originalRequestId: string }
  | { kind: 'order-not-found' }
  | { kind: 'refused'; refusal: OperationRefusal; retryAfterSeconds?: number };

/** The rules on each requested booking, and what storing them takes. */
function applyRules(
  order: OrderRow,
  bookings: readonly Booking[],
  request: OperationRequest,
  now: string,
): { result: OperationResult; update: OrderUpdate } {
  const items: ItemResult[] = [];
  const update: OrderUpdate = {
    now,
    bookings: [],
    audit: { actor: request.actor, events: [] },
    events: [],
    keep: null,
  };
  const by: EventActor = request.actor.actor === 'agency' ? 'AGENCY' : 'OPERATOR';
  const quoted: { booking: Booking; outcome: BookingOutcome }[] = [];
  for (const reference of request.references) {
    const booking = bookings.find((candidate) => candidate.reference === reference);
    if (!booking) {
      items.push({ reference, outcome: failed(itemErrors.bookingNotFound(reference, order.orderId)) });
      continue;
    }
    const outcome = RULES[request.operation](booking, now, request.refund);
    if (request.operation === 'refundQuote') quoted.push({ booking, outcome });
    if (outcome.ok && outcome.changed) {
      update.bookings.push({ before: booking, after: outcome.booking });
      // One sequence across the request: the trail lists the bookings' events in request order.
      update.audit!.events.push(...bookingAuditEvents(order.orderId, order.currency, booking, outcome.booking));
      update.events.push(...bookingEvents(order, booking, outcome.booking, by));
    }
    items.push({ reference, outcome });
  }
  if (request.refund && quoted.length > 0) {
    update.quote = quoteToStore(order.orderId, order.agencyId, now, request.refund, quoted);
    if (update.quote) update.audit!.events.push(...quoteAuditEvents(order.orderId, order.currency, update.quote));
  }
  if (request.operatorRecord && request.actor.operatorEmail && items.some((item) => item.outcome.ok)) {
    update.operatorAction = {
      email: request.actor.operatorEmail,
      ...request.operatorRecord,
      reason: request.actor.reason ?? null,
    };
  }
  return { result: { orderId: order.orderId, currency: order.currency, items }, update };
}

/** A refusal stores nothing. */
function refused(refusal: OperationRefusal): OrderDecision<OperationOutcome> {
  return { value: { kind: 'refused', refusal }, update: null };
}

/** Thrown while deciding when a requested booking has an action deadline that has passed. */
class ActionDeadlinePassed extends Error {}

/** How often a request applies passed action deadlines and tries again (a deadline passes once, so twice is plenty). */
const DEADLINE_ROUNDS = 3;

/**
 * Applies one operation to each requested booking of an order. A booking whose change's action
 * deadline has passed gets the deadline's consequence first, in a change of its own, exactly as the
 * scheduler would have applied it: the outcome never depends on which came first. What happened is
 * the result, refusals included; how it is answered (HTTP statuses, the envelope) is the caller's.
 */
export async function runOperation(store: Store, clock: Clock, request: OperationRequest): Promise<OperationOutcome> {
  // A quote never changes once stored, so it is read before the order, outside the change.
  if (request.operation === 'refund' && request.refund && request.refund.quote === undefined) {
    const quote = await store.read.findRefundQuote(request.refund.quoteId, request.actor.agencyId);
    request = { ...request, refund: { ...request.refund, quote: quote?.orderId === request.orderId ? quote : null } };
  }
  for (let round = 1; ; round += 1) {
    try {
      return await runOperationOnce(store, clock, request);
    } catch (error) {
      if (!(error instanceof ActionDeadlinePassed) || round >= DEADLINE_ROUNDS) throw error;
      await applyDueActionDeadlines(store, clock, request.orderId, request.references);
    }
  }
}

/**
 * Applies one operation to each requested booking of an order, as one update of the order (the
 * store's `updateOrder`: atomic, and decided on the order as it is when stored). Failed items change
 * nothing, so storing the change stores exactly what succeeded, together with the audit events,
 * the events and, under an Idempotency-Key, the response itself: a request is either wholly done
 * and replayable, or not done at all. Past `request.budget` it is not done.
 */
async function runOperationOnce(store: Store, clock: Clock, request: OperationRequest): Promise<OperationOutcome> {
  const keptResponseKey: KeptResponseKey | null = request.keptResponse
    ? { agencyId: request.actor.agencyId, operation: request.operation, key: request.keptResponse.key }
    : null;
  const budget = request.budget;
  const timeLeft = budget ? () => budget.remainingMs() : undefined;
  try {
    return await store.updateOrder(
      {
        orderId: request.orderId,
        agencyId: request.actor.agencyId,
        references: request.references,
        keptResponseKey,
        keptResponsesPerAgency: request.keptResponsesPerAgency,
        timeLeft,
      },
      ({ order, bookings, kept }): OrderDecision<OperationOutcome> => {
        // Waiting for the store may have used up the request's time: the caller has answered already.
        if (request.budget?.expired) return refused('out-of-time');
        const now = clock();
        if (kept && request.keptResponse && kept.expiresAt > now) {
          if (kept.requestHash !== request.keptResponse.requestHash) return refused('idempotency-key-reused');
          return {
            value: {
              kind: 'replayed',
              response: { status: kept.status, body: kept.body },
              originalRequestId: kept.requestId,
            },
            update: null,
          };
        }
        if (!order) return { value: { kind: 'order-not-found' }, update: null };
        if (bookings.some((booking) => dueChanges(booking, now).length > 0)) throw new ActionDeadlinePassed();
        const { result, update } = applyRules(order, bookings, request, now);
        let response: CallerResponse | null = null;
        if (request.keptResponse) {
          response = request.keptResponse.respond(result);
          const expiresAt = new Date(Date.parse(now) + KEPT_RESPONSE_TTL_MS).toISOString();
          update.keep = {
            requestHash: request.keptResponse.requestHash,
            status: response.status,
            body: response.body,
            requestId: request.actor.requestId ?? '',
            expiresAt,
          };
        }
        const storesSomething =
          update.bookings.length > 0 || update.keep !== null || Boolean(update.operatorAction) || Boolean(update.quote);
        if (storesSomething && request.budget && !request.budget.claimCommit()) return refused('out-of-time');
        return { value: { kind: 'processed', result, kept: response }, update: storesSomething ? update : null };
      },
    );
  } catch (error) {
    // Another request with this key, for another order, finished first: ours is undone.
    if (error instanceof KeptResponseTaken) return { kind: 'refused', refusal: 'idempotency-key-in-use' };
    if (error instanceof KeptResponsesExhausted) {
      // Whole seconds, at least one: a retry at the moment given finds the oldest response expired.
      const waitMs = Date.parse(error.until) - Date.parse(clock());
      return {
        kind: 'refused',
        refusal: 'kept-responses-exhausted',
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      };
    }
    throw error;
  }
}
