import { sqlitePath, type Config } from '../config.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export function openStore(config: Config): Store {
  if (config.databaseUrl.startsWith('sqlite:')) {
    return openSqliteStore(sqlitePath(config.databaseUrl), config.durability);
  }
  throw new Error('PostgreSQL is not supported yet; use DATABASE_URL=sqlite:PATH.');
}
