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

export interface BookingKey { orderId: string; reference: string }

export function bookingKey(key: BookingKey): string {
  return `${key.orderId}\u0000${key.reference}`;
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
    ['change_id', 'order_id', 'reference', 'kind', 'detected_at', 'removed_segments', 'added_segments', 'status', 'created_at', 'resolved_at'],
    changes.map(({ orderId, reference, change }) => [change.changeId, orderId, reference, change.kind, change.detectedAt,
      JSON.stringify(change.removedSegments), JSON.stringify(change.addedSegments), change.status, now, null]));
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
