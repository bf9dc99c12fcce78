import { Migrator, type MigrationResultSet } from 'kysely';
import { migrationProvider } from './migrations/index.js';
import type { SqlStore } from './sql-store.js';
import { copyOrdersBeforeRecords, type UpgradeProgress } from './upgrade/order-records-upgrade.js';

export type { UpgradeProgress } from './upgrade/order-records-upgrade.js';

function migratorFor(store: SqlStore): Migrator {
  return new Migrator({ db: store.db, provider: migrationProvider });
}

function unwrap({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((result) => `${result.direction} ${result.migrationName}`);
}

/**
 * Applies every pending migration; returns what was applied. A database of the former schema has
 * its orders copied into their records first, in batches that survive a crash, each reported to
 * `progress` (upgrade/order-records-upgrade.ts).
 */
export async function migrateToLatest(store: SqlStore, progress?: UpgradeProgress): Promise<string[]> {
  const migrator = migratorFor(store);
  const before = unwrap(await copyOrdersBeforeRecords(store, migrator, progress));
  return [...before, ...unwrap(await migrator.migrateToLatest())];
}

/** Rolls back the most recent migration. */
export async function migrateDown(store: SqlStore): Promise<string[]> {
  return unwrap(await migratorFor(store).migrateDown());
}
