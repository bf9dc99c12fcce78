import { engineSql } from '../engine-sql.js';
import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';

/** One key's attempts in its window, as counted by `countSignInAttempts`. */
export interface AttemptCount {
  key: string;
  attempts: number;
  windowStartedAt: string;
}

/** A key to count an attempt against, and the most attempts its window allows. */
export interface AttemptLimit {
  key: string;
  limit: number;
}

/** An attempt within every limit, with its counts (to take back on a success); or the key whose limit refused it. */
export type AttemptDecision = { allowed: true; counted: AttemptCount[] } | { allowed: false; refusedBy: AttemptCount };

/**
 * Counts one attempt for one key and returns the key's attempts in its window, this one included.
 * A key's window starts with its first attempt; the first attempt after the window (begun before
 * `windowsSince`) starts a new one. One statement: concurrent attempts on a key, from any process,
 * wait for each other's row and get counts one apart, on both engines.
 */
async function countAttempt(db: Executor, key: string, now: string, windowsSince: string): Promise<AttemptCount> {
  const [row] = await runSql<{ attempt_key: string; attempts: number | string; window_started_at: string }>(
    db,
    `insert into operator_sign_in_attempts (attempt_key, window_started_at, attempts) values (?, ?, 1)
     on conflict (attempt_key) do update set
       attempts = case when operator_sign_in_attempts.window_started_at < ? then 1 else operator_sign_in_attempts.attempts + 1 end,
       window_started_at = case when operator_sign_in_attempts.window_started_at < ? then excluded.window_started_at
         else operator_sign_in_attempts.window_started_at end
     returning attempt_key, attempts, window_started_at`,
    [key, now, windowsSince, windowsSince],
  );
  return { key: row!.attempt_key, attempts: Number(row!.attempts), windowStartedAt: row!.window_started_at };
}

/**
 * Counts an attempt against each key in turn, in the order given, and stops at the first whose
 * limit it passes: the keys after that one are never written (an attempt the address limit refuses
 * adds no row for its email), and the counts it made are taken back in the same transaction, so a
 * refused attempt counts against nothing. What stays counted is the attempts let through: the
 * passwords checked, and those being checked. A key's row stays locked to the end of the
 * transaction, so callers that all give their keys in one order never wait for each other in a circle.
 */
export async function countSignInAttempt(
  db: Executor,
  limits: readonly AttemptLimit[],
  now: string,
  windowsSince: string,
): Promise<AttemptDecision> {
  const counted: AttemptCount[] = [];
  for (const { key, limit } of limits) {
    const count = await countAttempt(db, key, now, windowsSince);
    if (count.attempts > limit) {
      await takeBackSignInAttempts(db, [...counted, count]);
      return { allowed: false, refusedBy: count };
    }
    counted.push(count);
  }
  return { allowed: true, counted };
}

/** Takes back the attempts counted (a success, or a refusal): each key loses one, in the window it was counted in, and nothing else. */
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
export async function purgeSignInAttempts(db: Executor, before: string): Promise<number> {
  const removed = await runSql<{ attempt_key: string }>(
    db,
    `delete from operator_sign_in_attempts where window_started_at < ? and attempt_key in
    (select attempt_key from operator_sign_in_attempts where window_started_at < ?${engineSql(db).claimRows})
    returning attempt_key`,
    [before, before],
  );
  return removed.length;
}
