import { sql, type Kysely, type Migration } from 'kysely';
import { engineSql } from '../engine-sql.js';

export const eventsWebhooksDeadlines: Migration = {
  async up(db: Kysely<unknown>) {
    // A change's time limit and what the airline does when it passes (docs/webhooks.md, "Deadlines").
    await db.schema.alterTable('airline_changes').addColumn('action_deadline', 'varchar(32)').execute();
    await db.schema
      .alterTable('airline_changes')
      .addColumn('consequence', 'varchar(8)', (c) => c.notNull().defaultTo('ACCEPT'))
      .execute();
    // When airline_change.deadline_approaching was emitted: once per change.
    await db.schema.alterTable('airline_changes').addColumn('warned_at', 'varchar(32)').execute();
    // A change that only removes flights cannot be accepted: its airline's default is to cancel.
    await sql`update airline_changes set consequence = 'CANCEL' where added_segments = '[]'`.execute(db);
    await db.schema
      .createIndex('airline_changes_deadline_idx')
      .on('airline_changes')
      .columns(['status', 'action_deadline'])
      .execute();

    // The outbox: every event is written by the transaction that makes the change it reports.
    // `position` is given in commit order on SQLite (one writer at a time; the rowid, always above
    // every row there is). On PostgreSQL several transactions insert at once, so the feed orders by the
    // writing transaction's id (`tx`) first and shows only events of transactions older than every
    // one still running (events-repository.ts). No index on the time: ids sort by it (sortable-id.ts).
    const { schema } = engineSql(db);
    await db.schema
      .createTable('events')
      .addColumn('position', schema.eventPosition, (c) => c.primaryKey())
      .addColumn('event_id', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('tx', 'bigint', (c) => c.notNull().defaultTo(schema.eventTransaction))
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('type', 'varchar(64)', (c) => c.notNull())
      .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('events_agency_feed_idx')
      .on('events')
      .columns(['agency_id', 'tx', 'position'])
      .execute();

    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('endpoint_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull().references('agencies.agency_id'))
      .addColumn('url', 'varchar(2048)', (c) => c.notNull())
      // `*`, or event types separated by commas
      .addColumn('events', 'varchar(1024)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('status_reason', 'varchar(200)')
      .addColumn('secret', 'varchar(64)', (c) => c.notNull())
      .addColumn('previous_secret', 'varchar(64)')
      .addColumn('previous_secret_until', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_endpoints_agency_idx').on('webhook_endpoints').column('agency_id').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('event_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('endpoint_id', 'varchar(40)', (c) =>
        c.notNull().references('webhook_endpoints.endpoint_id').onDelete('cascade'),
      )
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull())
      // PENDING, DELIVERED or FAILED
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('lease_owner', 'varchar(40)')
      .addColumn('lease_until', 'varchar(32)')
      .addColumn('last_attempt_at', 'varchar(32)')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'varchar(300)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(32)')
      .addPrimaryKeyConstraint('webhook_deliveries_pk', ['event_id', 'endpoint_id'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_due_idx')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_endpoint_idx')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'status'])
      .execute();

    // Background work that one process at a time does (applying due deadlines): who holds it, until when.
    await db.schema
      .createTable('background_leases')
      .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('holder', 'varchar(40)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['background_leases', 'webhook_deliveries', 'webhook_endpoints', 'events']) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex('airline_changes_deadline_idx').execute();
    for (const column of ['warned_at', 'consequence', 'action_deadline']) {
      await db.schema.alterTable('airline_changes').dropColumn(column).execute();
    }
  },
};
