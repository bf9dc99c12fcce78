import { sql } from 'kysely';
import type { Booking } from '../../domain/order.js';
import type { EngineSql } from '../engine-sql.js';
import { placeholders, runSql } from '../raw-sql.js';
import type { Statement } from '../statement.js';
import { bookingFromRow, changeFromRow, refundFromRow } from '../repositories/orders-repository.js';
import type { Executor } from '../executor.js';
import type { AirlineChangesTable, BookingsTable, RefundsTable } from '../tables.js';

const numberedTexts = new Map<string, string>();

/** `?` placeholders become `$1, $2, …`; the text is otherwise the same on both stores. */
export function numbered(text: string): string {
  let converted = numberedTexts.get(text);
  if (converted === undefined) {
    let index = 0;
    converted = text.replace(/\?/g, () => `$${++index}`);
    numberedTexts.set(text, converted);
  }
  return converted;
}

/** A booking `b`'s airline changes, in detection order, as one JSON array (null when none). */
export const CHANGES_OF_BOOKING_JSON = '(select json_agg(c order by c.detected_at, c.change_id) from airline_changes c where c.order_id = b.order_id and c.reference = b.reference)';
/** A booking `b`'s refunds, in the order they were made, as one JSON array (null when none). */
export const REFUNDS_OF_BOOKING_JSON = '(select json_agg(r order by r.position) from refunds r where r.order_id = b.order_id and r.reference = b.reference)';

type BookingWithChildren = BookingsTable & { changes_json: AirlineChangesTable[] | null; refunds_json: RefundsTable[] | null };

/** The children are gathered in the same query: one round trip. */
async function loadOrderBookings(db: Executor, orderId: string, references?: readonly string[]): Promise<Booking[]> {
  const only = references ? ` and b.reference in (${placeholders(references.length)})` : '';
  const rows = await runSql<BookingWithChildren>(db, `select b.*, ${CHANGES_OF_BOOKING_JSON} as changes_json, ${REFUNDS_OF_BOOKING_JSON} as refunds_json
      from bookings b where b.order_id = ?${only} order by b.position`, [orderId, ...(references ?? [])]);
  return rows.map((row) => bookingFromRow(row, (row.changes_json ?? []).map(changeFromRow), (row.refunds_json ?? []).map(refundFromRow)));
}

/** Each statement in a WITH clause of one statement: a request's writes cost one round trip. */
function together(statements: readonly Statement[]): readonly Statement[] {
  return [{
    text: `with ${statements.map((statement, index) => `w${index} as (${statement.text})`).join(', ')} select 1`,
    parameters: statements.flatMap((statement) => statement.parameters),
  }];
}

/**
 * PostgreSQL: transactions run side by side, so rows are locked (FOR UPDATE) where a transaction
 * must not be overtaken, and the event feed waits for older transactions (events-repository.ts).
 */
export const postgresSql: EngineSql = {
  text: numbered,
  together,
  lockRows: ' for update',
  claimRows: ' for update skip locked',
  settledEvents: ' and tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint',
  loadOrderBookings,
  schema: {
    eventPosition: sql`bigint generated always as identity`,
    eventTransaction: sql`(pg_current_xact_id()::text::bigint)`,
    orderVersion: 'bigint',
    async roomForUpdates(db, table, percent) {
      // A heap-only update (HOT) needs room on the row's own page, and touches no index.
      await sql.raw(percent === null ? `alter table ${table} reset (fillfactor)` : `alter table ${table} set (fillfactor = ${100 - percent})`).execute(db);
    },
    async createRefusal(db) {
      // Lets one statement refuse to be stored with an error of its choosing (order-change.ts).
      await sql`create function airorder_refuse(reason text, code text) returns integer language plpgsql as $$
        begin
          raise exception '%', reason using errcode = code;
        end $$`.execute(db);
    },
    async dropRefusal(db) {
      await sql`drop function airorder_refuse(text, text)`.execute(db);
    },
    async createAuthTriggers(db, tables) {
      // Also notifies the `airorder_auth` channel, which serving processes listen to.
      await sql`create function airorder_auth_changed() returns trigger language plpgsql as $$
        begin
          update auth_state set version = version + 1 where id = 1;
          perform pg_notify('airorder_auth', '');
          return null;
        end $$`.execute(db);
      for (const table of tables) {
        await sql.raw(`create trigger ${table}_auth_changed after insert or update or delete or truncate on ${table}
          for each statement execute function airorder_auth_changed()`).execute(db);
      }
    },
    async dropAuthTriggers(db, tables) {
      for (const table of tables) await sql.raw(`drop trigger ${table}_auth_changed on ${table}`).execute(db);
      await sql`drop function airorder_auth_changed()`.execute(db);
    },
  },
};
