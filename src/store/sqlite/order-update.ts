import { engineSql } from '../engine-sql.js';
import { runSql } from '../raw-sql.js';
import { bookingsOf } from '../order-record.js';
import {
  KeptResponsesExhausted,
  KeptResponseTaken,
  NO_KEPT_RESPONSE_CAP,
  orderUpdateWrites,
  type UpdateOrder,
} from '../order-update.js';
import {
  countKeptResponses,
  deleteKeptResponse,
  findKeptResponse,
  keepResponse,
  keptResponsesFull,
} from '../repositories/kept-responses-repository.js';
import { loadStoredOrder } from '../repositories/orders-repository.js';
import type { Executor } from '../executor.js';

/**
 * An update of an order in one write transaction of the group commit. SQLite has one writer at a
 * time, so what is read is still so when it is written: `decide` runs once. The order is one row:
 * read by its key, written back by one update (order-record.ts).
 */
export function sqliteUpdateOrder(transaction: <T>(work: (tx: Executor) => Promise<T>) => Promise<T>): UpdateOrder {
  return (scope, decide) =>
    transaction(async (tx) => {
      const stored = await loadStoredOrder(tx, scope.orderId, scope.agencyId ?? undefined);
      const kept = scope.keptResponseKey ? await findKeptResponse(tx, scope.keptResponseKey) : null;
      const bookings = stored ? bookingsOf(stored.record, scope.references) : [];
      const { value, update } = decide({ order: stored?.row ?? null, bookings, kept });
      if (!update || !stored) return value;
      const key = scope.keptResponseKey;
      // A new key takes room under the agency's cap, checked before anything is written; an expired
      // response under the key is replaced and takes none (one writer: the count cannot move meanwhile).
      if (update.keep && key && !kept) {
        const until = await keptResponsesFull(
          tx,
          key.agencyId,
          scope.keptResponsesPerAgency ?? NO_KEPT_RESPONSE_CAP,
          update.now,
        );
        if (until !== null) throw new KeptResponsesExhausted(key.agencyId, until);
      }
      const { record, rest } = orderUpdateWrites(engineSql(tx).recordIn, stored, update);
      const writes = record ? [record, ...rest] : rest;
      // One writer, in process: the writes run in turn, at no round-trip cost.
      for (const write of writes) await runSql(tx, write.text, write.parameters);
      if (update.keep && key) {
        // Only an expired response can be under the key here: a live one was read and replayed.
        if (kept) await deleteKeptResponse(tx, key);
        if (!(await keepResponse(tx, key, update.keep, update.now))) throw new KeptResponseTaken(key.key);
        if (!kept) await countKeptResponses(tx, key.agencyId, 1);
      }
      return value;
    });
}
