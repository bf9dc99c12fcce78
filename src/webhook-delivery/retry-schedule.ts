/** ±20 %: receivers that failed together are not all retried at the same instant. */
const JITTER = 0.2;

/**
 * When the attempt after failed attempt number `failedAttempts` (1 for the first) is due, or null
 * when the schedule is spent and the delivery has failed. `random` is Math.random unless a test pins it.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  failedAttempts: number,
  now: number,
  random: () => number = Math.random,
): number | null {
  const delay = schedule[failedAttempts - 1];
  if (delay === undefined) return null;
  return now + Math.round(delay * (1 - JITTER + 2 * JITTER * random()));
}
