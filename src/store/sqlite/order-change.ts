import { runSql } from '../raw-sql.js';
import { KeptResponseTaken, orderUpdateStatements, type ChangeOrder } from '../order-change.js';
import { deleteKeptResponse, findKeptResponse, keepResponse } from '../repositories/idempotency-repository.js';
import { loadOrderRow, touchOrder } from '../repositories/orders-repository.js';
import { sqliteOrderBookings } from './engine-sql.js';
import type { Executor } from '../executor.js';

/**
 * A change of an order in one write transaction of the group commit. SQLite has one writer at a
 * time, so what is read is still so when it is written: `decide` runs once.
 */
export function sqliteChangeOrder(transaction: <T>(work: (tx: Executor) => Promise<T>) => Promise<T>): ChangeOrder {
  return (scope, decide) => transaction(async (tx) => {
    const order = await loadOrderRow(tx, scope.orderId, scope.agencyId ?? undefined);
    const kept = scope.idempotency ? await findKeptResponse(tx, scope.idempotency) : null;
    const bookings = order ? await sqliteOrderBookings(tx, order.orderId, scope.references ?? undefined) : [];
    const { value, update } = decide({ order, bookings, kept });
    if (!update || !order) return value;
    const writes = orderUpdateStatements(order, update);
    if (update.bookings.length > 0) writes.push(touchOrder(order.orderId, update.now));
    // One writer, in process: the writes run in turn, at no round-trip cost.
    for (const write of writes) await runSql(tx, write.text, write.parameters);
    if (update.keep && scope.idempotency) {
      // Only an expired response can be under the key here: a live one was read and replayed.
      if (kept) await deleteKeptResponse(tx, scope.idempotency);
      if (!await keepResponse(tx, scope.idempotency, update.keep, update.now)) throw new KeptResponseTaken(scope.idempotency.key);
    }
    return value;
  });
}
