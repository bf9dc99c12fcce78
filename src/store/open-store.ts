import fs from 'node:fs';
import { ConfigError, sqlitePath, withoutPassword, type Config } from '../config.js';
import { isSystemError } from '../errors/system-error.js';
import { DatabaseMissing, ensurePostgresDatabase } from './postgres/database-creation.js';
import { checkPostgresUrl, openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { SqlStore } from './sql-store.js';

/**
 * An SQLite file that cannot be opened (a directory, a file that is not a database, a folder that
 * cannot be made) is a mistake in DATABASE_URL: reported as one, not as a crash. Another process
 * holding the file's lock is not, and stays as it is.
 */
function sqliteFileError(databaseUrl: string, file: string, error: unknown): unknown {
  const code = String((error as { code?: unknown } | null)?.code);
  const aboutTheFile = isSystemError(error) || (code.startsWith('SQLITE_') && !/^SQLITE_(BUSY|LOCKED)/.test(code));
  if (!aboutTheFile) return error;
  const reason = isDirectory(file)
    ? `${file} is a directory, not a database file`
    : `${file}: ${(error as Error).message}`;
  return new ConfigError(`DATABASE_URL "${databaseUrl}" cannot be used: ${reason}.`);
}

/** SQLite says only "unable to open database file" for a directory. */
function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** pg's own messages ("Invalid URL") never hold the URL, so the password stays out of this one. */
function postgresUrlError(databaseUrl: string, error: unknown): ConfigError {
  const reason =
    (error as { code?: unknown } | null)?.code === 'ERR_INVALID_URL'
      ? 'it is not a valid URL (the form is postgres://user:password@host:port/database)'
      : (error as Error).message;
  return new ConfigError(`DATABASE_URL "${withoutPassword(databaseUrl)}" cannot be used: ${reason}.`);
}

/** `serving`: for the long-running service (background work that a CLI command would only pay to start). */
export function openStore(config: Config, { serving = false }: { serving?: boolean } = {}): SqlStore {
  if (config.databaseUrl.startsWith('sqlite:')) {
    const file = sqlitePath(config.databaseUrl);
    try {
      return openSqliteStore(file, config.durability, {
        backgroundCheckpoints: serving,
        walLimitBytes: config.sqliteWalLimitBytes,
        // Never less than a request's own time (docs/decisions.md, "Waiting for a database connection").
        lockWaitMs: config.requestTimeoutMs,
      });
    } catch (error) {
      throw sqliteFileError(config.databaseUrl, file, error);
    }
  }
  try {
    checkPostgresUrl(config.databaseUrl);
  } catch (error) {
    throw postgresUrlError(config.databaseUrl, error);
  }
  return openPostgresStore(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    poolMin: config.databasePoolMin,
    poolQueue: config.databasePoolQueue,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    // A caller waits for a connection as long as a request may take: never less than its own time.
    waitLimitMs: config.requestTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    warmAtOpen: serving,
  });
}

/**
 * Before the first migration on a new PostgreSQL server: creates the configured database when it
 * does not exist and the role may, or fails with one line saying what to run. Returns a line to
 * tell the operator when it created one. SQLite makes its file by itself.
 */
export async function ensureDatabase(config: Config): Promise<string | null> {
  if (config.databaseUrl.startsWith('sqlite:')) return null;
  try {
    checkPostgresUrl(config.databaseUrl);
  } catch (error) {
    throw postgresUrlError(config.databaseUrl, error);
  }
  try {
    return await ensurePostgresDatabase(config.databaseUrl, config.databaseConnectTimeoutMs);
  } catch (error) {
    if (error instanceof DatabaseMissing) throw new ConfigError(error.message);
    throw error;
  }
}
