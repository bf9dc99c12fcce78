import type { Kysely, Migration } from 'kysely';

// Types are ones both SQLite and PostgreSQL understand, so one migration serves both stores.
export const initialSchema: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('agencies')
      .addColumn('agency_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('iata_number', 'varchar(8)')
      .addColumn('email', 'varchar(320)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('access_tokens')
      .addColumn('token_id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull().references('agencies.agency_id'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('revoked_at', 'varchar(32)')
      .execute();

    await db.schema
      .createTable('orders')
      .addColumn('order_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull().references('agencies.agency_id'))
      .addColumn('currency', 'varchar(3)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('orders_agency_idx').on('orders').column('agency_id').execute();

    await db.schema
      .createTable('bookings')
      .addColumn('order_id', 'varchar(64)', (c) => c.notNull().references('orders.order_id').onDelete('cascade'))
      .addColumn('reference', 'varchar(8)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('cancellation', 'varchar(16)')
      .addColumn('segments', 'text', (c) => c.notNull())
      .addColumn('passengers', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('bookings_pk', ['order_id', 'reference'])
      .execute();

    await db.schema
      .createTable('airline_changes')
      .addColumn('change_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('order_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('reference', 'varchar(8)', (c) => c.notNull())
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('detected_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('removed_segments', 'text', (c) => c.notNull())
      .addColumn('added_segments', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('resolved_at', 'varchar(32)')
      .addForeignKeyConstraint(
        'airline_changes_booking_fk',
        ['order_id', 'reference'],
        'bookings',
        ['order_id', 'reference'],
        (c) => c.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createIndex('airline_changes_booking_idx')
      .on('airline_changes')
      .columns(['order_id', 'reference', 'detected_at'])
      .execute();
    await db.schema.createIndex('airline_changes_status_idx').on('airline_changes').column('status').execute();

    // The primary key makes "no ticket refunded twice" a property of the database, not only of the code.
    await db.schema
      .createTable('refunds')
      .addColumn('order_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('reference', 'varchar(8)', (c) => c.notNull())
      .addColumn('ticket_number', 'varchar(13)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('amount_minor', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'varchar(3)', (c) => c.notNull())
      .addColumn('quote_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('refunds_pk', ['order_id', 'reference', 'ticket_number'])
      .addForeignKeyConstraint(
        'refunds_booking_fk',
        ['order_id', 'reference'],
        'bookings',
        ['order_id', 'reference'],
        (c) => c.onDelete('cascade'),
      )
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['refunds', 'airline_changes', 'bookings', 'orders', 'access_tokens', 'agencies']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
