import assert from 'node:assert/strict';
import { afterEach, beforeEach, test, mock } from 'node:test';
import { withTimeBudget, withTimeout } from '../../src/http/with-timeout.js';
import type { TimeBudget } from '../../src/runtime/time-budget.js';

/**
 * The request time-out's length, on node:test's fake timers: settled or not at each millisecond that
 * matters, never a window of wall-clock time (test/integration/limits.test.ts checks the 503 on a
 * real service by the order of events).
 */
const LIMIT_MS = 300;
beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 }));
afterEach(() => mock.timers.reset());

/** The promise's state now, after the microtasks queued so far have run. */
async function stateOf(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => {
      state = 'resolved';
    },
    () => {
      state = 'rejected';
    },
  );
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  return state;
}

test('withTimeout: pending one millisecond before the limit, 503 UNAVAILABLE at it', async () => {
  const answer = withTimeout(new Promise(() => {}), LIMIT_MS);
  answer.catch(() => {});
  mock.timers.tick(LIMIT_MS - 1);
  assert.equal(await stateOf(answer), 'pending');
  mock.timers.tick(1);
  await assert.rejects(answer, (error: { code?: string }) => error.code === 'UNAVAILABLE');
});

test('withTimeBudget: work that has not claimed its commit is answered 503 at the limit and told to roll back', async () => {
  let seen: TimeBudget | null = null;
  const answer = withTimeBudget((budget) => {
    seen = budget;
    return new Promise(() => {});
  }, LIMIT_MS);
  answer.catch(() => {});
  mock.timers.tick(LIMIT_MS - 1);
  assert.equal(await stateOf(answer), 'pending');
  assert.equal(seen!.expired, false);
  mock.timers.tick(1);
  await assert.rejects(answer, (error: { code?: string }) => error.code === 'UNAVAILABLE');
  assert.equal(seen!.claimCommit(), false, 'past the limit the work may not commit');
});

test('withTimeBudget: work that claimed its commit is answered as it turns out; a store that never answers is given up after the limit again', async () => {
  let finish: (value: string) => void = () => {};
  const committed = withTimeBudget((budget) => {
    assert.equal(budget.claimCommit(), true);
    return new Promise<string>((resolve) => {
      finish = resolve;
    });
  }, LIMIT_MS);
  mock.timers.tick(LIMIT_MS + 10);
  assert.equal(await stateOf(committed), 'pending');
  finish('stored');
  assert.equal(await stateOf(committed), 'resolved');
  assert.equal(await committed, 'stored');

  const stalled = withTimeBudget((budget) => {
    budget.claimCommit();
    return new Promise(() => {});
  }, LIMIT_MS);
  stalled.catch(() => {});
  // Step by step: the second timer is set when the first fires.
  mock.timers.tick(LIMIT_MS);
  assert.equal(await stateOf(stalled), 'pending');
  mock.timers.tick(LIMIT_MS - 1);
  assert.equal(await stateOf(stalled), 'pending');
  mock.timers.tick(1);
  await assert.rejects(stalled, (error: { code?: string }) => error.code === 'UNAVAILABLE');
});

/** The timers that would keep this process waiting, on the real clock. */
function pendingTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

test('withTimeout and withTimeBudget leave no timer pending once the work is answered', async () => {
  mock.timers.reset();
  const before = pendingTimers();
  assert.equal(await withTimeout(Promise.resolve('read'), 1_000), 'read');
  assert.equal(pendingTimers(), before, 'withTimeout');
  assert.equal(await withTimeBudget(async () => 'stored', 1_000), 'stored');
  // The timers are cleared just after the answer settles: one turn of the event loop later.
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(pendingTimers(), before, 'withTimeBudget');
});
