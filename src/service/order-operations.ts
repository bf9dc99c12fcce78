import { acceptChanges } from '../domain/accept-changes.js';
import { failed, type BookingOutcome } from '../domain/booking-outcome.js';
import { cancelBooking } from '../domain/cancel-booking.js';
import { involuntaryCancel } from '../domain/involuntary-cancel.js';
import type { Booking } from '../domain/order.js';
import { errors } from '../errors/api-error.js';
import { appendAuditEvents, type Actor } from '../store/repositories/audit-repository.js';
import { deleteKeptResponse, findKeptResponse, keepResponse, type IdempotencyScope } from '../store/repositories/idempotency-repository.js';
import { loadOrder, saveBooking } from '../store/repositories/orders-repository.js';
import type { Executor, Store } from '../store/store.js';
import { bookingAuditEvents } from './audit-events.js';
import type { Clock } from './clock.js';

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

async function applyToOrder(tx: Executor, request: OperationRequest, now: string): Promise<OperationResult | null> {
  const order = await loadOrder(tx, request.orderId, request.actor.agencyId, request.references);
  if (!order) return null;
  const items: ItemResult[] = [];
  // One sequence across the request: the trail lists the bookings' events in request order.
  let sequence = 0;
  for (const reference of request.references) {
    const booking = order.bookings.find((candidate) => candidate.reference === reference);
    if (!booking) {
      items.push({ reference, outcome: failed('BOOKING_NOT_FOUND', `Booking ${reference} is not part of order ${order.orderId}.`) });
      continue;
    }
    const outcome = RULES[request.operation](booking, now);
    if (outcome.ok && outcome.changed) {
      await saveBooking(tx, order, booking, outcome.booking, now);
      const events = bookingAuditEvents(order.orderId, order.currency, booking, outcome.booking);
      await appendAuditEvents(tx, request.actor, events, now, sequence);
      sequence += events.length;
    }
    items.push({ reference, outcome });
  }
  return { orderId: order.orderId, currency: order.currency, items };
}

/**
 * Applies one operation to each requested booking of an order, in one transaction under the order's
 * lock. Failed items change nothing, so committing the transaction commits exactly what succeeded,
 * together with the audit events and, under an Idempotency-Key, the response itself: a request is
 * either wholly done and replayable, or not done at all.
 */
export async function runOperation(
  store: Store, clock: Clock, request: OperationRequest, render: (result: OperationResult) => RenderedResponse,
): Promise<OperationOutcome> {
  return store.transaction(async (tx): Promise<OperationOutcome> => {
    // The lock comes first, so that a duplicate sent while the first is running waits for it and
    // then finds its response.
    await store.lockOrder(tx, request.orderId);
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

    const result = await applyToOrder(tx, request, now);
    if (!result) return { kind: 'order-not-found' };
    const response = render(result);
    if (scope && request.idempotency) {
      const expiresAt = new Date(Date.parse(now) + IDEMPOTENCY_TTL_MS).toISOString();
      const kept = await keepResponse(tx, scope, { requestHash: request.idempotency.requestHash, ...response, requestId: request.actor.requestId ?? '', expiresAt }, now);
      // Another request with this key, for another order, finished first: undo ours.
      if (!kept) throw errors.idempotencyKeyInUse();
    }
    return { kind: 'processed', result, response };
  });
}
