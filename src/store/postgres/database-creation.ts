import pg from 'pg';

/** PostgreSQL's SQLSTATEs met on the way: no such database, not allowed, created meanwhile by another process. */
const NO_SUCH_DATABASE = '3D000';
const INSUFFICIENT_PRIVILEGE = '42501';
const CREATED_MEANWHILE = new Set(['42P04', '23505']);

/** Why the database cannot be made here: one line, with the SQL an administrator runs instead. */
export class DatabaseMissing extends Error {}

/**
 * A connection not opened within DATABASE_CONNECT_TIMEOUT_MS: the database is slow or away, which
 * `serve` waits out at start (DATABASE_START_WAIT_MS). pg says only "timeout expired".
 */
export class ConnectTimedOut extends Error {
  constructor(connectTimeoutMs: number) {
    super(`no connection opened within DATABASE_CONNECT_TIMEOUT_MS (${connectTimeoutMs} ms)`);
  }
}

function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

function sqlstate(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** The same server and role, connected to another database of it. */
function urlOfDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

async function tryConnect(connectionString: string, connectTimeoutMs: number): Promise<pg.Client> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    throw (error as Error | null)?.message === 'timeout expired' ? new ConnectTimedOut(connectTimeoutMs) : error;
  }
}

/**
 * Makes sure the URL's database exists, and returns a line saying so if it had to create it. When
 * the database does not exist, it is created if the URL's role may
 * (CREATE DATABASE, through the server's maintenance database `postgres`, else `template1`), and
 * otherwise throws DatabaseMissing saying what to run. Every other failure (server away, wrong
 * password) is thrown as it came, for the caller's usual handling. Messages never hold the URL.
 */
export async function ensurePostgresDatabase(
  connectionString: string,
  connectTimeoutMs: number,
): Promise<string | null> {
  try {
    await (await tryConnect(connectionString, connectTimeoutMs)).end();
    return null;
  } catch (error) {
    if (sqlstate(error) !== NO_SUCH_DATABASE) throw error;
  }
  const wanted = new pg.Client({ connectionString });
  const database = wanted.database ?? '';
  let role = wanted.user ?? '';
  const where = `${wanted.host}:${wanted.port}`;
  const instead = () =>
    new DatabaseMissing(
      `database ${quoted(database)} does not exist on ${where}, and role ${quoted(role)} may not create it; ` +
        `have an administrator run: CREATE DATABASE ${quoted(database)} OWNER ${quoted(role)}; then run this again.`,
    );

  let admin: pg.Client | null = null;
  for (const maintenance of ['postgres', 'template1']) {
    try {
      admin = await tryConnect(urlOfDatabase(connectionString, maintenance), connectTimeoutMs);
      break;
    } catch {
      // Not there, or not open to this role: try the next, and say what to run if neither is.
    }
  }
  if (!admin) throw instead();
  try {
    role = String((await admin.query<{ role: string }>('select current_user as role')).rows[0]?.role ?? role);
    await admin.query(`create database ${quoted(database)}`);
    return `database ${quoted(database)} created on ${where}, owned by role ${quoted(role)}`;
  } catch (error) {
    if (CREATED_MEANWHILE.has(sqlstate(error) ?? '')) return null;
    if (sqlstate(error) === INSUFFICIENT_PRIVILEGE) throw instead();
    throw error;
  } finally {
    await admin.end().catch(() => {});
  }
}
