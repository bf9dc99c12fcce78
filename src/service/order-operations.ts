import { acceptChanges } from '../domain/accept-changes.js';
import { failed, type BookingOutcome } from '../domain/booking-outcome.js';
import { cancelBooking } from '../domain/cancel-booking.js';
import { involuntaryCancel } from '../domain/involuntary-cancel.js';
import { dueChanges } from '../domain/deadline-consequence.js';
import type { Booking } from '../domain/order.js';
import { bookingEvents } from '../events/booking-events.js';
import type { AgencyEvent, EventActor } from '../events/event-types.js';
import { errors } from '../errors/api-error.js';
import { auditInsert, type Actor, type AuditEvent } from '../store/repositories/audit-repository.js';
import { deleteKeptResponse, findKeptResponse, keepResponse, type IdempotencyScope } from '../store/repositories/idempotency-repository.js';
import { bookingWrites, loadOrderBookings, loadOrderRow, touchOrder, type OrderRow } from '../store/repositories/orders-repository.js';
import { eventWrites } from '../store/repositories/events-repository.js';
import { runStatements, type Statement } from '../store/raw-sql.js';
import type { Store } from '../store/store.js';
import { bookingAuditEvents } from './audit-events.js';
import type { Clock } from './clock.js';
import type { Deadline } from './deadline.js';
import { applyDueDeadlines } from './deadline-consequences.js';

export type OperationName = 'cancel' | 'involuntaryAccept' | 'involuntaryCancel';

/** How long the first response to an Idempotency-Key is kept (docs/contract.md §8.1). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

const RULES: Record<OperationName, (booking: Booking, now: string) => BookingOutcome> = {
  cancel: (booking) => cancelBooking(booking),
  involuntaryAccept: (booking) => acceptChanges(booking),
  involuntaryCancel: (booking, now) => involuntaryCancel(booking, now),
};

export interface ItemResult {
  reference: string;
  outcome: BookingOutcome;
}

export interface OperationResult {
  orderId: string;
  currency: string;
  items: ItemResult[];
}

export interface OperationRequest {
  operation: OperationName;
  actor: Actor & { agencyId: string };
  orderId: string;
  references: readonly string[];
  idempotency: { key: string; requestHash: string } | null;
  /** The request's time limit: past it, nothing is committed. */
  deadline?: Deadline;
}

/** A response as sent on the wire, so that a replay is the first response byte for byte. */
export interface RenderedResponse {
  status: number;
  body: string;
}

export type OperationOutcome =
  | { kind: 'processed'; result: OperationResult; response: RenderedResponse }
  | { kind: 'replayed'; response: RenderedResponse; originalRequestId: string }
  | { kind: 'order-not-found' };

/** The rules on each requested booking, and the statements that store what they changed. */
function applyRules(order: OrderRow, bookings: readonly Booking[], request: OperationRequest, now: string): { result: OperationResult; writes: Statement[] } {
  const items: ItemResult[] = [];
  const writes: Statement[] = [];
  const events: AuditEvent[] = [];
  const announced: AgencyEvent[] = [];
  const by: EventActor = request.actor.actor === 'agency' ? 'AGENCY' : 'OPERATOR';
  for (const reference of request.references) {
    const booking = bookings.find((candidate) => candidate.reference === reference);
    if (!booking) {
      items.push({ reference, outcome: failed('BOOKING_NOT_FOUND', `Booking ${reference} is not part of order ${order.orderId}.`) });
      continue;
    }
    const outcome = RULES[request.operation](booking, now);
    if (outcome.ok && outcome.changed) {
      writes.push(...bookingWrites(order, booking, outcome.booking, now));
      // One sequence across the request: the trail lists the bookings' events in request order.
      events.push(...bookingAuditEvents(order.orderId, order.currency, booking, outcome.booking));
      announced.push(...bookingEvents(order, booking, outcome.booking, by));
    }
    items.push({ reference, outcome });
  }
  if (writes.length > 0) writes.push(touchOrder(order.orderId, now));
  if (events.length > 0) writes.push(auditInsert(request.actor, events, now));
  writes.push(...eventWrites(announced, now));
  return { result: { orderId: order.orderId, currency: order.currency, items }, writes };
}

/** Thrown inside an operation's transaction when a requested booking has a deadline that has passed. */
class DeadlinePassed extends Error {}

/** How often a request applies passed deadlines and tries again (a deadline passes once, so twice is plenty). */
const DEADLINE_ROUNDS = 3;

/**
 * Applies one operation to each requested booking of an order. A booking whose change's deadline
 * has passed gets the deadline's consequence first, in a transaction of its own, exactly as the
 * scheduler would have applied it: the outcome never depends on which came first.
 */
export async function runOperation(
  store: Store, clock: Clock, request: OperationRequest, render: (result: OperationResult) => RenderedResponse,
): Promise<OperationOutcome> {
  for (let round = 1; ; round += 1) {
    try {
      return await runOperationOnce(store, clock, request, render);
    } catch (error) {
      if (!(error instanceof DeadlinePassed) || round >= DEADLINE_ROUNDS) throw error;
      await applyDueDeadlines(store, clock, request.orderId, request.references);
    }
  }
}

/**
 * Applies one operation to each requested booking of an order, in one transaction under the order's
 * lock. Failed items change nothing, so committing the transaction commits exactly what succeeded,
 * together with the audit events and, under an Idempotency-Key, the response itself: a request is
 * either wholly done and replayable, or not done at all. Past `request.deadline` it is not done.
 */
async function runOperationOnce(
  store: Store, clock: Clock, request: OperationRequest, render: (result: OperationResult) => RenderedResponse,
): Promise<OperationOutcome> {
  return store.transaction(async (tx): Promise<OperationOutcome> => {
    // The lock comes first, so that a duplicate sent while the first is running waits for it and
    // then finds its response.
    const order = await loadOrderRow(tx, request.orderId, request.actor.agencyId, true);
    // Waiting for the lock may have used up the request's time: the client has its 503 already.
    if (request.deadline?.expired) throw errors.unavailable(1);
    const now = clock();
    const scope: IdempotencyScope | null = request.idempotency
      ? { agencyId: request.actor.agencyId, operation: request.operation, key: request.idempotency.key }
      : null;
    if (scope && request.idempotency) {
      const kept = await findKeptResponse(tx, scope);
      if (kept && kept.expiresAt > now) {
        if (kept.requestHash !== request.idempotency.requestHash) throw errors.idempotencyKeyReused();
        return { kind: 'replayed', response: { status: kept.status, body: kept.body }, originalRequestId: kept.requestId };
      }
      if (kept) await deleteKeptResponse(tx, scope);
    }
    if (!order) return { kind: 'order-not-found' };

    const bookings = await loadOrderBookings(tx, order.orderId, request.references);
    if (bookings.some((booking) => dueChanges(booking, now).length > 0)) throw new DeadlinePassed();
    const { result, writes } = applyRules(order, bookings, request, now);
    await runStatements(tx, writes);
    const response = render(result);
    if (scope && request.idempotency) {
      const expiresAt = new Date(Date.parse(now) + IDEMPOTENCY_TTL_MS).toISOString();
      const kept = await keepResponse(tx, scope, { requestHash: request.idempotency.requestHash, ...response, requestId: request.actor.requestId ?? '', expiresAt }, now);
      // Another request with this key, for another order, finished first: undo ours.
      if (!kept) throw errors.idempotencyKeyInUse();
    }
    if (request.deadline && !request.deadline.claimCommit()) throw errors.unavailable(1);
    return { kind: 'processed', result, response };
  });
}
