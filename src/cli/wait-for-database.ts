import type { Clock } from '../runtime/clock.js';

/**
 * How `serve` waits for a database that does not answer yet at start (DATABASE_START_WAIT_MS): a
 * container runtime or systemd often starts the service beside its database, or a moment before it
 * takes connections. docs/operations.md, "Starting before the database".
 */
export interface DatabaseWait {
  /** How long to keep trying after the first failure; 0 tries once. */
  limitMs: number;
  clock: Clock;
  sleep(ms: number): Promise<void>;
  /** Whether a failure means "not reachable yet" (tried again) rather than a fault to report at once. */
  isUnavailable(error: unknown): boolean;
  /** Told before each pause: why the last try failed, and how long until the next. */
  onRetry(cause: Error, delayMs: number): void;
}

/** The database still did not answer when the start wait ran out. */
export class DatabaseNotReached extends Error {
  constructor(limitMs: number, cause: Error) {
    super(`the database did not answer within DATABASE_START_WAIT_MS (${limitMs} ms): ${cause.message}`);
  }
}

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5_000;

/** The pause after the `attempt`-th failure (1-based): doubling from a quarter second, at most five. */
export function pauseAfter(attempt: number): number {
  return Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (attempt - 1));
}

/**
 * Runs `work` until it succeeds, while its failures say the database is unavailable and the wait
 * has time left; the last pause is cut to what remains. Any other failure is thrown at once.
 */
export async function untilDatabaseAnswers<T>(work: () => Promise<T>, wait: DatabaseWait): Promise<T> {
  const started = Date.parse(wait.clock());
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!wait.isUnavailable(error)) throw error;
      const left = started + wait.limitMs - Date.parse(wait.clock());
      if (left <= 0) throw new DatabaseNotReached(wait.limitMs, error as Error);
      const pause = Math.min(pauseAfter(attempt), left);
      wait.onRetry(error as Error, pause);
      await wait.sleep(pause);
    }
  }
}
