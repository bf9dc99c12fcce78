import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const AUTH_TABLES = ['access_tokens', 'agencies'] as const;
const SQLITE_EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * - `orders.version`: moved on by every change of an order's bookings, changes or refunds, so that
 *   a change decided on what was read can be stored only if nothing changed meanwhile (optimistic
 *   writes: docs/decisions.md).
 * - `auth_state`: one row whose version triggers move on whenever an access token or an agency
 *   changes, in any process, so that cached token lookups are dropped without anybody having to
 *   remember to say so. On PostgreSQL the triggers also notify the `airorder_auth` channel, which
 *   serving processes listen to.
 */
export const orderVersionsAndAuthState: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = onPostgres(db);
    await db.schema.alterTable('orders').addColumn('version', postgres ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createTable('auth_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into auth_state (id, version) values (1, 0)`.execute(db);
    if (postgres) {
      // Lets one statement refuse to be stored with an error of its choosing (postgres/order-change.ts).
      await sql`create function airorder_refuse(reason text, code text) returns integer language plpgsql as $$
        begin
          raise exception '%', reason using errcode = code;
        end $$`.execute(db);
      await sql`create function airorder_auth_changed() returns trigger language plpgsql as $$
        begin
          update auth_state set version = version + 1 where id = 1;
          perform pg_notify('airorder_auth', '');
          return null;
        end $$`.execute(db);
      for (const table of AUTH_TABLES) {
        await sql.raw(`create trigger ${table}_auth_changed after insert or update or delete or truncate on ${table}
          for each statement execute function airorder_auth_changed()`).execute(db);
      }
      return;
    }
    for (const table of AUTH_TABLES) {
      for (const event of SQLITE_EVENTS) {
        await sql.raw(`create trigger ${table}_auth_changed_${event} after ${event} on ${table}
          begin update auth_state set version = version + 1 where id = 1; end`).execute(db);
      }
    }
  },

  async down(db: Kysely<unknown>) {
    if (onPostgres(db)) {
      for (const table of AUTH_TABLES) await sql.raw(`drop trigger ${table}_auth_changed on ${table}`).execute(db);
      await sql`drop function airorder_auth_changed()`.execute(db);
      await sql`drop function airorder_refuse(text, text)`.execute(db);
    } else {
      for (const table of AUTH_TABLES) {
        for (const event of SQLITE_EVENTS) await sql.raw(`drop trigger ${table}_auth_changed_${event}`).execute(db);
      }
    }
    await db.schema.dropTable('auth_state').execute();
    await db.schema.alterTable('orders').dropColumn('version').execute();
  },
};
