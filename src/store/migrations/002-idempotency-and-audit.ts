import type { Kysely, Migration } from 'kysely';

export const idempotencyAndAudit: Migration = {
  async up(db: Kysely<unknown>) {
    // The first response to a request carrying an Idempotency-Key, kept for replay (docs/contract.md §8.1).
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('operation', 'varchar(32)', (c) => c.notNull())
      .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('response_status', 'integer', (c) => c.notNull())
      .addColumn('response_body', 'text', (c) => c.notNull())
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['agency_id', 'operation', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_expiry_idx').on('idempotency_keys').column('expires_at').execute();

    // Append-only: every state change, who made it and when, written in the change's own transaction.
    await db.schema
      .createTable('audit_events')
      .addColumn('event_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('order_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('reference', 'varchar(8)')
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('event', 'varchar(32)', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('actor', 'varchar(16)', (c) => c.notNull())
      .addColumn('agency_id', 'varchar(64)')
      .addColumn('token_id', 'varchar(32)')
      .addColumn('request_id', 'varchar(64)')
      .addColumn('operation', 'varchar(64)', (c) => c.notNull())
      .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('audit_events_order_idx')
      .on('audit_events')
      .columns(['order_id', 'occurred_at', 'sequence'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('audit_events').execute();
    await db.schema.dropTable('idempotency_keys').execute();
  },
};
