import { Migrator, type MigrationResultSet } from 'kysely';
import { migrationProvider } from './migrations/index.js';
import type { SqlStore } from './sql-store.js';

function migratorFor(store: SqlStore): Migrator {
  return new Migrator({ db: store.db, provider: migrationProvider });
}

function unwrap({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((result) => `${result.direction} ${result.migrationName}`);
}

/** Applies every pending migration; returns what was applied. */
export async function migrateToLatest(store: SqlStore): Promise<string[]> {
  return unwrap(await migratorFor(store).migrateToLatest());
}

/** Rolls back the most recent migration. */
export async function migrateDown(store: SqlStore): Promise<string[]> {
  return unwrap(await migratorFor(store).migrateDown());
}
