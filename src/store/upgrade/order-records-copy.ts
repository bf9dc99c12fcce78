import type {
  AirlineChange,
  Booking,
  BookingStatus,
  Cancellation,
  ChangeKind,
  ChangeStatus,
  Consequence,
  QuoteType,
  Refund,
} from '../../domain/order.js';
import { engineSql } from '../engine-sql.js';
import type { Executor } from '../executor.js';
import type { OrderRecord, StoredBooking, StoredChange } from '../order-record.js';
import { placeholders, runSql } from '../raw-sql.js';

// The tables orders were kept in before migration 011 (one row per order, booking, change and
// refund), read once to write each order as one record. Nothing else reads them.

interface FormerOrder {
  order_id: string;
  agency_id: string;
  currency: string;
  created_at: string;
  updated_at: string;
  version: number | string;
}
interface FormerBooking {
  order_id: string;
  reference: string;
  status: string;
  cancellation: string | null;
  segments: string;
  passengers: string;
}
interface FormerChange {
  change_id: string;
  order_id: string;
  reference: string;
  kind: string;
  detected_at: string;
  removed_segments: string;
  added_segments: string;
  status: string;
  created_at: string;
  resolved_at: string | null;
  action_deadline: string | null;
  consequence: string;
}
interface FormerRefund {
  order_id: string;
  reference: string;
  ticket_number: string;
  amount_minor: number | string;
  quote_type: string;
  created_at: string;
}

function changeOf(row: FormerChange): StoredChange {
  const change: AirlineChange = {
    changeId: row.change_id,
    kind: row.kind as ChangeKind,
    detectedAt: row.detected_at,
    removedSegments: JSON.parse(row.removed_segments),
    addedSegments: JSON.parse(row.added_segments),
    status: row.status as ChangeStatus,
    actionDeadline: row.action_deadline,
    consequenceOfInaction: row.consequence as Consequence,
  };
  return { ...change, createdAt: row.created_at, resolvedAt: row.resolved_at };
}

function refundOf(row: FormerRefund): Refund {
  return {
    ticketNumber: row.ticket_number,
    amount: Number(row.amount_minor),
    quoteType: row.quote_type as QuoteType,
    createdAt: row.created_at,
  };
}

function byKey<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** The next `limit` orders after `after` (by id) of the former tables, each as its record. */
async function formerOrders(
  db: Executor,
  after: string,
  limit: number,
): Promise<{ order: FormerOrder; record: OrderRecord }[]> {
  const orders = await runSql<FormerOrder>(db, 'select * from orders where order_id > ? order by order_id limit ?', [
    after,
    limit,
  ]);
  if (orders.length === 0) return [];
  const ids = orders.map((order) => order.order_id);
  const within = `order_id in (${placeholders(ids.length)})`;
  const bookings = await runSql<FormerBooking>(
    db,
    `select * from bookings where ${within} order by order_id, position`,
    ids,
  );
  const changes = await runSql<FormerChange>(
    db,
    `select * from airline_changes where ${within} order by order_id, detected_at, change_id`,
    ids,
  );
  const refunds = await runSql<FormerRefund>(
    db,
    `select * from refunds where ${within} order by order_id, position`,
    ids,
  );
  const key = (row: { order_id: string; reference: string }) => `${row.order_id}\u0000${row.reference}`;
  const bookingsOf = byKey(bookings, (row) => row.order_id);
  const changesOf = byKey(changes, key);
  const refundsOf = byKey(refunds, key);
  return orders.map((order) => {
    const stored: StoredBooking[] = (bookingsOf.get(order.order_id) ?? []).map((row) => {
      const booking: Omit<Booking, 'changes'> = {
        reference: row.reference,
        status: row.status as BookingStatus,
        cancellation: row.cancellation as Cancellation | null,
        segments: JSON.parse(row.segments),
        passengers: JSON.parse(row.passengers),
        refunds: (refundsOf.get(key(row)) ?? []).map(refundOf),
      };
      return { ...booking, changes: (changesOf.get(key(row)) ?? []).map(changeOf) };
    });
    return {
      order,
      record: { currency: order.currency, createdAt: order.created_at, updatedAt: order.updated_at, bookings: stored },
    };
  });
}

/** How far the copy got: the orders of the former tables, and how many of them have their record. */
export async function copyProgress(db: Executor): Promise<{ copied: number; total: number }> {
  const [total] = await runSql<{ n: number | string }>(db, 'select count(*) as n from orders', []);
  const [copied] = await runSql<{ n: number | string }>(db, 'select count(*) as n from order_records', []);
  return { copied: Number(copied?.n ?? 0), total: Number(total?.n ?? 0) };
}

/**
 * Writes one more batch of orders of the former tables as records, after the last one written (by
 * id: the copy resumes where it stopped, whatever stopped it). Returns how many it wrote; 0 when
 * every order has its record. A crash mid-batch leaves the batch unwritten (it is one statement).
 */
export async function copyOrderBatch(db: Executor, limit: number): Promise<number> {
  const [last] = await runSql<{ last: string | null }>(db, 'select max(order_id) as last from order_records', []);
  const batch = await formerOrders(db, last?.last ?? '', limit);
  if (batch.length === 0) return 0;
  const { recordIn } = engineSql(db);
  await runSql(
    db,
    `insert into order_records (order_id, agency_id, version, record) values ${batch.map(() => `(?, ?, ?, ${recordIn})`).join(', ')}`,
    batch.flatMap(({ order, record }) => [
      order.order_id,
      order.agency_id,
      Number(order.version),
      JSON.stringify(record),
    ]),
  );
  return batch.length;
}
