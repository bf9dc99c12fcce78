import { sql, type Kysely, type Migration } from 'kysely';
import { engineSql } from '../engine-sql.js';

/**
 * The audit trail as a log whose key only grows, one row per change of one order (its entries
 * together), with no index but that key: a request appends to the log's last page, which the
 * requests of a group commit share, instead of also writing a scattered page of an index by order.
 * The order's record lists the keys of its rows (`trail`, order-record.ts): that is how its history
 * is found. The rows written before stay in `audit_events_before_012`, with their index by order,
 * never written again. `audit_events` becomes a view of both, one row per entry, with the columns
 * of before (docs/decisions.md, "The audit trail").
 */
export const auditLog: Migration = {
  async up(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    await db.schema
      .createTable('audit_log')
      .addColumn('entry_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('order_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('actor', 'varchar(16)', (c) => c.notNull())
      .addColumn('agency_id', 'varchar(64)')
      .addColumn('token_id', 'varchar(32)')
      .addColumn('request_id', 'varchar(64)')
      .addColumn('operation', 'varchar(64)', (c) => c.notNull())
      .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('operator_email', 'varchar(254)')
      .addColumn('reason', 'varchar(500)')
      // JSON: [{ eventId, reference, event, detail }], in the order they happened.
      .addColumn('entries', 'text', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('audit_events').renameTo('audit_events_before_012').execute();
    await schema.createAuditView(db);
  },

  async down(db: Kysely<unknown>) {
    // Every entry of the log back as a row of the table of before, which takes its name again.
    await sql`insert into audit_events_before_012 (event_id, order_id, reference, sequence, event, detail, actor, agency_id, token_id, request_id,
        operation, occurred_at, operator_email, reason)
      select event_id, order_id, reference, sequence, event, detail, actor, agency_id, token_id, request_id, operation, occurred_at, operator_email, reason
      from audit_events where event_id not in (select event_id from audit_events_before_012)`.execute(db);
    await db.schema.dropView('audit_events').execute();
    await db.schema.dropTable('audit_log').execute();
    await db.schema.alterTable('audit_events_before_012').renameTo('audit_events').execute();
  },
};
