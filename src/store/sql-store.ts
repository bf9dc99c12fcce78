import type { Kysely } from 'kysely';
import type { Executor } from './executor.js';
import { repositoriesOn, type Repositories } from './repositories.js';
import type { Store, WriteOptions } from './store.js';
import type { Database } from './tables.js';

/** What an engine (sqlite/, postgres/) provides: the SQL underneath the Store. */
export interface SqlEngine extends Omit<Store, 'read' | 'write' | 'snapshot'> {
  readonly db: Kysely<Database>;
  /** For reads outside a transaction: sees committed data only, and never waits for a write transaction. */
  readonly reader: Kysely<Database>;
  /** Runs `work` in one write transaction: everything it did is committed together, or nothing. */
  transaction<T>(work: (tx: Executor) => Promise<T>, options?: WriteOptions): Promise<T>;
}

/**
 * The Store with its SQL underneath, as opened: for migrations, the commands that work on the
 * database file itself, and tests that check the stored state. The service itself is given the Store.
 */
export interface SqlStore extends Store, SqlEngine {}

export function storeOver(engine: SqlEngine): SqlStore {
  const read = repositoriesOn(engine.reader);
  return Object.assign(engine, {
    read,
    write: <T>(work: (tx: Repositories) => Promise<T>, options?: WriteOptions) =>
      engine.transaction((tx) => work(repositoriesOn(tx)), options),
    snapshot: <T>(work: (tx: Repositories) => Promise<T>) =>
      engine.reader
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute((tx) => work(repositoriesOn(tx))),
  });
}
