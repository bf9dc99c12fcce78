import { sql, type Kysely, type Migration } from 'kysely';
import { engineSql } from '../engine-sql.js';

const AUTH_TABLES = ['access_tokens', 'agencies'] as const;

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
    const { schema } = engineSql(db);
    await db.schema
      .alterTable('orders')
      .addColumn('version', schema.orderVersion, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('auth_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into auth_state (id, version) values (1, 0)`.execute(db);
    await schema.createRefusal(db);
    await schema.createAuthTriggers(db, AUTH_TABLES);
  },

  async down(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    await schema.dropAuthTriggers(db, AUTH_TABLES);
    await schema.dropRefusal(db);
    await db.schema.dropTable('auth_state').execute();
    await db.schema.alterTable('orders').dropColumn('version').execute();
  },
};
