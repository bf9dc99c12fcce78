import { sql, type Kysely, type Migration } from 'kysely';
import { engineSql } from '../engine-sql.js';
import { copyOrderBatch } from '../upgrade/order-records-copy.js';
import { createOrderRecordTables } from '../upgrade/order-record-tables.js';

/**
 * The order as one record (docs/decisions.md, "The order as one record"): the orders, bookings,
 * airline changes and refunds of the former tables become one row per order in `order_records`,
 * the changes' deadlines timers in `airline_change_timers`, and the former tables views of the
 * records, with the same names and columns. A large database is copied before this migration, in
 * batches that survive a crash (the upgrade, upgrade/order-records-upgrade.ts): what this migration
 * copies itself is what is left, in its own transaction.
 */
const FORMER_TABLES = ['refunds', 'airline_changes', 'bookings', 'orders'];
const VIEWS = ['refunds', 'airline_changes', 'bookings', 'orders'];
const BATCH = 1000;

/**
 * Where the dialect has no transactional DDL (SQLite), Kysely runs its migrations outside a
 * transaction; this one must be whole or nothing, so it brings its own.
 */
async function whole(db: Kysely<unknown>, work: () => Promise<void>): Promise<void> {
  const own = !db.getExecutor().adapter.supportsTransactionalDdl;
  if (own) await sql`begin immediate`.execute(db);
  try {
    await work();
    if (own) await sql`commit`.execute(db);
  } catch (error) {
    if (own) await sql`rollback`.execute(db);
    throw error;
  }
}

export const orderRecords: Migration = {
  async up(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    await whole(db, async () => {
      await createOrderRecordTables(db);
      // Run again after a crash between its commit and Kysely's note of it: the former tables are gone.
      if ((await schema.relationKind(db, 'bookings')) !== 'table') return;
      while ((await copyOrderBatch(db, BATCH)) > 0);
      await sql`insert into airline_change_timers (change_id, order_id, reference, due_at, warned_at)
        select change_id, order_id, reference, case when status = 'PENDING' then action_deadline end, warned_at from airline_changes`.execute(
        db,
      );
      await sql`update change_tallies set pending = (select count(*) from airline_changes where status = 'PENDING') where shard = 0`.execute(
        db,
      );
      for (const table of FORMER_TABLES) await db.schema.dropTable(table).execute();
      await schema.createRecordViews(db);
    });
  },

  async down(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    await whole(db, async () => {
      // The former tables as migration 010 left them, filled from the views, which then give way to them.
      await db.schema
        .createTable('former_orders')
        .addColumn('order_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('agency_id', 'varchar(64)', (c) => c.notNull().references('agencies.agency_id'))
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', schema.orderVersion, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('former_bookings')
        .addColumn('order_id', 'varchar(64)', (c) =>
          c.notNull().references('former_orders.order_id').onDelete('cascade'),
        )
        .addColumn('reference', 'varchar(8)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('cancellation', 'varchar(16)')
        .addColumn('segments', 'text', (c) => c.notNull())
        .addColumn('passengers', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('bookings_pk', ['order_id', 'reference'])
        .execute();
      await db.schema
        .createTable('former_airline_changes')
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
        .addColumn('action_deadline', 'varchar(32)')
        .addColumn('consequence', 'varchar(8)', (c) => c.notNull().defaultTo('ACCEPT'))
        .addColumn('warned_at', 'varchar(32)')
        .addForeignKeyConstraint(
          'airline_changes_booking_fk',
          ['order_id', 'reference'],
          'former_bookings',
          ['order_id', 'reference'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createTable('former_refunds')
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
          'former_bookings',
          ['order_id', 'reference'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await sql`insert into former_orders (order_id, agency_id, currency, created_at, updated_at, version)
        select order_id, agency_id, currency, created_at, updated_at, version from orders`.execute(db);
      await sql`insert into former_bookings (order_id, reference, position, status, cancellation, segments, passengers)
        select order_id, reference, position, status, cancellation, segments, passengers from bookings`.execute(db);
      await sql`insert into former_airline_changes (change_id, order_id, reference, kind, detected_at, removed_segments, added_segments, status,
          created_at, resolved_at, action_deadline, consequence, warned_at)
        select change_id, order_id, reference, kind, detected_at, removed_segments, added_segments, status,
          created_at, resolved_at, action_deadline, consequence, warned_at from airline_changes`.execute(db);
      await sql`insert into former_refunds (order_id, reference, ticket_number, position, amount_minor, currency, quote_type, created_at)
        select order_id, reference, ticket_number, position, amount_minor, currency, quote_type, created_at from refunds`.execute(
        db,
      );
      for (const view of VIEWS) await db.schema.dropView(view).execute();
      await db.schema.dropTable('airline_change_timers').execute();
      await db.schema.dropTable('change_tallies').execute();
      await db.schema.dropTable('order_records').execute();
      for (const table of [...FORMER_TABLES].reverse())
        await db.schema.alterTable(`former_${table}`).renameTo(table).execute();
      await db.schema.createIndex('orders_agency_idx').on('orders').column('agency_id').execute();
      await db.schema
        .createIndex('airline_changes_booking_idx')
        .on('airline_changes')
        .columns(['order_id', 'reference', 'detected_at'])
        .execute();
      await db.schema
        .createIndex('airline_changes_pending_idx')
        .on('airline_changes')
        .column('action_deadline')
        .where(sql.ref('status'), '=', sql.lit('PENDING'))
        .execute();
      await schema.roomForUpdates(db, 'orders', 10);
      await schema.roomForUpdates(db, 'bookings', 20);
    });
  },
};
