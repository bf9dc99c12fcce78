import type { AirlineChange, Booking, BookingStatus, Cancellation, ChangeKind, ChangeStatus, Order, QuoteType, Refund } from '../../domain/order.js';
import type { Executor } from '../store.js';
import type { AirlineChangesTable, BookingsTable, RefundsTable } from '../tables.js';

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
 * Loads an order with its bookings, airline changes and refunds. With `agencyId`, an order of
 * another agency is answered exactly like a missing one.
 */
export async function loadOrder(db: Executor, orderId: string, agencyId?: string): Promise<Order | null> {
  let query = db.selectFrom('orders').selectAll().where('order_id', '=', orderId);
  if (agencyId !== undefined) query = query.where('agency_id', '=', agencyId);
  const order = await query.executeTakeFirst();
  if (!order) return null;
  const [bookings, changes, refunds] = await Promise.all([
    db.selectFrom('bookings').selectAll().where('order_id', '=', orderId).orderBy('position').execute(),
    db.selectFrom('airline_changes').selectAll().where('order_id', '=', orderId).orderBy('detected_at').orderBy('change_id').execute(),
    db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('position').execute(),
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

export async function orderExists(db: Executor, orderId: string): Promise<boolean> {
  const row = await db.selectFrom('orders').select('order_id').where('order_id', '=', orderId).executeTakeFirst();
  return row !== undefined;
}

/** Deletes an order and, through the foreign keys, its bookings, changes and refunds. */
export async function deleteOrder(db: Executor, orderId: string): Promise<void> {
  await db.deleteFrom('orders').where('order_id', '=', orderId).execute();
}

export async function insertOrder(db: Executor, order: Order, now: string): Promise<void> {
  await db.insertInto('orders').values({
    order_id: order.orderId,
    agency_id: order.agencyId,
    currency: order.currency,
    created_at: now,
    updated_at: now,
  }).execute();
  await db.insertInto('bookings').values(order.bookings.map((booking, position) => ({
    order_id: order.orderId,
    reference: booking.reference,
    position,
    status: booking.status,
    cancellation: booking.cancellation,
    segments: JSON.stringify(booking.segments),
    passengers: JSON.stringify(booking.passengers),
  }))).execute();
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
  await db.updateTable('bookings').set({
    status: after.status,
    cancellation: after.cancellation,
    segments: JSON.stringify(after.segments),
    passengers: JSON.stringify(after.passengers),
  }).where('order_id', '=', order.orderId).where('reference', '=', after.reference).execute();

  const previousStatus = new Map(before.changes.map((change) => [change.changeId, change.status]));
  for (const change of after.changes) {
    if (previousStatus.get(change.changeId) === change.status) continue;
    await db.updateTable('airline_changes').set({ status: change.status, resolved_at: now })
      .where('change_id', '=', change.changeId).execute();
  }

  const newRefunds = after.refunds.slice(before.refunds.length);
  if (newRefunds.length > 0) {
    await db.insertInto('refunds').values(newRefunds.map((refund, index) => ({
      order_id: order.orderId,
      reference: after.reference,
      ticket_number: refund.ticketNumber,
      position: before.refunds.length + index,
      amount_minor: refund.amount,
      currency: order.currency,
      quote_type: refund.quoteType,
      created_at: refund.createdAt,
    }))).execute();
  }
  await db.updateTable('orders').set({ updated_at: now }).where('order_id', '=', order.orderId).execute();
}
