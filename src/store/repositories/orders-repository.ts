import type { AirlineChange, Booking, BookingStatus, Cancellation, ChangeKind, ChangeStatus, Consequence, Order, QuoteType, Refund } from '../../domain/order.js';
import type { Executor } from '../executor.js';
import { engineSql } from '../engine-sql.js';
import { insertRows, placeholders, runSql } from '../raw-sql.js';
import type { Statement } from '../statement.js';
import { bookingKey, type BookingKey, type BookingToStore } from '../stored-shapes.js';
import type { AirlineChangesTable, BookingsTable, OrdersTable, RefundsTable } from '../tables.js';

export function bookingFromRow(row: BookingsTable, changes: AirlineChange[], refunds: Refund[]): Booking {
  return {
    reference: row.reference,
    status: row.status as BookingStatus,
    cancellation: row.cancellation as Cancellation | null,
    segments: JSON.parse(row.segments),
    passengers: JSON.parse(row.passengers),
    changes,
    refunds,
  };
}

export function changeFromRow(row: AirlineChangesTable): AirlineChange {
  return {
    changeId: row.change_id,
    kind: row.kind as ChangeKind,
    detectedAt: row.detected_at,
    removedSegments: JSON.parse(row.removed_segments),
    addedSegments: JSON.parse(row.added_segments),
    status: row.status as ChangeStatus,
    actionDeadline: row.action_deadline,
    consequenceOfInaction: row.consequence as Consequence,
  };
}

export function refundFromRow(row: RefundsTable): Refund {
  return {
    ticketNumber: row.ticket_number,
    amount: Number(row.amount_minor),
    quoteType: row.quote_type as QuoteType,
    createdAt: row.created_at,
  };
}

export function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

export interface OrderRow {
  orderId: string;
  agencyId: string;
  currency: string;
}

/**
 * The order's own row. With `agencyId`, an order of another agency is answered exactly like a
 * missing one. `lock` holds the row until the transaction ends (where the engine locks rows:
 * engine-sql.ts, `lockRows`), so requests on one order run one after the other. The bookings
 * must be read by a later statement: one that waited for the lock sees, in READ COMMITTED, what the
 * holder committed, whereas rows joined into the locking statement itself would come from before
 * the wait (a refund could then be made twice).
 */
export async function loadOrderRow(db: Executor, orderId: string, agencyId?: string, lock = false): Promise<OrderRow | null> {
  const forUpdate = lock ? engineSql(db).lockRows : '';
  const read = async () => (agencyId === undefined
    ? await runSql<OrdersTable>(db, `select * from orders where order_id = ?${forUpdate}`, [orderId])
    : await runSql<OrdersTable>(db, `select * from orders where order_id = ? and agency_id = ?${forUpdate}`, [orderId, agencyId]))[0];
  let row = await read();
  // An order replaced while we waited for its lock (`orders import --upsert` deletes the row and
  // inserts it anew) is gone for the statement that waited; a new statement sees the new row.
  if (!row && forUpdate) row = await read();
  return row ? { orderId: row.order_id, agencyId: row.agency_id, currency: row.currency } : null;
}

/** The order's own row, locked until the transaction ends (where the engine locks rows). */
export function lockOrderRow(db: Executor, orderId: string): Promise<OrderRow | null> {
  return loadOrderRow(db, orderId, undefined, true);
}

/** The own rows of several orders, by id (the missing ones left out). */
export async function loadOrderRows(db: Executor, orderIds: readonly string[]): Promise<Map<string, OrderRow>> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return new Map();
  const rows = await runSql<OrdersTable>(db, `select order_id, agency_id, currency from orders where order_id in (${placeholders(ids.length)})`, ids);
  return new Map(rows.map((row) => [row.order_id, { orderId: row.order_id, agencyId: row.agency_id, currency: row.currency }]));
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
  await runSql(db, `select order_id from orders where order_id in (${placeholders(ids.length)}) order by order_id${lockRows}`, ids);
}

/**
 * An order's bookings with their airline changes and refunds: every booking, or only those named
 * in `references`. Each engine reads them its own way (engine-sql.ts): in one query where a round
 * trip costs most, table by table in process. This runs on every request.
 */
export function loadOrderBookings(db: Executor, orderId: string, references?: readonly string[]): Promise<Booking[]> {
  return engineSql(db).loadOrderBookings(db, orderId, references);
}

/** An order with its bookings, airline changes and refunds (see `loadOrderRow` and `loadOrderBookings`). */
export async function loadOrder(db: Executor, orderId: string, agencyId?: string, references?: readonly string[]): Promise<Order | null> {
  const row = await loadOrderRow(db, orderId, agencyId);
  return row ? { ...row, bookings: await loadOrderBookings(db, orderId, references) } : null;
}

export interface StoredOrderVersion {
  createdAt: string;
  version: number;
}

/** When the orders among `orderIds` that exist were created, and their versions. */
export async function storedOrderVersions(db: Executor, orderIds: readonly string[]): Promise<Map<string, StoredOrderVersion>> {
  if (orderIds.length === 0) return new Map();
  const rows = await runSql<{ order_id: string; created_at: string; version: number | string }>(db,
    `select order_id, created_at, version from orders where order_id in (${placeholders(orderIds.length)})`, orderIds);
  return new Map(rows.map((row) => [row.order_id, { createdAt: row.created_at, version: Number(row.version) }]));
}

/** The orders among `orderIds` that have at least one refund. */
export async function refundedOrders(db: Executor, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const rows = await runSql<{ order_id: string }>(db, `select distinct order_id from refunds where order_id in (${placeholders(orderIds.length)})`, orderIds);
  return new Set(rows.map((row) => row.order_id));
}

/** Deletes orders; their bookings, changes and refunds go with them (foreign keys on delete cascade). */
export async function deleteOrders(db: Executor, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  await runSql(db, `delete from orders where order_id in (${placeholders(orderIds.length)})`, orderIds);
}

/** Which booking each stored change among `changeIds` belongs to. */
export async function storedChanges(db: Executor, changeIds: readonly string[]): Promise<Map<string, BookingKey>> {
  if (changeIds.length === 0) return new Map();
  const rows = await runSql<{ change_id: string; order_id: string; reference: string }>(db,
    `select change_id, order_id, reference from airline_changes where change_id in (${placeholders(changeIds.length)})`, changeIds);
  return new Map(rows.map((row) => [row.change_id, { orderId: row.order_id, reference: row.reference }]));
}

/** How many airline changes, of every order, await an agency's action. */
export async function countPendingChanges(db: Executor): Promise<number> {
  const [row] = await runSql<{ pending: number | string }>(db, "select count(*) as pending from airline_changes where status = 'PENDING'", []);
  return Number(row?.pending ?? 0);
}

/** Several bookings of any orders at once, with their airline changes (refunds left out). */
export async function loadBookings(db: Executor, keys: readonly BookingKey[]): Promise<Map<string, Booking>> {
  const found = new Map<string, Booking>();
  if (keys.length === 0) return found;
  const pairs = `(order_id, reference) in (values ${keys.map(() => '(?, ?)').join(', ')})`;
  const parameters = keys.flatMap((key) => [key.orderId, key.reference]);
  const [bookings, changes] = await Promise.all([
    runSql<BookingsTable>(db, `select * from bookings where ${pairs}`, parameters),
    runSql<AirlineChangesTable>(db, `select * from airline_changes where ${pairs} order by detected_at, change_id`, parameters),
  ]);
  const changesByBooking = groupBy(changes, (row) => bookingKey({ orderId: row.order_id, reference: row.reference }));
  for (const row of bookings) {
    const key = bookingKey({ orderId: row.order_id, reference: row.reference });
    found.set(key, bookingFromRow(row, (changesByBooking.get(key) ?? []).map(changeFromRow), []));
  }
  return found;
}

/** Inserts airline changes; the caller has made sure their ids are new. */
export async function insertChanges(db: Executor, changes: readonly (BookingKey & { change: AirlineChange })[], now: string): Promise<void> {
  await insertRows(db, 'airline_changes',
    ['change_id', 'order_id', 'reference', 'kind', 'detected_at', 'removed_segments', 'added_segments', 'status', 'created_at', 'resolved_at',
      'action_deadline', 'consequence'],
    changes.map(({ orderId, reference, change }) => [change.changeId, orderId, reference, change.kind, change.detectedAt,
      JSON.stringify(change.removedSegments), JSON.stringify(change.addedSegments), change.status, now, null,
      change.actionDeadline, change.consequenceOfInaction]));
}

export interface OrderToStore extends OrderRow {
  /** In the order's own order of bookings. */
  bookings: BookingToStore[];
}

/**
 * Inserts orders with their bookings, in as few statements as the store allows. An order that
 * replaces one goes on from the version it replaces (`versions`), so that a change decided on the
 * replaced order is refused rather than applied to its successor.
 */
export async function insertOrders(db: Executor, orders: readonly OrderToStore[], now: string, versions: ReadonlyMap<string, number> = new Map()): Promise<void> {
  if (orders.length === 0) return;
  await insertRows(db, 'orders', ['order_id', 'agency_id', 'currency', 'created_at', 'updated_at', 'version'],
    orders.map((order) => [order.orderId, order.agencyId, order.currency, now, now, (versions.get(order.orderId) ?? -1) + 1]));
  const rows: unknown[][] = [];
  for (const order of orders) {
    order.bookings.forEach((booking, position) => rows.push([order.orderId, booking.reference, position, booking.status,
      booking.cancellation, booking.segmentsJson, booking.passengersJson]));
  }
  await insertRows(db, 'bookings', ['order_id', 'reference', 'position', 'status', 'cancellation', 'segments', 'passengers'], rows);
}

/** What an operation changed on one booking, as statements: its row, its changes' statuses, new refunds. */
export function bookingWrites(order: OrderRow, before: Booking, after: Booking, now: string): Statement[] {
  // The rules hand back the very same arrays for what they leave alone (a cancel keeps the
  // itinerary and the tickets): those columns are not written out again.
  const columns = ['status = ?', 'cancellation = ?'];
  const values: unknown[] = [after.status, after.cancellation];
  if (after.segments !== before.segments) {
    columns.push('segments = ?');
    values.push(JSON.stringify(after.segments));
  }
  if (after.passengers !== before.passengers) {
    columns.push('passengers = ?');
    values.push(JSON.stringify(after.passengers));
  }
  const statements: Statement[] = [{
    text: `update bookings set ${columns.join(', ')} where order_id = ? and reference = ?`,
    parameters: [...values, order.orderId, after.reference],
  }];
  const previousStatus = new Map(before.changes.map((change) => [change.changeId, change.status]));
  for (const change of after.changes) {
    if (previousStatus.get(change.changeId) === change.status) continue;
    statements.push({ text: 'update airline_changes set status = ?, resolved_at = ? where change_id = ?', parameters: [change.status, now, change.changeId] });
  }
  const newRefunds = after.refunds.slice(before.refunds.length);
  if (newRefunds.length > 0) {
    statements.push({
      text: `insert into refunds (order_id, reference, ticket_number, position, amount_minor, currency, quote_type, created_at) values ${
        newRefunds.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      parameters: newRefunds.flatMap((refund, index) => [order.orderId, after.reference, refund.ticketNumber, before.refunds.length + index,
        refund.amount, order.currency, refund.quoteType, refund.createdAt]),
    });
  }
  return statements;
}

/**
 * Marks the order as changed at `now`, with a new version (once per transaction: one statement may
 * not update a row twice). Whatever changes an order's bookings, changes or refunds moves its
 * version on: a change decided on an older version is then refused (docs/decisions.md, "Optimistic
 * writes on PostgreSQL").
 */
export function touchOrder(orderId: string, now: string): Statement {
  return { text: 'update orders set updated_at = ?, version = version + 1 where order_id = ?', parameters: [now, orderId] };
}

/** Moves the versions of orders on, after their bookings changed outside an operation (an import of changes). */
export async function touchOrders(db: Executor, orderIds: readonly string[], now: string): Promise<void> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return;
  await runSql(db, `update orders set updated_at = ?, version = version + 1 where order_id in (${placeholders(ids.length)})`, [now, ...ids]);
}
