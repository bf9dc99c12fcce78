import { applyDeadlineConsequence, dueChanges } from '../domain/deadline-consequence.js';
import { bookingEvents, changeNotice } from '../events/booking-events.js';
import type { AgencyEvent } from '../events/event-types.js';
import type { Actor } from '../store/repositories/audit-repository.js';
import type { ChangeRef } from '../store/repositories/deadlines-repository.js';
import type { OrderDecision, OrderUpdate } from '../store/order-update.js';
import type { Store } from '../store/store.js';
import { bookingAuditEvents } from './audit-events.js';
import type { Clock } from '../runtime/clock.js';

const DEADLINE_ACTOR: Actor = {
  actor: 'system',
  agencyId: null,
  tokenId: null,
  requestId: null,
  operation: 'deadline',
};

/**
 * Applies the consequence of every passed deadline on the order's bookings (all of them, or the
 * named ones), as one update of the order (the store's `updateOrder`), as the agency's own call
 * would: the accept or involuntary-cancel rules, audited as `system`/`deadline` and announced with
 * events. Decided on the order as it is stored, so a request or another process that got there
 * first leaves nothing to do. Returns how many bookings it changed.
 */
export async function applyDueActionDeadlines(
  store: Store,
  clock: Clock,
  orderId: string,
  references?: readonly string[],
): Promise<number> {
  return store.updateOrder(
    { orderId, agencyId: null, references: references ?? null, keptResponseKey: null },
    ({ order, bookings }): OrderDecision<number> => {
      if (!order) return { value: 0, update: null };
      const now = clock();
      const update: OrderUpdate = {
        now,
        bookings: [],
        audit: { actor: DEADLINE_ACTOR, events: [] },
        events: [],
        keep: null,
      };
      for (const booking of bookings) {
        const applied = applyDeadlineConsequence(booking, now);
        if (!applied || !applied.outcome.ok || !applied.outcome.changed) continue;
        const after = applied.outcome.booking;
        update.bookings.push({ before: booking, after });
        update.audit!.events.push(
          {
            orderId,
            reference: booking.reference,
            event: 'DEADLINE_PASSED',
            detail: {
              consequence: applied.consequence,
              changeIds: dueChanges(booking, now).map((change) => change.changeId),
            },
          },
          ...bookingAuditEvents(orderId, order.currency, booking, after),
        );
        update.events.push(...bookingEvents(order, booking, after, 'DEADLINE'));
      }
      return { value: update.bookings.length, update: update.bookings.length > 0 ? update : null };
    },
  );
}

/**
 * Sends `airline_change.deadline_approaching` once for each of these changes still pending, under
 * the order's lock so that a change resolved meanwhile is not announced (its timer is settled instead).
 */
async function warnOrder(store: Store, clock: Clock, orderId: string, changes: readonly ChangeRef[]): Promise<number> {
  return store.write(async (tx) => {
    const order = await tx.lockOrderRow(orderId);
    if (!order) return 0;
    const due = await tx.stillToWarn(changes.map((change) => change.changeId));
    if (due.size === 0) return 0;
    const now = clock();
    const announced: AgencyEvent[] = [];
    const warned: string[] = [];
    const resolved: string[] = [];
    for (const booking of await tx.loadOrderBookings(orderId, [
      ...new Set(changes.map((change) => change.reference)),
    ])) {
      for (const change of booking.changes) {
        if (!due.has(change.changeId)) continue;
        if (change.status !== 'PENDING') {
          resolved.push(change.changeId);
          continue;
        }
        warned.push(change.changeId);
        announced.push(changeNotice('airline_change.deadline_approaching', order, booking, change));
      }
    }
    await tx.settleTimers(resolved);
    await tx.recordWarnings(warned, announced, now);
    return announced.length;
  });
}

/**
 * Settles the timers among `changeIds` whose changes are no longer pending (resolved by the agency,
 * or by the deadline just applied): the scheduler does not meet them again. Returns how many.
 */
async function settleResolved(store: Store, orderId: string, changeIds: readonly string[]): Promise<number> {
  return store.write(async (tx) => {
    const pending = new Set<string>();
    for (const booking of await tx.loadOrderBookings(orderId)) {
      for (const change of booking.changes) if (change.status === 'PENDING') pending.add(change.changeId);
    }
    const settled = changeIds.filter((changeId) => !pending.has(changeId));
    await tx.settleTimers(settled);
    return settled.length;
  });
}

function byOrder(changes: readonly ChangeRef[]): Map<string, ChangeRef[]> {
  const orders = new Map<string, ChangeRef[]>();
  for (const change of changes) orders.set(change.orderId, [...(orders.get(change.orderId) ?? []), change]);
  return orders;
}

const BATCH = 200;

export interface DeadlineRound {
  /** Bookings whose deadline's consequence was applied. */
  applied: number;
  /** Changes announced as approaching their deadline. */
  warned: number;
}

/**
 * One round of the deadline work: every passed deadline's consequence, then every approaching
 * deadline's warning (`warningMs` ahead). Each order in its own transaction, so one order's failure
 * does not hold back the others; what is left is found again by the next round.
 */
export async function deadlineRound(store: Store, clock: Clock, warningMs: number): Promise<DeadlineRound> {
  const round: DeadlineRound = { applied: 0, warned: 0 };
  for (;;) {
    const passed = await store.read.passedDeadlines(clock(), BATCH);
    let progress = 0;
    for (const [orderId, changes] of byOrder(passed)) {
      const applied = await applyDueActionDeadlines(store, clock, orderId, [
        ...new Set(changes.map((change) => change.reference)),
      ]);
      round.applied += applied;
      progress +=
        applied +
        (await settleResolved(
          store,
          orderId,
          changes.map((change) => change.changeId),
        ));
    }
    if (passed.length < BATCH || progress === 0) break;
  }
  const now = clock();
  const approaching = await store.read.approachingDeadlines(
    now,
    new Date(Date.parse(now) + warningMs).toISOString(),
    10_000,
  );
  for (const [orderId, changes] of byOrder(approaching))
    round.warned += await warnOrder(store, clock, orderId, changes);
  return round;
}
