import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { storeOver, type SqlStore } from '../sql-store.js';
import type { Executor } from '../executor.js';
import { registerEngineSql } from '../engine-sql.js';
import { AuthNotifications } from './auth-notifications.js';
import { postgresSql } from './engine-sql.js';
import { OrderContention, postgresUpdateOrder } from './order-update.js';
import type { Database } from '../tables.js';

export interface PostgresOptions {
  poolSize: number;
  /** How long a request may wait for a connection (and a new connection for the server) before 503. */
  connectTimeoutMs: number;
  /** Upper bound of any one statement, so an overloaded database answers with 503 instead of a hang. */
  statementTimeoutMs: number;
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
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one: pg emits 'error' on the client as well as failing its queries, and the
  // pool listens only while the client is idle. The request sees the failure through its query (or
  // the next one, "not queryable"), and the pool discards the client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
    async ping() {
      await sql`select 1`.execute(db);
    },
    isUnavailable: (error) => error instanceof OrderContention || isPostgresUnavailable(error),
    async close() {
      await auth.close();
      await db.destroy();
    },
  });
}
