import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { storeOver, type SqlStore } from '../sql-store.js';
import type { Executor } from '../executor.js';
import { registerEngineSql } from '../engine-sql.js';
import { AuthNotifications } from './auth-notifications.js';
import { postgresSql } from './engine-sql.js';
import { OrderContention, postgresUpdateOrder } from './order-update.js';
import { ConnectionPool, NoConnection } from './connection-pool.js';
import { ConnectTimedOut } from './database-creation.js';
import type { Database } from '../tables.js';

export interface PostgresOptions {
  poolSize: number;
  /** Connections opened before the store says it is ready (ping), and kept open. */
  poolMin: number;
  /** Callers that may wait for a connection; one more is answered 503 at once. */
  poolQueue: number;
  /** How long opening one new connection may take before the caller is answered 503. */
  connectTimeoutMs: number;
  /** How long a caller that gives no time of its own waits for a connection (the request time-out). */
  waitLimitMs: number;
  /** Upper bound of any one statement, so an overloaded database answers with 503 instead of a hang. */
  statementTimeoutMs: number;
  /** Starts opening the minimum of connections at once (`serve`), rather than at the first ping. */
  warmAtOpen?: boolean;
}

// Connection-level failures: the database is away, restarting, or refusing more clients.
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57014',
]);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

export function isPostgresUnavailable(error: unknown): boolean {
  const candidate = error as { code?: string; message?: string } | null;
  if (!candidate) return false;
  if (candidate.code && (UNAVAILABLE_SQLSTATES.has(candidate.code) || UNAVAILABLE_ERRNOS.has(candidate.code)))
    return true;
  return /timeout exceeded when trying to connect|Connection terminated|connection timeout|Client has encountered a connection error/i.test(
    candidate.message ?? '',
  );
}

/**
 * Throws if pg cannot read the URL. pg reads it only when the pool first connects, inside the first
 * query, where a malformed URL would look like a failing query; a client that never connects reads
 * it at once, with the parser the pool's clients use.
 */
export function checkPostgresUrl(connectionString: string): void {
  new pg.Client({ connectionString });
}

/**
 * The store for several processes or machines. Requests on one order serialise on the order row's
 * lock (SELECT … FOR UPDATE), held until the transaction commits; other orders proceed in parallel.
 */
export function openPostgresStore(connectionString: string, options: PostgresOptions): SqlStore {
  const pool = new ConnectionPool(connectionString, {
    size: options.poolSize,
    min: options.poolMin,
    queueLimit: options.poolQueue,
    connectTimeoutMs: options.connectTimeoutMs,
    waitLimitMs: options.waitLimitMs,
    statementTimeoutMs: options.statementTimeoutMs,
  });
  // Kysely asks for a connection with no time of its own: it waits the default (the request time-out).
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: { connect: () => pool.connect(), end: () => pool.end() } }),
  });
  // Failures show in the readiness probe, which warms the pool again.
  if (options.warmAtOpen) pool.warm().catch(() => {});
  registerEngineSql(db, postgresSql);
  const auth = new AuthNotifications(connectionString, options.connectTimeoutMs);

  return storeOver({
    db,
    reader: db,
    async transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      const result = await db.transaction().execute((tx) => work(tx));
      // A transaction of this process may have changed tokens: its own notification may come a
      // moment after this returns, so the next lookup does not wait for it.
      auth.changed();
      return result;
    },
    updateOrder: postgresUpdateOrder(pool),
    describe: () => ({ store: 'postgres' }),
    authMarker: () => auth.marker(),
    poolFigures: () => pool.figures(),
    observePool: (observer) => pool.observe(observer),
    async ping() {
      await pool.warm();
      await sql`select 1`.execute(db);
    },
    isUnavailable: (error) =>
      error instanceof OrderContention ||
      error instanceof NoConnection ||
      error instanceof ConnectTimedOut ||
      isPostgresUnavailable(error),
    async close() {
      await auth.close();
      await db.destroy();
    },
  });
}
