import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';

export interface OperatorSession {
  email: string;
  name: string;
  csrfToken: string;
  lastSeenAt: string;
  disabledAt: string | null;
}

export async function insertSession(
  db: Executor,
  session: { sessionHash: string; email: string; csrfToken: string },
  now: string,
): Promise<void> {
  await runSql(
    db,
    'insert into operator_sessions (session_hash, email, csrf_token, created_at, last_seen_at) values (?, ?, ?, ?, ?)',
    [session.sessionHash, session.email, session.csrfToken, now, now],
  );
}

/** The session with its operator, whatever its age: the caller decides whether it is still valid. */
export async function findSession(db: Executor, sessionHash: string): Promise<OperatorSession | null> {
  const [row] = await runSql<{
    email: string;
    name: string;
    csrf_token: string;
    last_seen_at: string;
    disabled_at: string | null;
  }>(
    db,
    `select s.email, o.name, s.csrf_token, s.last_seen_at, o.disabled_at
     from operator_sessions s join operators o on o.email = s.email where s.session_hash = ?`,
    [sessionHash],
  );
  return row
    ? {
        email: row.email,
        name: row.name,
        csrfToken: row.csrf_token,
        lastSeenAt: row.last_seen_at,
        disabledAt: row.disabled_at,
      }
    : null;
}

export async function touchSession(db: Executor, sessionHash: string, now: string): Promise<void> {
  await runSql(db, 'update operator_sessions set last_seen_at = ? where session_hash = ?', [now, sessionHash]);
}

export async function deleteSession(db: Executor, sessionHash: string): Promise<void> {
  await runSql(db, 'delete from operator_sessions where session_hash = ?', [sessionHash]);
}

export async function deleteSessionsOf(db: Executor, email: string): Promise<void> {
  await runSql(db, 'delete from operator_sessions where email = ?', [email]);
}

export async function deleteIdleSessions(db: Executor, seenBefore: string): Promise<void> {
  await runSql(db, 'delete from operator_sessions where last_seen_at < ?', [seenBefore]);
}
