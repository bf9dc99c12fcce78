import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDialectConfig } from 'kysely';
import type { Durability } from '../../config.js';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { groupCommit } from './group-commit.js';
import { sqliteUpdateOrder } from './order-update.js';
import { registerEngineSql } from '../engine-sql.js';
import { registerDirectSql } from '../raw-sql.js';
import { sqliteSql } from './engine-sql.js';
import { storeOver, type SqlStore } from '../sql-store.js';
import type { Executor } from '../executor.js';
import type { Database } from '../tables.js';

const STATEMENT_CACHE_LIMIT = 500;
/**
 * How long a statement outside a write transaction waits inside SQLite's busy handler (reads on the
 * read-only connection, the checkpoint thread's RESTART). A write transaction's wait for another
 * process's write lock is `lockWaitMs` instead (openSqliteStore).
 */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running the small
 * queries of a request. The same SQL text reuses its prepared statement.
 */
function statementCache(connection: SqliteDatabase.Database): (sqlText: string) => SqliteDatabase.Statement {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return (sqlText) => {
    let statement = statements.get(sqlText);
    if (!statement) {
      // Multi-row inserts make a text per row count: the cache is bounded, not clever.
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      statement = connection.prepare(sqlText);
      statements.set(sqlText, statement);
    }
    return statement;
  };
}

function kyselyOver(
  connection: SqliteDatabase.Database,
  prepare: (sqlText: string) => SqliteDatabase.Statement,
): Kysely<Database> {
  const database: SqliteDialectConfig['database'] = {
    close: () => connection.close(),
    prepare: (sqlText: string) => prepare(sqlText) as never,
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  registerEngineSql(db, sqliteSql);
  return db;
}

/**
 * Plain SQL on `executor` runs straight on the prepared statement, skipping Kysely's driver (a
 * connection lease and several promises per statement), where nothing else can use the connection
 * at the same time: inside this store's transactions and on the read-only connection.
 */
function runDirectly(executor: Executor, prepare: (sqlText: string) => SqliteDatabase.Statement): void {
  registerDirectSql(executor, (text, parameters) => {
    const statement = prepare(text);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  });
}

/**
 * A second connection for reads outside a transaction (token lookups, order retrieval). In WAL
 * mode it reads the last committed state without waiting for the writer: a request authenticates
 * while another's transaction is open, so concurrent transactions reach the group commit together.
 */
function openReader(file: string): { reader: Kysely<Database>; connection: SqliteDatabase.Database } {
  const connection = new SqliteDatabase(file);
  connection.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  connection.pragma('query_only = ON');
  const prepare = statementCache(connection);
  const reader = kyselyOver(connection, prepare);
  runDirectly(reader, prepare);
  return { reader, connection };
}

/**
 * The embedded store. One connection: Kysely's SQLite driver hands it to one caller at a time, so
 * transactions in this process are serialised, which is what makes parallel requests on one
 * booking safe. WAL with synchronous=NORMAL keeps every commit through a killed process;
 * synchronous=FULL also through power loss.
 */
export interface SqliteOptions {
  /** Checkpoints in a thread of their own (a long-running service), instead of inside some commits. */
  backgroundCheckpoints?: boolean;
  /** With background checkpoints: the size past which the log is started over (config.ts, checkpointer.ts). */
  walLimitBytes: number;
  /**
   * How long a write transaction waits for another process's write lock (a CLI import, another
   * worker) before SQLITE_BUSY, answered 503: the request time-out, so that a request is not refused
   * before its own time is spent (each request's own time still ends its wait, with-timeout.ts).
   */
  lockWaitMs?: number;
}

export function openSqliteStore(file: string, durability: Durability, options: SqliteOptions): SqlStore {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SqliteDatabase(file);
  connection.pragma('journal_mode = WAL');
  const synchronous = durability === 'power' ? 'FULL' : 'NORMAL';
  connection.pragma(`synchronous = ${synchronous}`);
  connection.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  connection.pragma('foreign_keys = ON');
  // A request's savepoint in a group commit keeps the pages it changes in a statement journal;
  // SQLite writes one past 64 KiB to a temporary file, created and deleted per commit: under load
  // that was about 7 % of the process's time (docs/benchmarks.md). Kept in memory, it is bounded by one request's pages,
  // since imports, which change many, run first in a commit of their own, without a savepoint
  // (group-commit.ts).
  connection.pragma('temp_store = MEMORY');
  let checkpointer: Checkpointer | null = null;
  if (options.backgroundCheckpoints && file !== ':memory:') {
    connection.pragma('wal_autocheckpoint = 0');
    const { walLimitBytes } = options;
    // Started over, the log is cut back to its limit, so that it holds no more of the disk than that.
    connection.pragma(`journal_size_limit = ${walLimitBytes}`);
    const pageSize = Number(connection.pragma('page_size', { simple: true }));
    checkpointer = startCheckpointer(
      file,
      synchronous,
      Math.max(1, Math.floor(walLimitBytes / pageSize)),
      pageSize,
      (reason) => {
        // SQLite's own checkpoints again: slower commits now and then, but the log never grows unbounded.
        process.emitWarning(
          `SQLite background checkpoints stopped (${reason}); SQLite checkpoints during commits again`,
        );
        if (connection.open) connection.pragma('wal_autocheckpoint = 1000');
      },
    );
  }
  const prepare = statementCache(connection);
  const db = kyselyOver(connection, prepare);
  const opened = file === ':memory:' ? null : openReader(file);
  const reader = opened?.reader ?? db;

  /**
   * BEGIN IMMEDIATE, waiting for another process's write lock without SQLite's busy handler: it
   * would sleep in this thread (better-sqlite3 is synchronous), so for up to busy_timeout the
   * process would answer nothing else and no request time-out could fire. The same wait, in steps.
   */
  // Prepared once: this runs twice per transaction.
  const noBusyWait = connection.prepare('pragma busy_timeout = 0');
  const busyWait = connection.prepare(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`);
  async function beginImmediate(conn: Executor): Promise<void> {
    const giveUpAt = Date.now() + (options.lockWaitMs ?? BUSY_TIMEOUT_MS);
    noBusyWait.run();
    try {
      for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
        try {
          await sql`begin immediate`.execute(conn);
          return;
        } catch (error) {
          if (
            !String((error as { code?: unknown } | null)?.code).startsWith('SQLITE_BUSY') ||
            Date.now() + pause > giveUpAt
          )
            throw error;
          await sleep(pause);
        }
      }
    } finally {
      busyWait.run();
    }
  }

  // BEGIN IMMEDIATE takes the write lock up front, so a CLI import in another process
  // cannot make this transaction fail halfway with SQLITE_BUSY on its first write.
  const inOneTransaction = (body: (tx: Executor) => Promise<void>): Promise<void> =>
    db.connection().execute(async (conn) => {
      await beginImmediate(conn);
      runDirectly(conn, prepare);
      try {
        await body(conn);
        await sql`commit`.execute(conn);
      } catch (error) {
        if (connection.inTransaction) await sql`rollback`.execute(conn);
        throw error;
      }
    });
  const transaction = groupCommit(inOneTransaction);
  let authVersion: SqliteDatabase.Statement | null = null;
  /** auth_state's version, moved on by triggers whenever a token or an agency changes (migration 004), in any process. */
  const authMarker = (): string | null => {
    try {
      authVersion ??= (opened?.connection ?? connection).prepare('select version from auth_state where id = 1').pluck();
      return String(authVersion.get());
    } catch {
      // Not migrated yet: nothing is cached.
      return null;
    }
  };

  return storeOver({
    db,
    reader,
    transaction,
    updateOrder: sqliteUpdateOrder(transaction),
    describe: () => ({ store: 'sqlite', durability }),
    logFigures: () => checkpointer?.figures() ?? null,
    authMarker,
    async ping() {
      await sql`select 1`.execute(db);
    },
    // Another process held the write lock for longer than the lock wait (or busy_timeout, for a read).
    isUnavailable: (error) =>
      ['SQLITE_BUSY', 'SQLITE_LOCKED'].includes((error as { code?: string } | null)?.code ?? ''),
    async close() {
      await checkpointer?.stop();
      if (reader !== db) await reader.destroy();
      await db.destroy();
    },
  });
}
