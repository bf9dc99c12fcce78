import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDialectConfig } from 'kysely';
import type { Durability } from '../config.js';
import type { Executor, Store } from './store.js';
import type { Database } from './tables.js';

const STATEMENT_CACHE_LIMIT = 500;

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running the small
 * queries of a request. The same SQL text reuses its prepared statement.
 */
function withStatementCache(connection: SqliteDatabase.Database): SqliteDialectConfig['database'] {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => connection.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (!statement) {
        // Multi-row inserts make a text per row count: the cache is bounded, not clever.
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = connection.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement as never;
    },
  };
}

/**
 * The embedded store. One connection: Kysely's SQLite driver hands it to one caller at a time, so
 * transactions in this process are serialised, which is what makes parallel requests on one
 * booking safe. WAL with synchronous=NORMAL keeps every commit through a killed process;
 * synchronous=FULL also through power loss.
 */
export function openSqliteStore(file: string, durability: Durability): Store {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SqliteDatabase(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma(`synchronous = ${durability === 'power' ? 'FULL' : 'NORMAL'}`);
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });

  return {
    dialect: 'sqlite',
    db,
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      // BEGIN IMMEDIATE takes the write lock up front, so a CLI import in another process
      // cannot make this transaction fail halfway with SQLITE_BUSY on its first write.
      return db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await work(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (error) {
          if (connection.inTransaction) await sql`rollback`.execute(conn);
          throw error;
        }
      });
    },
    async lockOrder() {},
    async ping() {
      await sql`select 1`.execute(db);
    },
    // Another process held the write lock for longer than busy_timeout.
    isUnavailable: (error) => ['SQLITE_BUSY', 'SQLITE_LOCKED'].includes((error as { code?: string } | null)?.code ?? ''),
    async close() {
      await db.destroy();
    },
  };
}
