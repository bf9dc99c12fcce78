import { engineSql } from '../engine-sql.js';
import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';

/** One key's attempts in its window, as counted by `countSignInAttempts`. */
export interface AttemptCount {
  key: string;
  attempts: number;
  windowStartedAt: string;
}

/**
 * Counts one attempt for each key and returns every key's attempts in its window, this one included.
 * A key's window starts with its first attempt; the first attempt after the window (begun before
 * `windowsSince`) starts a new one. One statement: concurrent attempts on a key, from any process,
 * wait for each other's row and get counts one apart, on both engines. Keys are locked in the order
 * given, so callers that all give them in one order never wait for each other in a circle.
 */
export async function countSignInAttempts(
  db: Executor,
  keys: readonly string[],
  now: string,
  windowsSince: string,
): Promise<AttemptCount[]> {
  const rows = await runSql<{ attempt_key: string; attempts: number | string; window_started_at: string }>(
    db,
    `insert into operator_sign_in_attempts (attempt_key, window_started_at, attempts) values ${keys.map(() => '(?, ?, 1)').join(', ')}
     on conflict (attempt_key) do update set
       attempts = case when operator_sign_in_attempts.window_started_at < ? then 1 else operator_sign_in_attempts.attempts + 1 end,
       window_started_at = case when operator_sign_in_attempts.window_started_at < ? then excluded.window_started_at
         else operator_sign_in_attempts.window_started_at end
     returning attempt_key, attempts, window_started_at`,
    [...keys.flatMap((key) => [key, now]), windowsSince, windowsSince],
  );
  return rows.map((row) => ({
    key: row.attempt_key,
    attempts: Number(row.attempts),
    windowStartedAt: row.window_started_at,
  }));
}

/** Takes back the attempts counted (a success): each key loses one, in the window it was counted in, and nothing else. */
export async function takeBackSignInAttempts(db: Executor, counted: readonly AttemptCount[]): Promise<void> {
  for (const { key, windowStartedAt } of counted) {
    await runSql(
      db,
      `update operator_sign_in_attempts set attempts = attempts - 1
      where attempt_key = ? and window_started_at = ? and attempts > 0`,
      [key, windowStartedAt],
    );
  }
}

/**
 * Drops the counts whose window began before `before`. Rows another transaction holds are left for
 * a later purge (engine-sql.ts, `claimRows`): waiting for one of them while holding others could
 * make the purge and a count wait for each other.
 */
export async function purgeSignInAttempts(db: Executor, before: string): Promise<void> {
  await runSql(
    db,
    `delete from operator_sign_in_attempts where window_started_at < ? and attempt_key in
    (select attempt_key from operator_sign_in_attempts where window_started_at < ?${engineSql(db).claimRows})`,
    [before, before],
  );
}
