import type { AirlineChange, Booking, BookingStatus, Cancellation, ChangeKind, ChangeStatus, Order, QuoteType, Refund } from '../../domain/order.js';
import type { Executor } from '../store.js';
import { insertRows, placeholders, runSql } from '../raw-sql.js';
import type { AirlineChangesTable, BookingsTable, OrdersTable, RefundsTable } from '../tables.js';

function bookingFromRow(row: BookingsTable, changes: AirlineChange[], refunds: Refund[]): Booking {
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
  };
}

function refundFromRow(row: RefundsTable): Refund {
  return {
    ticketNumber: row.ticket_number,
    amount: Number(row.amount_minor),
    quoteType: row.quote_type as QuoteType,
    createdAt: row.created_at,
  };
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * Loads an order with its bookings, airline changes and refunds: every booking, or only those named
 * in `references` (what a request acts on). With `agencyId`, an order of another agency is answered
 * exactly like a missing one. Plain SQL text: this runs on every request.
 */
export async function loadOrder(db: Executor, orderId: string, agencyId?: string, references?: readonly string[]): Promise<Order | null> {
  const [order] = agencyId === undefined
    ? await runSql<OrdersTable>(db, 'select * from orders where order_id = ?', [orderId])
    : await runSql<OrdersTable>(db, 'select * from orders where order_id = ? and agency_id = ?', [orderId, agencyId]);
  if (!order) return null;
  const only = references ? ` and reference in (${placeholders(references.length)})` : '';
  const parameters = [orderId, ...(references ?? [])];
  const [bookings, changes, refunds] = await Promise.all([
    runSql<BookingsTable>(db, `select * from bookings where order_id = ?${only} order by position`, parameters),
    runSql<AirlineChangesTable>(db, `select * from airline_changes where order_id = ?${only} order by detected_at, change_id`, parameters),
    runSql<RefundsTable>(db, `select * from refunds where order_id = ?${only} order by position`, parameters),
  ]);
  const changesByBooking = groupBy(changes, (row) => row.reference);
  const refundsByBooking = groupBy(refunds, (row) => row.reference);
  return {
    orderId: order.order_id,
    agencyId: order.agency_id,
    currency: order.currency,
    bookings: bookings.map((row) => bookingFromRow(row,
      (changesByBooking.get(row.reference) ?? []).map(changeFromRow),
      (refundsByBooking.get(row.reference) ?? []).map(refundFromRow))),
  };
}

/** Inserts orders with their bookings, in as few statements as the store allows. */
export async function insertOrders(db: Executor, orders: readonly Order[], now: string): Promise<void> {
  if (orders.length === 0) return;
  await insertRows(db, 'orders', ['order_id', 'agency_id', 'currency', 'created_at', 'updated_at'],
    orders.map((order) => [order.orderId, order.agencyId, order.currency, now, now]));
  await insertRows(db, 'bookings', ['order_id', 'reference', 'position', 'status', 'cancellation', 'segments', 'passengers'],
    orders.flatMap((order) => order.bookings.map((booking, position) => [order.orderId, booking.reference, position, booking.status,
      booking.cancellation, JSON.stringify(booking.segments), JSON.stringify(booking.passengers)])));
}

/** Inserts an airline change; returns false when its id is already stored (airlines resend). */
export async function insertChange(db: Executor, orderId: string, reference: string, change: AirlineChange, now: string): Promise<boolean> {
  const result = await db.insertInto('airline_changes').values({
    change_id: change.changeId,
    order_id: orderId,
    reference,
    kind: change.kind,
    detected_at: change.detectedAt,
    removed_segments: JSON.stringify(change.removedSegments),
    added_segments: JSON.stringify(change.addedSegments),
    status: change.status,
    created_at: now,
    resolved_at: null,
  }).onConflict((conflict) => conflict.column('change_id').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function changeExists(db: Executor, changeId: string): Promise<boolean> {
  const row = await db.selectFrom('airline_changes').select('change_id').where('change_id', '=', changeId).executeTakeFirst();
  return row !== undefined;
}

/** Writes what an operation changed on one booking: its row, its changes' statuses, new refunds. */
export async function saveBooking(db: Executor, order: Order, before: Booking, after: Booking, now: string): Promise<void> {
  await runSql(db, 'update bookings set status = ?, cancellation = ?, segments = ?, passengers = ? where order_id = ? and reference = ?',
    [after.status, after.cancellation, JSON.stringify(after.segments), JSON.stringify(after.passengers), order.orderId, after.reference]);

  const previousStatus = new Map(before.changes.map((change) => [change.changeId, change.status]));
  for (const change of after.changes) {
    if (previousStatus.get(change.changeId) === change.status) continue;
    await runSql(db, 'update airline_changes set status = ?, resolved_at = ? where change_id = ?', [change.status, now, change.changeId]);
  }

  const newRefunds = after.refunds.slice(before.refunds.length);
  if (newRefunds.length > 0) {
    await runSql(db, `insert into refunds (order_id, reference, ticket_number, position, amount_minor, currency, quote_type, created_at) values ${
      newRefunds.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    newRefunds.flatMap((refund, index) => [order.orderId, after.reference, refund.ticketNumber, before.refunds.length + index,
      refund.amount, order.currency, refund.quoteType, refund.createdAt]));
  }
  await runSql(db, 'update orders set updated_at = ? where order_id = ?', [now, order.orderId]);
}
