import { loadConfig, type Config } from '../config.js';
import { migrateToLatest } from '../store/migrator.js';
import { ensureDatabase, openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { upgradeProgress } from './progress.js';

export interface GlobalOptions {
  databaseUrl?: string;
  json?: boolean;
  verbose?: boolean;
}

export function configFrom(options: GlobalOptions, extra: Parameters<typeof loadConfig>[1] = {}): Config {
  return loadConfig(process.env, { ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}), ...extra });
}

/** Creates the configured PostgreSQL database if it is missing and the role may (saying so on stderr), or fails saying what to run. */
export async function databaseReady(config: Config): Promise<void> {
  const created = await ensureDatabase(config);
  if (created) process.stderr.write(`${created}\n`);
}

/** Opens the configured store, brings its schema up to date, runs `work`, and always closes it. */
export async function withStore<T>(options: GlobalOptions, work: (store: Store) => Promise<T>): Promise<T> {
  const config = configFrom(options);
  await databaseReady(config);
  const store = openStore(config);
  try {
    const progress = upgradeProgress();
    await migrateToLatest(store, progress.report).finally(() => progress.done());
    return await work(store);
  } finally {
    await store.close();
  }
}
