import type { Kysely } from 'kysely';
import type { ChangeOrder } from './order-change.js';
import type { Database } from './tables.js';

/** A connection, or an open transaction: repositories accept either and never decide where one begins. */
export type Executor = Kysely<Database>;

/** The small surface the rest of the service needs from a database. */
export interface Store {
  readonly db: Kysely<Database>;
  /**
   * For reads outside a transaction: sees committed data only, and never waits for a write
   * transaction (a second connection on SQLite; the pool on PostgreSQL).
   */
  readonly reader: Kysely<Database>;
  /** Runs `work` in one write transaction: everything it did is committed together, or nothing. */
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * Changes one order as the rules decide over what was read, atomically and only if the order is
   * still as read (order-change.ts): what every operation and deadline runs.
   */
  readonly changeOrder: ChangeOrder;
  /** What the operator sees of the store in the start-up log line (which engine, how durable). */
  describe(): Record<string, string>;
  /**
   * A value that changes whenever access tokens or agencies may have changed, in this process or
   * another; null where the store cannot tell cheaply (nothing is then cached).
   */
  authMarker(): string | null;
  ping(): Promise<void>;
  /** Whether an error means the database is unreachable or overloaded (answered 503), not a bug. */
  isUnavailable(error: unknown): boolean;
  close(): Promise<void>;
}
