import { errors } from '../errors/api-error.js';

/**
 * Answers 503 UNAVAILABLE when `work` takes longer than `ms`. The work itself goes on and commits
 * or rolls back on its own; a client that retries (with its Idempotency-Key) learns which.
 */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(errors.unavailable(1)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
