import type { Booking } from '../domain/order.js';
import { recordAfter } from './order-record.js';
import { pendingIn, tallyWrite } from './repositories/change-tallies-repository.js';
import type { AgencyEvent } from '../events/event-types.js';
import type { Statement } from './statement.js';
import { auditWrite, type Actor, type AuditEvent } from './repositories/audit-repository.js';
import { eventWrites } from './repositories/events-repository.js';
import type { KeptResponseKey, KeptResponse } from './repositories/kept-responses-repository.js';
import { operatorActionInsert, type OperatorAction } from './repositories/operator-actions-repository.js';
import { recordWrite, type OrderRow, type StoredOrder } from './repositories/orders-repository.js';
import { refundQuoteInsert } from './repositories/refund-quotes-repository.js';
import type { StoredRefundQuote } from './stored-shapes.js';

/** What an update of one order reads: the order of an agency (or of any, for the service itself) and some of its bookings. */
export interface OrderUpdateScope {
  orderId: string;
  /** Null: the service's own work (a deadline), on any agency's order. */
  agencyId: string | null;
  /** The bookings to read; all of them when null. */
  references: readonly string[] | null;
  /** The Idempotency-Key the request carries, if any: its kept response is read with the order. */
  keptResponseKey: KeptResponseKey | null;
  /**
   * How many kept responses the key's agency may have (KEPT_RESPONSES_PER_AGENCY): a response under a
   * new key is kept only below it. No cap when absent.
   */
  keptResponsesPerAgency?: number;
  /**
   * The request's time left: past it nothing may be stored, even where the store was kept waiting
   * (a lock) after the work claimed its commit.
   */
  timeLeft?: () => number;
}

/** The order as one instant saw it. */
export interface OrderSnapshot {
  /** Null when there is no such order (for this agency). */
  order: OrderRow | null;
  bookings: Booking[];
  kept: KeptResponse | null;
}

/** What a decision stores, all together or not at all. */
export interface OrderUpdate {
  now: string;
  /** Each booking as read and as the rules left it. */
  bookings: { before: Booking; after: Booking }[];
  audit: { actor: Actor; events: AuditEvent[] } | null;
  /** Announced to the agency (the outbox). */
  events: AgencyEvent[];
  /** The response to keep under the request's Idempotency-Key (an expired one under it is replaced). */
  keep: KeptResponse | null;
  /**
   * An operator's act in the console, for the console's journal (`operator_actions`): stored with
   * the change it made, never without it nor it without the record.
   */
  operatorAction?: Omit<OperatorAction, 'occurredAt'> | null;
  /** A refund quote made on the order (AirOrderRefundQuote): stored with the audit entry that records it. */
  quote?: StoredRefundQuote | null;
}

/**
 * Another request stored a response under the same Idempotency-Key (for another order) while this
 * one was being decided: nothing of this one is stored.
 */
export class KeptResponseTaken extends Error {
  constructor(key: string) {
    super(`a response was kept under Idempotency-Key ${key} meanwhile`);
  }
}

/**
 * The request's agency has as many kept responses as it may, and its key is a new one: nothing of the
 * request is stored. `until`: when the agency's oldest kept response expires.
 */
export class KeptResponsesExhausted extends Error {
  constructor(
    agencyId: string,
    readonly until: string,
  ) {
    super(`agency ${agencyId} has as many kept responses as it may until ${until}`);
  }
}

/** No cap: the most a count column holds. */
export const NO_KEPT_RESPONSE_CAP = 2_147_483_647;

/** A decision over a snapshot: a value to return and, when something changes, what to store. */
export interface OrderDecision<T> {
  value: T;
  update: OrderUpdate | null;
}

/**
 * Reads an order, lets `decide` apply the rules in TypeScript, and stores what it decided
 * atomically, only if the order is still as it was read; otherwise reads again and decides again.
 * `decide` may throw to abandon the update (nothing is stored) and may run more than once.
 */
export type UpdateOrder = <T>(
  scope: OrderUpdateScope,
  decide: (snapshot: OrderSnapshot) => OrderDecision<T>,
) => Promise<T>;

/**
 * What an update stores besides the kept response (which each engine stores its own way): the
 * order's record as the update leaves it, with its version moved on (with `version`: only if it is
 * still that one; `recordIn` is the engine's, engine-sql.ts), and the rest: the audit log's row,
 * the events, the operator's act and the difference it makes to the pending changes' tally. No
 * record when the update changes nothing of the order: a response kept alone leaves it as it is.
 */
export function orderUpdateWrites(
  recordIn: string,
  stored: StoredOrder,
  update: OrderUpdate,
  version?: number | string,
): { record: Statement | null; rest: Statement[] } {
  const rest: Statement[] = [];
  let trailKey: string | null = null;
  if (update.audit && update.audit.events.length > 0) {
    const audit = auditWrite(update.audit.actor, stored.row.orderId, update.audit.events, update.now);
    trailKey = audit.key;
    rest.push(audit.statement);
  }
  const tally = tallyWrite(
    pendingIn(update.bookings.map(({ after }) => after)) - pendingIn(update.bookings.map(({ before }) => before)),
  );
  if (tally) rest.push(tally);
  rest.push(...eventWrites(update.events, update.now));
  if (update.operatorAction) rest.push(operatorActionInsert(update.operatorAction, update.now));
  if (update.quote) rest.push(refundQuoteInsert(update.quote));
  const changed = update.bookings.length > 0 || trailKey !== null;
  const record = changed
    ? recordWrite(
        recordIn,
        stored.row.orderId,
        recordAfter(
          stored.record,
          update.bookings.map(({ after }) => after),
          update.now,
          trailKey,
        ),
        version,
      )
    : null;
  return { record, rest };
}
