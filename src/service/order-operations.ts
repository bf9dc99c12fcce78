import { acceptChanges } from '../domain/accept-changes.js';
import { failed, type BookingOutcome } from '../domain/booking-outcome.js';
import { cancelBooking } from '../domain/cancel-booking.js';
import { involuntaryCancel } from '../domain/involuntary-cancel.js';
import type { Booking } from '../domain/order.js';
import { errors } from '../errors/api-error.js';
import { auditInsert, type Actor, type AuditEvent } from '../store/repositories/audit-repository.js';
import { deleteKeptResponse, findKeptResponse, keepResponse, type IdempotencyScope } from '../store/repositories/idempotency-repository.js';
import { bookingWrites, loadOrderBookings, loadOrderRow, touchOrder, type OrderRow } from '../store/repositories/orders-repository.js';
import { runStatements, type Statement } from '../store/raw-sql.js';
import type { Store } from '../store/store.js';
import { bookingAuditEvents } from './audit-events.js';
import type { Clock } from './clock.js';
import type { Deadline } from './deadline.js';

export type OperationName = 'cancel' | 'involuntaryAccept' | 'involuntaryCancel';

/** How long the first response to an Idempotency-Key is kept (contract §8.1). */
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
    }
    items.push({ reference, outcome });
  }
  if (writes.length > 0) writes.push(touchOrder(order.orderId, now));
  if (events.length > 0) writes.push(auditInsert(request.actor, events, now));
  return { result: { orderId: order.orderId, currency: order.currency, items }, writes };
}

/**
 * Applies one operation to each requested booking of an order, in one transaction under the order's
 * lock. Failed items change nothing, so committing the transaction commits exactly what succeeded,
 * together with the audit events and, under an Idempotency-Key, the response itself: a request is
 * either wholly done and replayable, or not done at all. Past `request.deadline` it is not done.
 */
export async function runOperation(
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

    const { result, writes } = applyRules(order, await loadOrderBookings(tx, order.orderId, request.references), request, now);
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
