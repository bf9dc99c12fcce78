import { sql, type Kysely } from 'kysely';
import { engineSql } from '../engine-sql.js';
import { TALLY_SHARDS } from '../repositories/change-tallies-repository.js';

/**
 * The tables of the order as one record (migration 011), made before the orders are copied into
 * them, by the upgrade (which may be stopped and started again) or by the migration itself.
 * - `order_records`: one row per order, its record (order-record.ts) beside the columns looked up
 *   other than by the order's id: the agency (tenancy, the demo's clean-up) and the version (each
 *   write holds only if it is unchanged). No column of it is indexed but the id and the agency, which
 *   never change: every change of an order rewrites its one row in place.
 * - `airline_change_timers`: one row per airline change ever recorded, written when the change is
 *   imported and left alone when it is resolved: its id (a change id names one change of one booking),
 *   when its deadline falls due while the scheduler has not yet looked at it, and when it was
 *   announced as approaching. The scheduler checks each timer against the order when it falls due.
 * - `change_tallies`: how many changes are pending, as a sum of rows (change-tallies-repository.ts).
 */
const ORDER_RECORDS_ROOM_PERCENT = 30;

export async function createOrderRecordTables(db: Kysely<unknown>): Promise<void> {
  const { schema } = engineSql(db);
  await db.schema
    .createTable('order_records')
    .ifNotExists()
    .addColumn('order_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('agency_id', 'varchar(64)', (c) => c.notNull().references('agencies.agency_id'))
    .addColumn('version', schema.orderVersion, (c) => c.notNull())
    .addColumn('record', schema.recordColumn, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_records_agency_idx')
    .ifNotExists()
    .on('order_records')
    .column('agency_id')
    .execute();
  // A change of an order rewrites its row: on PostgreSQL in place (a heap-only update) when its page
  // has room for the new version. A page holds about ten records (PostgreSQL compresses each); with
  // a tenth of it free only the first update of a page between two prunings stayed in place (0.35
  // of the updates under the bench's load, docs/benchmarks.md), with three tenths most do.
  await schema.roomForUpdates(db, 'order_records', ORDER_RECORDS_ROOM_PERCENT);
  await db.schema
    .createTable('airline_change_timers')
    .ifNotExists()
    .addColumn('change_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('order_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reference', 'varchar(8)', (c) => c.notNull())
    .addColumn('due_at', 'varchar(32)')
    .addColumn('warned_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('airline_change_timers_due_idx')
    .ifNotExists()
    .on('airline_change_timers')
    .column('due_at')
    .where(sql.ref('due_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('airline_change_timers_order_idx')
    .ifNotExists()
    .on('airline_change_timers')
    .column('order_id')
    .execute();
  await db.schema
    .createTable('change_tallies')
    .ifNotExists()
    .addColumn('shard', 'integer', (c) => c.primaryKey())
    .addColumn('pending', 'bigint', (c) => c.notNull())
    .execute();
  for (let shard = 0; shard < TALLY_SHARDS; shard += 1) {
    await sql`insert into change_tallies (shard, pending) values (${shard}, 0) on conflict (shard) do nothing`.execute(
      db,
    );
  }
}
