/**
 * Bookings that voluntary and involuntary cancels race on, and checks of what the store holds
 * afterwards. Shared by the tests that drive real `airorder serve` processes: several processes on
 * one database, and a database outage.
 */
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import type { Passenger } from '../../src/domain/order.js';
import { openStore } from '../../src/store/open-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { change, familyBooking, order } from './documents.js';
import { TEST_DATABASE_ENV } from './test-database.js';

export interface RaceBooking {
  orderId: string;
  reference: string;
  /** [flown first coupon: PARTIAL refund of 75.05, unflown: FULL refund of 150.10] */
  tickets: [string, string];
}

export interface RaceFixture {
  orders: object[];
  changes: object[];
  bookings: RaceBooking[];
}

/**
 * `orderCount` EUR orders of two bookings each. Every booking has a partly flown ticket, an unflown
 * one, an unticketed infant, and a pending flight cancellation of its second segment.
 * `prefix` is two letters, `ticketDigit` keeps ticket numbers apart between fixtures.
 */
export function raceFixture(prefix: string, agencyId: string, orderCount: number, ticketDigit: number): RaceFixture {
  const fixture: RaceFixture = { orders: [], changes: [], bookings: [] };
  for (let o = 0; o < orderCount; o += 1) {
    const orderId = `${prefix}-${o}`;
    const bookings = [0, 1].map((b) => {
      const n = o * 2 + b;
      const reference = `${prefix}${String(n).padStart(4, '0')}`;
      const tickets: [string, string] = [
        `22${ticketDigit}${String(n * 2).padStart(10, '0')}`,
        `22${ticketDigit}${String(n * 2 + 1).padStart(10, '0')}`,
      ];
      fixture.bookings.push({ orderId, reference, tickets });
      fixture.changes.push(change(`AIC-${reference}`, orderId, reference, ['S2'], [], 'FLIGHT_CANCELLATION'));
      return familyBooking(reference, [tickets[0]!, tickets[1]!]);
    });
    fixture.orders.push(order(orderId, agencyId, 'EUR', bookings));
  }
  return fixture;
}

/** The AirOrderInvoluntaryCancel item of a booking that this operation cancelled. */
export function refundItem(target: RaceBooking) {
  const [flown, unflown] = target.tickets;
  return {
    OrderID: target.orderId,
    GdsBookingReference: [target.reference],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: 225.15,
    RefundText: `TicketNumber:${flown} QuoteType:PARTIAL RefundAmount:75.05 TicketNumber:${unflown} QuoteType:FULL RefundAmount:150.10`,
    RefundPaxWiseFare: [
      { TicketNumber: flown, Amount: 75.05 },
      { TicketNumber: unflown, Amount: 150.1 },
    ],
  };
}

/** The AirOrderCancel item of a cancelled booking. */
export function cancelItem(target: RaceBooking) {
  return {
    Status: 'SUCCESS',
    Msg: '',
    BookingStatus: 'CANCELED',
    OrderID: target.orderId,
    GdsBookingReference: target.reference,
  };
}

/** Opens the store at a DATABASE_URL (SQLite or PostgreSQL) to read what it holds. */
export function openStoreAt(databaseUrl: string): SqlStore {
  return openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: databaseUrl }));
}

export interface StoredBooking {
  status: string;
  cancellation: string | null;
  /** Status of each airline change of the booking, by change id. */
  changes: Record<string, string>;
  refunds: { ticketNumber: string; amountMinor: number; quoteType: string }[];
  /** Coupon statuses per ticketed passenger, in passenger order. */
  coupons: string[][];
}

export async function storedBooking(store: SqlStore, target: RaceBooking): Promise<StoredBooking> {
  const row = await store.db
    .selectFrom('bookings')
    .selectAll()
    .where('order_id', '=', target.orderId)
    .where('reference', '=', target.reference)
    .executeTakeFirstOrThrow();
  const changes = await store.db
    .selectFrom('airline_changes')
    .select(['change_id', 'status'])
    .where('order_id', '=', target.orderId)
    .where('reference', '=', target.reference)
    .execute();
  const refunds = await store.db
    .selectFrom('refunds')
    .select(['ticket_number', 'amount_minor', 'quote_type'])
    .where('order_id', '=', target.orderId)
    .where('reference', '=', target.reference)
    .orderBy('position')
    .execute();
  const passengers = JSON.parse(row.passengers) as Passenger[];
  return {
    status: row.status,
    cancellation: row.cancellation,
    changes: Object.fromEntries(changes.map((change) => [change.change_id, change.status])),
    refunds: refunds.map((refund) => ({
      ticketNumber: refund.ticket_number,
      amountMinor: Number(refund.amount_minor),
      quoteType: refund.quote_type,
    })),
    coupons: passengers.flatMap((p) => (p.ticket ? [p.ticket.coupons.map((coupon) => coupon.status)] : [])),
  };
}

/** Ticket numbers with more than one refund row, anywhere in the store. */
export async function ticketsRefundedTwice(store: SqlStore): Promise<string[]> {
  const rows = await store.db
    .selectFrom('refunds')
    .select(['ticket_number', (eb) => eb.fn.countAll().as('rows')])
    .groupBy('ticket_number')
    .execute();
  return rows.filter((row) => Number(row.rows) !== 1).map((row) => row.ticket_number);
}

/** How many refund rows the orders of `bookings` hold, every ticket of theirs together. */
export async function refundRowCount(store: SqlStore, bookings: readonly RaceBooking[]): Promise<number> {
  const rows = await store.db
    .selectFrom('refunds')
    .select('ticket_number')
    .where(
      'order_id',
      'in',
      bookings.map((target) => target.orderId),
    )
    .execute();
  return rows.length;
}

/** The store holds the booking as cancelled by AirOrderInvoluntaryCancel: one refund per ticket. */
export function assertInvoluntarilyCancelled(stored: StoredBooking, target: RaceBooking): void {
  const where = `${target.orderId}/${target.reference}`;
  assert.equal(stored.status, 'CANCELED', where);
  assert.equal(stored.cancellation, 'INVOLUNTARY', where);
  assert.deepEqual(stored.changes, { [`AIC-${target.reference}`]: 'CANCELED' }, where);
  assert.deepEqual(
    stored.refunds,
    [
      { ticketNumber: target.tickets[0], amountMinor: 7505, quoteType: 'PARTIAL' },
      { ticketNumber: target.tickets[1], amountMinor: 15010, quoteType: 'FULL' },
    ],
    `${where}: exactly one refund row per ticket`,
  );
  assert.deepEqual(
    stored.coupons,
    [
      ['USED', 'REFUNDED'],
      ['REFUNDED', 'REFUNDED'],
    ],
    where,
  );
}

/** The store holds the booking as cancelled by AirOrderCancel: nothing refunded. */
export function assertVoluntarilyCancelled(stored: StoredBooking, target: RaceBooking): void {
  const where = `${target.orderId}/${target.reference}`;
  assert.equal(stored.status, 'CANCELED', where);
  assert.equal(stored.cancellation, 'VOLUNTARY', where);
  assert.deepEqual(stored.changes, { [`AIC-${target.reference}`]: 'CLOSED' }, where);
  assert.deepEqual(stored.refunds, [], `${where}: a voluntary cancel refunds nothing`);
  assert.deepEqual(
    stored.coupons,
    [
      ['USED', 'OPEN'],
      ['OPEN', 'OPEN'],
    ],
    where,
  );
}

export type RaceKind = 'cancel' | 'involuntary';

/**
 * Whichever cancel won a race on one booking, the store and every answer agree with it: each
 * AirOrderCancel answers CANCELED; if the involuntary cancel won, every involuntary answer reports
 * the same refund and the store holds it once per ticket; otherwise every involuntary answer is
 * BOOKING_CANCELED and nothing is refunded.
 */
export function assertRaceOutcome(
  stored: StoredBooking,
  target: RaceBooking,
  answers: { kind: RaceKind; item: any }[],
): void {
  const where = `${target.orderId}/${target.reference}`;
  for (const { item } of answers.filter((answer) => answer.kind === 'cancel'))
    assert.deepEqual(item, cancelItem(target), where);
  const involuntary = answers.filter((answer) => answer.kind === 'involuntary').map((answer) => answer.item);
  if (stored.cancellation === 'INVOLUNTARY') {
    assertInvoluntarilyCancelled(stored, target);
    assert.ok(involuntary.length > 0, `${where}: cancelled involuntarily without an involuntary request`);
    for (const item of involuntary)
      assert.deepEqual(item, refundItem(target), `${where}: every involuntary cancel answers with the same refund`);
  } else {
    assertVoluntarilyCancelled(stored, target);
    assert.ok(answers.length > involuntary.length, `${where}: cancelled voluntarily without a voluntary request`);
    for (const item of involuntary) {
      assert.equal(item.Status, 'FAILED', where);
      assert.match(item.ErrorMsg, /^BOOKING_CANCELED: /, where);
      assert.deepEqual([item.RefundAmount, item.RefundText, item.RefundPaxWiseFare], [0, '', []], where);
    }
  }
}
