import type { Kysely, MigrationResultSet, Migrator } from 'kysely';
import { engineSql } from '../engine-sql.js';
import type { SqlStore } from '../sql-store.js';
import { runSql } from '../raw-sql.js';
import { copyOrderBatch, copyProgress } from './order-records-copy.js';
import { createOrderRecordTables } from './order-record-tables.js';

/** How far the copy of the orders into their records got: called before the first batch and after each. */
export type UpgradeProgress = (copied: number, total: number) => void;

const LAST_FORMER = '010-token-last-use';
const ORDER_RECORDS = '011-order-records';
/** Orders per transaction: big enough to copy quickly, small enough that a kill loses little and locks briefly. */
export const UPGRADE_BATCH = 1000;

/**
 * Before migration 011 on a database of the former schema: the orders are copied into their records
 * a batch at a time, each batch committed on its own, so that the copy of a large database can be
 * watched (`progress`) and, stopped at any moment (kill -9 included), resumes after the last batch
 * committed (copyOrderBatch starts after the last record's order id). Until 011 itself runs, the
 * former tables stay as they were: a stopped copy leaves the previous version's schema intact, and
 * only adds the record tables beside it. Migration 011 then finds nothing left to copy and replaces
 * the former tables with views in one transaction. Returns the migrations applied on the way (those
 * up to 010, when the database was older).
 *
 * The copy does not follow writes made meanwhile: every process of the previous version must be
 * stopped before upgrading (docs/operations.md).
 */
export async function copyOrdersBeforeRecords(
  store: SqlStore,
  migrator: Migrator,
  progress?: UpgradeProgress,
): Promise<MigrationResultSet> {
  const migrations = await migrator.getMigrations();
  const pending = (name: string) =>
    migrations.some((migration) => migration.name === name && migration.executedAt === undefined);
  // A new database (nothing applied) has no orders to copy; one past 011 has nothing left to do.
  if (!pending(ORDER_RECORDS) || !migrations.some((migration) => migration.executedAt !== undefined))
    return { results: [] };
  const before: MigrationResultSet = pending(LAST_FORMER) ? await migrator.migrateTo(LAST_FORMER) : { results: [] };
  // The schema builder's view of a store's connection, which knows nothing of the application's tables.
  const schemaOf = (db: unknown) => db as Kysely<unknown>;
  if (before.error || (await engineSql(store.db).schema.relationKind(schemaOf(store.db), 'bookings')) !== 'table')
    return before;
  await store.transaction((tx) => createOrderRecordTables(schemaOf(tx)), { large: true });
  const { copied: already, total } = await copyProgress(store.db);
  let copied = already;
  progress?.(copied, total);
  for (;;) {
    const written = await store.transaction(
      async (tx) => {
        // Where writers run side by side (PostgreSQL), two upgrading processes take turns: each batch
        // then starts after the other's last one instead of failing on the same orders.
        if (engineSql(tx).lockRows) await runSql(tx, 'lock table order_records in exclusive mode', []);
        return copyOrderBatch(tx, UPGRADE_BATCH);
      },
      { large: true },
    );
    if (written === 0) break;
    copied += written;
    progress?.(copied, total);
  }
  return before;
}
