import { errors } from '../errors/api-error.js';
import { TimeBudget } from '../runtime/time-budget.js';

/** Answers 503 UNAVAILABLE when `work`, which only reads, takes longer than `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(errors.unavailable(1)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Answers 503 UNAVAILABLE when `work`, which writes, has not reached its commit within `ms`; the
 * work then rolls back when it resumes (see TimeBudget), so the 503 is true: nothing was done. Work
 * that has reached its commit is answered as it turns out, a commit's time after the limit. Only a
 * store that stops answering in the middle of a commit is given up on, after `ms` more: its outcome
 * is then unknown, as after a dropped connection, and a retry with the same Idempotency-Key learns it.
 */
export function withTimeBudget<T>(work: (budget: TimeBudget) => Promise<T>, ms: number): Promise<T> {
  const budget = new TimeBudget(ms);
  return new Promise<T>((resolve, reject) => {
    let grace: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      if (budget.expire()) reject(errors.unavailable(1));
      else grace = setTimeout(() => reject(errors.unavailable(1)), ms);
    }, ms);
    work(budget)
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer);
        clearTimeout(grace);
      });
  });
}
