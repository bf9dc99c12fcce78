import type { AirlineChange, Booking, Order } from '../../domain/order.js';
import type { Executor } from '../executor.js';
import { engineSql } from '../engine-sql.js';
import {
  bookingOf,
  bookingsOf,
  newRecordJson,
  orderOf,
  parseOrderRecord,
  recordWithChanges,
  type OrderRecord,
} from '../order-record.js';
import { insertRows, placeholders, runSql } from '../raw-sql.js';
import { addToTally, pendingIn } from './change-tallies-repository.js';
import type { Statement } from '../statement.js';
import { bookingKey, type BookingKey, type BookingToStore } from '../stored-shapes.js';

export interface OrderRow {
  orderId: string;
  agencyId: string;
  currency: string;
}

/** An order as its row holds it: the record (order-record.ts) and the version it was read at. */
export interface StoredOrder {
  row: OrderRow;
  version: number;
  record: OrderRecord;
}

/** Records are large: a few hundred per statement keep a statement far below either engine's limits. */
const RECORDS_PER_STATEMENT = 250;

interface RecordRow {
  order_id: string;
  agency_id: string;
  version: number | string;
  record: string;
}

/** Rows of `order_records` with their record as JSON text, whichever way the engine keeps it. */
export function recordSelect(db: Executor): string {
  return `select order_id, agency_id, version, ${engineSql(db).recordOut} as record from order_records`;
}

export function storedOrderOf(row: RecordRow): StoredOrder {
  const record = parseOrderRecord(row.record);
  return {
    row: { orderId: row.order_id, agencyId: row.agency_id, currency: record.currency },
    version: Number(row.version),
    record,
  };
}

/**
 * The order's row with its record. With `agencyId`, an order of another agency is answered exactly
 * like a missing one. `lock` holds the row until the transaction ends (where the engine locks rows:
 * engine-sql.ts, `lockRows`), so that the transaction's later writes of the order follow what it read.
 */
export async function loadStoredOrder(
  db: Executor,
  orderId: string,
  agencyId?: string,
  lock = false,
): Promise<StoredOrder | null> {
  const forUpdate = lock ? engineSql(db).lockRows : '';
  const read = async () =>
    (agencyId === undefined
      ? await runSql<RecordRow>(db, `${recordSelect(db)} where order_id = ?${forUpdate}`, [orderId])
      : await runSql<RecordRow>(db, `${recordSelect(db)} where order_id = ? and agency_id = ?${forUpdate}`, [
          orderId,
          agencyId,
        ]))[0];
  let row = await read();
  // An order replaced while we waited for its lock (`orders import --upsert` deletes the row and
  // inserts it anew) is gone for the statement that waited; a new statement sees the new row.
  if (!row && forUpdate) row = await read();
  return row ? storedOrderOf(row) : null;
}

/** Several orders with their records, by id (the missing ones left out). */
async function loadStoredOrders(db: Executor, orderIds: readonly string[]): Promise<Map<string, StoredOrder>> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return new Map();
  const rows = await runSql<RecordRow>(db, `${recordSelect(db)} where order_id in (${placeholders(ids.length)})`, ids);
  return new Map(rows.map((row) => [row.order_id, storedOrderOf(row)]));
}

export async function loadOrderRow(
  db: Executor,
  orderId: string,
  agencyId?: string,
  lock = false,
): Promise<OrderRow | null> {
  return (await loadStoredOrder(db, orderId, agencyId, lock))?.row ?? null;
}

/** The order's own row, locked until the transaction ends (where the engine locks rows). */
export function lockOrderRow(db: Executor, orderId: string): Promise<OrderRow | null> {
  return loadOrderRow(db, orderId, undefined, true);
}

/**
 * Locks orders until the transaction ends (where the engine locks rows: engine-sql.ts, `lockRows`),
 * in one order so that two such transactions cannot deadlock. What is read about them afterwards,
 * by later statements, is what the requests holding them before committed.
 */
export async function lockOrders(db: Executor, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  const { lockRows } = engineSql(db);
  // Transactions that run one at a time hold everything already.
  if (lockRows === '') return;
  const ids = [...new Set(orderIds)].sort();
  await runSql(
    db,
    `select order_id from order_records where order_id in (${placeholders(ids.length)}) order by order_id${lockRows}`,
    ids,
  );
}

/** An order's bookings with their airline changes and refunds: every booking, or only those named in `references`. */
export async function loadOrderBookings(
  db: Executor,
  orderId: string,
  references?: readonly string[],
): Promise<Booking[]> {
  const stored = await loadStoredOrder(db, orderId);
  return stored ? bookingsOf(stored.record, references) : [];
}

/** An order with its bookings, airline changes and refunds (all, or those named in `references`). */
export async function loadOrder(
  db: Executor,
  orderId: string,
  agencyId?: string,
  references?: readonly string[],
): Promise<Order | null> {
  const stored = await loadStoredOrder(db, orderId, agencyId);
  return stored ? orderOf(stored.row.orderId, stored.row.agencyId, stored.record, references) : null;
}

export interface StoredOrderVersion {
  createdAt: string;
  version: number;
  /** Its keys in the audit log (order-record.ts, `trail`). */
  trail: string[];
}

/** When the orders among `orderIds` that exist were created, and their versions. */
export async function storedOrderVersions(
  db: Executor,
  orderIds: readonly string[],
): Promise<Map<string, StoredOrderVersion>> {
  return new Map(
    [...(await loadStoredOrders(db, orderIds))].map(([orderId, stored]) => [
      orderId,
      { createdAt: stored.record.createdAt, version: stored.version, trail: stored.record.trail ?? [] },
    ]),
  );
}

/** The orders among `orderIds` that have at least one refund. */
export async function refundedOrders(db: Executor, orderIds: readonly string[]): Promise<Set<string>> {
  const refunded = new Set<string>();
  for (const [orderId, stored] of await loadStoredOrders(db, orderIds)) {
    if (stored.record.bookings.some((booking) => booking.refunds.length > 0)) refunded.add(orderId);
  }
  return refunded;
}

/** Deletes orders, their records and their changes' timers; their pending changes leave the tally. */
export async function deleteOrders(db: Executor, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  let pending = 0;
  for (const stored of (await loadStoredOrders(db, orderIds)).values()) pending += pendingIn(stored.record.bookings);
  await addToTally(db, -pending);
  await runSql(db, `delete from airline_change_timers where order_id in (${placeholders(orderIds.length)})`, orderIds);
  await runSql(db, `delete from order_records where order_id in (${placeholders(orderIds.length)})`, orderIds);
}

/** Which booking each stored change among `changeIds` belongs to (every change recorded has its timer). */
export async function storedChanges(db: Executor, changeIds: readonly string[]): Promise<Map<string, BookingKey>> {
  if (changeIds.length === 0) return new Map();
  const rows = await runSql<{ change_id: string; order_id: string; reference: string }>(
    db,
    `select change_id, order_id, reference from airline_change_timers where change_id in (${placeholders(changeIds.length)})`,
    changeIds,
  );
  return new Map(rows.map((row) => [row.change_id, { orderId: row.order_id, reference: row.reference }]));
}

/** Bookings of any orders, each with its airline changes (refunds left out), and the orders they are read from. */
export interface BookingsRead {
  /** By `bookingKey`: the bookings asked for that exist. */
  bookings: Map<string, Booking>;
  /** By order id: the stored orders of those bookings, to write them back without reading them again. */
  orders: Map<string, StoredOrder>;
}

/** Several bookings of any orders at once (an import of changes), their orders' records read once. */
export async function loadBookings(db: Executor, keys: readonly BookingKey[]): Promise<BookingsRead> {
  const bookings = new Map<string, Booking>();
  const wanted = new Set(keys.map(bookingKey));
  const orders = await loadStoredOrders(
    db,
    keys.map((key) => key.orderId),
  );
  for (const [orderId, stored] of orders) {
    for (const booking of stored.record.bookings) {
      const key = bookingKey({ orderId, reference: booking.reference });
      if (wanted.has(key)) bookings.set(key, { ...bookingOf(booking), refunds: [] });
    }
  }
  return { bookings, orders };
}

/**
 * The statement that writes an order's record back, moving its version on (and, with `version`,
 * only if it is still that one). `recordIn`: the engine's (engine-sql.ts).
 */
export function recordWrite(
  recordIn: string,
  orderId: string,
  record: OrderRecord,
  version?: number | string,
): Statement {
  return {
    text: `update order_records set record = ${recordIn}, version = version + 1 where order_id = ?${version === undefined ? '' : ' and version = ?'}`,
    parameters: [JSON.stringify(record), orderId, ...(version === undefined ? [] : [version])],
  };
}

/**
 * Adds airline changes to their bookings' records (the caller has made sure their ids are new and
 * holds the orders' locks), each order's row of the audit log to its trail (`trailKeys`), and writes
 * each change's timer. Each order's version moves on: a request
 * that read the order before must decide again.
 */
export async function insertChanges(
  db: Executor,
  changes: readonly (BookingKey & { change: AirlineChange })[],
  now: string,
  trailKeys: ReadonlyMap<string, string> = new Map(),
  read?: ReadonlyMap<string, StoredOrder>,
): Promise<void> {
  if (changes.length === 0) return;
  // The records as the caller read them in this transaction, which holds their orders' locks.
  const stored =
    read ??
    (await loadStoredOrders(
      db,
      changes.map((item) => item.orderId),
    ));
  const records = [...stored].map(([orderId, order]) => [
    orderId,
    JSON.stringify(
      recordWithChanges(
        order.record,
        changes.filter((item) => item.orderId === orderId),
        now,
        trailKeys.get(orderId) ?? null,
      ),
    ),
  ]);
  // Many orders per statement: on PostgreSQL a statement per order would cost a round trip each.
  const recordIn = engineSql(db).recordIn.replace('?', 'v.column2');
  for (let start = 0; start < records.length; start += RECORDS_PER_STATEMENT) {
    const chunk = records.slice(start, start + RECORDS_PER_STATEMENT);
    await runSql(
      db,
      `update order_records set record = ${recordIn}, version = order_records.version + 1
      from (values ${chunk.map(() => '(?, ?)').join(', ')}) as v where order_records.order_id = v.column1`,
      chunk.flat(),
    );
  }
  await addToTally(db, changes.filter(({ change }) => change.status === 'PENDING').length);
  await insertRows(
    db,
    'airline_change_timers',
    ['change_id', 'order_id', 'reference', 'due_at', 'warned_at'],
    changes.map(({ orderId, reference, change }) => [
      change.changeId,
      orderId,
      reference,
      change.status === 'PENDING' ? change.actionDeadline : null,
      null,
    ]),
  );
}

export interface OrderToStore extends OrderRow {
  /** In the order's own order of bookings. */
  bookings: BookingToStore[];
}

/**
 * Inserts orders with their bookings, in as few statements as the store allows. An order that
 * replaces one goes on from the version it replaces (`versions`), so that a change decided on the
 * replaced order is refused rather than applied to its successor, and from its audit trail (`trails`:
 * each order's keys in the audit log, its import's included).
 */
export async function insertOrders(
  db: Executor,
  orders: readonly OrderToStore[],
  now: string,
  versions: ReadonlyMap<string, number> = new Map(),
  trails: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<void> {
  if (orders.length === 0) return;
  const { recordIn } = engineSql(db);
  for (let start = 0; start < orders.length; start += RECORDS_PER_STATEMENT) {
    const chunk = orders.slice(start, start + RECORDS_PER_STATEMENT);
    await runSql(
      db,
      `insert into order_records (order_id, agency_id, version, record) values ${chunk.map(() => `(?, ?, ?, ${recordIn})`).join(', ')}`,
      chunk.flatMap((order) => [
        order.orderId,
        order.agencyId,
        (versions.get(order.orderId) ?? -1) + 1,
        newRecordJson(order.currency, order.bookings, now, trails.get(order.orderId) ?? []),
      ]),
    );
  }
}
