import type { UpdateOrder } from './order-update.js';
import type { Repositories } from './repositories.js';

export type { Repositories } from './repositories.js';

/**
 * What the service asks of its database, in its own words: the repositories' functions (repositories.ts),
 * read or written together, and the update of one order that every operation runs. Nothing here is SQL,
 * a database handle or an engine; those stay in src/store/ (SqlStore, sql-store.ts).
 */
export interface Store {
  /**
   * The repositories' functions on what is committed: never waits for a write (a second connection on SQLite; the pool on
   * PostgreSQL).
   */
  readonly read: Repositories;
  /** Runs `work` in one write transaction: everything it wrote is committed together, or nothing. */
  write<T>(work: (tx: Repositories) => Promise<T>, options?: WriteOptions): Promise<T>;
  /** Runs `work`'s reads at one instant (a read-only snapshot), for what must agree with itself. */
  snapshot<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Changes one order as the rules decide over what was read, atomically and only if the order is
   * still as read (order-update.ts): what every operation and deadline runs.
   */
  readonly updateOrder: UpdateOrder;
  /** What the operator sees of the store in the start-up log line (which engine, how durable). */
  describe(): Record<string, string>;
  /**
   * A value that changes whenever access tokens or agencies may have changed, in this process or
   * another; null where the store cannot tell cheaply (nothing is then cached).
   */
  authMarker(): string | null;
  /**
   * SQLite with background checkpoints (`serve`): what the checkpoint thread saw of the
   * write-ahead log (checkpointer.ts); null, or absent, where there is no such thread.
   */
  logFigures?(): LogFigures | null;
  /**
   * PostgreSQL: the connection pool as it is now (connection-pool.ts); null, or absent, where there
   * is no pool.
   */
  poolFigures?(): PoolFigures | null;
  /** PostgreSQL: tells `observer` of every wait for a connection and every caller refused one. */
  observePool?(observer: PoolObserver): void;
  /** Answers once the store is reachable and, on PostgreSQL, holds its minimum of open connections. */
  ping(): Promise<void>;
  /** Whether an error means the database is unreachable or overloaded (answered 503), not a bug. */
  isUnavailable(error: unknown): boolean;
  close(): Promise<void>;
}

/** What SQLite's checkpoint thread saw of the write-ahead log since it started (sqlite/checkpointer.ts). */
export interface LogFigures {
  /** Passes that read the log (each a PASSIVE checkpoint, some followed by a RESTART). */
  passes: number;
  /** RESTART checkpoints that started the log over. */
  restarts: number;
  /** The largest the log was at a pass, in bytes of its file (frames of a page and a header each). */
  peakBytes: number;
}

/** PostgreSQL's connection pool, for /metrics (pool-metrics.ts). */
export interface PoolFigures {
  /** DATABASE_POOL_SIZE, DATABASE_POOL_MIN, DATABASE_POOL_QUEUE. */
  size: number;
  min: number;
  queueLimit: number;
  /** Connections open or being opened. */
  open: number;
  /** Open connections that no caller holds. */
  idle: number;
  /** Connections lent to a caller (or being opened for one). */
  inUse: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

export interface PoolObserver {
  /** A caller was lent a connection after waiting this long (0: at once). */
  waited(seconds: number): void;
  /** A caller got no connection: the queue was full, or its time ran out while it waited. */
  refused(): void;
}

export interface WriteOptions {
  /**
   * The work writes much (an import): it gets a transaction of its own rather than sharing one
   * with requests (SQLite's group commit), where undoing it alone would cost a copy of every page
   * it changes.
   */
  large?: boolean;
}
