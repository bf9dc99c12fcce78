import { loadConfig, type Config } from '../config.js';
import { migrateToLatest } from '../store/migrator.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';

export interface GlobalOptions {
  databaseUrl?: string;
  json?: boolean;
  verbose?: boolean;
}

export function configFrom(options: GlobalOptions, extra: Parameters<typeof loadConfig>[1] = {}): Config {
  return loadConfig(process.env, { ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}), ...extra });
}

/** Opens the configured store, brings its schema up to date, runs `work`, and always closes it. */
export async function withStore<T>(options: GlobalOptions, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(configFrom(options));
  try {
    await migrateToLatest(store);
    return await work(store);
  } finally {
    await store.close();
  }
}
