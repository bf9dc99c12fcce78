/** Reads what the store holds about one booking, for SQL state checks in integration tests. */
import type { Coupon, Passenger, Segment } from '../../src/domain/order.js';
import type { TestService } from './test-service.js';

export interface BookingState {
  status: string;
  cancellation: string | null;
  segments: Segment[];
  passengers: Passenger[];
}

export async function bookingState(service: TestService, orderId: string, reference: string): Promise<BookingState> {
  const row = await service.store.db
    .selectFrom('bookings')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('reference', '=', reference)
    .executeTakeFirstOrThrow();
  return {
    status: row.status,
    cancellation: row.cancellation,
    segments: JSON.parse(row.segments),
    passengers: JSON.parse(row.passengers),
  };
}

/** [segmentId, status, value in minor units] per coupon of each passenger's ticket, in passenger order. */
export function couponsOf(state: BookingState): [string, string, number][][] {
  return state.passengers.map((passenger) =>
    (passenger.ticket?.coupons ?? []).map((c: Coupon) => [c.segmentId, c.status, c.value]),
  );
}

export async function changeStatuses(
  service: TestService,
  orderId: string,
  reference: string,
): Promise<Record<string, string>> {
  const rows = await service.store.db
    .selectFrom('airline_changes')
    .select(['change_id', 'status'])
    .where('order_id', '=', orderId)
    .where('reference', '=', reference)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.change_id, row.status]));
}

export async function refundRows(service: TestService, orderId: string, reference?: string) {
  let query = service.store.db
    .selectFrom('refunds')
    .select(['reference', 'ticket_number', 'position', 'amount_minor', 'currency', 'quote_type'])
    .where('order_id', '=', orderId);
  if (reference !== undefined) query = query.where('reference', '=', reference);
  const rows = await query.orderBy('reference').orderBy('position').execute();
  return rows.map((row) => ({ ...row, amount_minor: Number(row.amount_minor) }));
}

/** Every row of the order's bookings, changes and refunds: equal snapshots mean nothing changed. */
export async function orderSnapshot(service: TestService, orderId: string) {
  const db = service.store.db;
  return {
    order: await db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow(),
    bookings: await db
      .selectFrom('bookings')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('reference')
      .execute(),
    changes: await db
      .selectFrom('airline_changes')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('change_id')
      .execute(),
    refunds: await db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('reference')
      .orderBy('position')
      .execute(),
  };
}
