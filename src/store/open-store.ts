import { sqlitePath, type Config } from '../config.js';
import { openPostgresStore } from './postgres-store.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export function openStore(config: Config): Store {
  if (config.databaseUrl.startsWith('sqlite:')) {
    return openSqliteStore(sqlitePath(config.databaseUrl), config.durability);
  }
  return openPostgresStore(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  });
}
