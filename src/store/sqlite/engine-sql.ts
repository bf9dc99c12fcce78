import { sql } from 'kysely';
import type { Booking } from '../../domain/order.js';
import type { EngineSql } from '../engine-sql.js';
import { placeholders, runSql } from '../raw-sql.js';
import { bookingFromRow, changeFromRow, groupBy, refundFromRow } from '../repositories/orders-repository.js';
import type { Executor } from '../executor.js';
import type { AirlineChangesTable, BookingsTable, RefundsTable } from '../tables.js';

const AUTH_TRIGGER_EVENTS = ['insert', 'update', 'delete'] as const;

/** In process, a query costs no round trip: the three tables are read in turn. */
export async function sqliteOrderBookings(db: Executor, orderId: string, references?: readonly string[]): Promise<Booking[]> {
  const only = references ? ` and reference in (${placeholders(references.length)})` : '';
  const parameters = [orderId, ...(references ?? [])];
  const bookings = await runSql<BookingsTable>(db, `select * from bookings where order_id = ?${only} order by position`, parameters);
  const changes = await runSql<AirlineChangesTable>(db, `select * from airline_changes where order_id = ?${only} order by detected_at, change_id`, parameters);
  const refunds = await runSql<RefundsTable>(db, `select * from refunds where order_id = ?${only} order by position`, parameters);
  const changesByBooking = groupBy(changes, (row) => row.reference);
  const refundsByBooking = groupBy(refunds, (row) => row.reference);
  return bookings.map((row) => bookingFromRow(row,
    (changesByBooking.get(row.reference) ?? []).map(changeFromRow),
    (refundsByBooking.get(row.reference) ?? []).map(refundFromRow)));
}

/**
 * SQLite: one writer at a time, in process. Write transactions run one after the other, so rows
 * need no locks and events are positioned in commit order; statements run in turn at no round-trip cost.
 */
export const sqliteSql: EngineSql = {
  text: (portable) => portable,
  together: (statements) => statements,
  lockRows: '',
  claimRows: '',
  settledEvents: '',
  loadOrderBookings: sqliteOrderBookings,
  schema: {
    // The rowid: always above every row there is, so given in commit order.
    eventPosition: 'integer',
    eventTransaction: 0,
    orderVersion: 'integer',
    // SQLite fills its pages as it likes; an update rewrites the row in its page when it fits.
    async roomForUpdates() {},
    async createRefusal() {},
    async dropRefusal() {},
    async createAuthTriggers(db, tables) {
      for (const table of tables) {
        for (const event of AUTH_TRIGGER_EVENTS) {
          await sql.raw(`create trigger ${table}_auth_changed_${event} after ${event} on ${table}
          begin update auth_state set version = version + 1 where id = 1; end`).execute(db);
        }
      }
    },
    async dropAuthTriggers(db, tables) {
      for (const table of tables) {
        for (const event of AUTH_TRIGGER_EVENTS) await sql.raw(`drop trigger ${table}_auth_changed_${event}`).execute(db);
      }
    },
  },
};
