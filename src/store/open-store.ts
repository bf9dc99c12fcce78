import { sqlitePath, type Config } from '../config.js';
import { openPostgresStore } from './postgres-store.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

/** `serving`: for the long-running service (background work that a CLI command would only pay to start). */
export function openStore(config: Config, { serving = false }: { serving?: boolean } = {}): Store {
  if (config.databaseUrl.startsWith('sqlite:')) {
    return openSqliteStore(sqlitePath(config.databaseUrl), config.durability, { backgroundCheckpoints: serving });
  }
  return openPostgresStore(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  });
}
