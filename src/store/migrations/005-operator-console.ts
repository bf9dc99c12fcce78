import type { Kysely, Migration } from 'kysely';

/** The operator's console: who may sign in, their sessions, failed sign-ins, and what they did (docs/console.md). */
export const operatorConsole: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operators')
      .addColumn('email', 'varchar(254)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      // scrypt$N$r$p$salt$hash: never the password itself
      .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
      .addColumn('disabled_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    // Only the SHA-256 of a session id is stored: a copy of the database opens no session.
    await db.schema
      .createTable('operator_sessions')
      .addColumn('session_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('email', 'varchar(254)', (c) => c.notNull().references('operators.email').onDelete('cascade'))
      .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('operator_sessions_email_idx').on('operator_sessions').column('email').execute();

    // Wrong passwords, per email and per address (`email:…`, `address:…`), counted over a window.
    await db.schema
      .createTable('operator_login_failures')
      .addColumn('failure_key', 'varchar(300)', (c) => c.notNull())
      .addColumn('failed_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('operator_login_failures_key_idx')
      .on('operator_login_failures')
      .columns(['failure_key', 'failed_at'])
      .execute();

    // Everything an operator did in the console, orders or not (an order's changes are in audit_events too).
    await db.schema
      .createTable('operator_actions')
      .addColumn('action_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('email', 'varchar(254)', (c) => c.notNull())
      .addColumn('action', 'varchar(64)', (c) => c.notNull())
      .addColumn('target', 'varchar(300)', (c) => c.notNull())
      .addColumn('reason', 'varchar(500)')
      .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    // An operator acting for an agency: who, and why.
    await db.schema.alterTable('audit_events').addColumn('operator_email', 'varchar(254)').execute();
    await db.schema.alterTable('audit_events').addColumn('reason', 'varchar(500)').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const column of ['reason', 'operator_email']) {
      await db.schema.alterTable('audit_events').dropColumn(column).execute();
    }
    for (const table of ['operator_actions', 'operator_login_failures', 'operator_sessions', 'operators']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
