import { sql } from 'kysely';
import type { EngineSql } from '../engine-sql.js';
import type { Statement } from '../statement.js';
import { createPostgresAuditView, createPostgresEventView, createPostgresRecordViews } from './record-views.js';

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

/** Each statement in a WITH clause of one statement: a request's writes cost one round trip. */
function together(statements: readonly Statement[]): readonly Statement[] {
  return [
    {
      text: `with ${statements.map((statement, index) => `w${index} as (${statement.text})`).join(', ')} select 1`,
      parameters: statements.flatMap((statement) => statement.parameters),
    },
  ];
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
  // JSON text: the same WAL records as jsonb for less room (PostgreSQL compresses it in the row), and
  // Node parses the text either way (docs/benchmarks.md).
  recordIn: '?',
  recordOut: 'record',
  schema: {
    eventPosition: sql`bigint generated always as identity`,
    eventTransaction: sql`(pg_current_xact_id()::text::bigint)`,
    orderVersion: 'bigint',
    async roomForUpdates(db, table, percent) {
      // A heap-only update (HOT) needs room on the row's own page, and touches no index.
      await sql
        .raw(
          percent === null
            ? `alter table ${table} reset (fillfactor)`
            : `alter table ${table} set (fillfactor = ${100 - percent})`,
        )
        .execute(db);
    },
    recordColumn: 'text',
    async relationKind(db, name) {
      const { rows } = await sql<{ kind: string }>`select c.relkind as kind from pg_class c
        where c.relname = ${name} and c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'v', 'p')`.execute(
        db,
      );
      const kind = rows[0]?.kind;
      return kind === undefined ? null : kind === 'v' ? 'view' : 'table';
    },
    createRecordViews: createPostgresRecordViews,
    createAuditView: createPostgresAuditView,
    // Rows are found by their first id (the feed by its own index): a position under no index of its
    // own costs no index entry per row.
    eventLogKey: 'first_id',
    createEventView: createPostgresEventView,
    eventPositionGiven: ' overriding system value',
    async continueEventPositions(db, table) {
      await sql
        .raw(`select setval(pg_get_serial_sequence('${table}', 'position'), max(position)) from ${table}`)
        .execute(db);
    },
    async createRefusal(db) {
      // Lets one statement refuse to be stored with an error of its choosing (order-update.ts).
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
        await sql
          .raw(
            `create trigger ${table}_auth_changed after insert or update or delete or truncate on ${table}
          for each statement execute function airorder_auth_changed()`,
          )
          .execute(db);
      }
    },
    async dropAuthTriggers(db, tables) {
      for (const table of tables) await sql.raw(`drop trigger ${table}_auth_changed on ${table}`).execute(db);
      await sql`drop function airorder_auth_changed()`.execute(db);
    },
  },
};
