import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DatabaseNotReached, pauseAfter, untilDatabaseAnswers } from '../../src/cli/wait-for-database.js';

/**
 * serve's wait for a database at start (src/cli/wait-for-database.ts), on a test clock: the pauses
 * double from a quarter second to five, the last is cut to the time left, and only an outage is
 * tried again.
 */
const T0 = Date.parse('2026-11-27T08:00:00.000Z');

class Outage extends Error {}

/** A wait whose sleeping moves a test clock; `pauses` records each pause asked for. */
function testWait(limitMs: number) {
  let now = T0;
  const pauses: number[] = [];
  const retries: string[] = [];
  return {
    pauses,
    retries,
    elapsed: () => now - T0,
    wait: {
      limitMs,
      clock: () => new Date(now).toISOString(),
      sleep: async (ms: number) => {
        pauses.push(ms);
        now += ms;
      },
      isUnavailable: (error: unknown) => error instanceof Outage,
      onRetry: (cause: Error, pauseMs: number) => retries.push(`${cause.message} ${pauseMs}`),
    },
  };
}

/** Work that fails with `failures` outages, then answers `answer`. */
function failingTimes(failures: number, answer = 'migrated') {
  let calls = 0;
  const work = async () => {
    calls += 1;
    if (calls <= failures) throw new Outage(`refused ${calls}`);
    return answer;
  };
  return { work, calls: () => calls };
}

test('the pauses double from 250 ms and stay at 5 s', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 20].map(pauseAfter), [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
});

test('work that answers at once is run once, with no pause', async () => {
  const t = testWait(60_000);
  const work = failingTimes(0);
  assert.equal(await untilDatabaseAnswers(work.work, t.wait), 'migrated');
  assert.equal(work.calls(), 1);
  assert.deepEqual(t.pauses, []);
});

test('after three outages the fourth try answers: three pauses, each announced with its cause', async () => {
  const t = testWait(60_000);
  const work = failingTimes(3);
  assert.equal(await untilDatabaseAnswers(work.work, t.wait), 'migrated');
  assert.equal(work.calls(), 4);
  assert.deepEqual(t.pauses, [250, 500, 1000]);
  assert.deepEqual(t.retries, ['refused 1 250', 'refused 2 500', 'refused 3 1000']);
});

test('the last pause is cut to the time left, and the next outage ends the wait, naming the limit and the cause', async () => {
  const t = testWait(1_000);
  const work = failingTimes(100);
  await assert.rejects(untilDatabaseAnswers(work.work, t.wait), (error: Error) => {
    assert.ok(error instanceof DatabaseNotReached);
    assert.equal(error.message, 'the database did not answer within DATABASE_START_WAIT_MS (1000 ms): refused 4');
    return true;
  });
  assert.deepEqual(t.pauses, [250, 500, 250]);
  assert.equal(t.elapsed(), 1_000);
  assert.equal(work.calls(), 4);
});

test('a limit of 0: one try, no pause', async () => {
  const t = testWait(0);
  const work = failingTimes(1);
  await assert.rejects(untilDatabaseAnswers(work.work, t.wait), DatabaseNotReached);
  assert.equal(work.calls(), 1);
  assert.deepEqual(t.pauses, []);
});

test('a failure that is no outage is thrown as it is, at once', async () => {
  const t = testWait(60_000);
  const fault = new Error('role "x" does not exist');
  await assert.rejects(
    untilDatabaseAnswers(async () => {
      throw fault;
    }, t.wait),
    (error) => error === fault,
  );
  assert.deepEqual(t.pauses, []);
});

test('an outage, then a fault: the fault is thrown after one pause', async () => {
  const t = testWait(60_000);
  let calls = 0;
  const fault = new Error('syntax error');
  await assert.rejects(
    untilDatabaseAnswers(async () => {
      calls += 1;
      throw calls === 1 ? new Outage('refused') : fault;
    }, t.wait),
    (error) => error === fault,
  );
  assert.deepEqual(t.pauses, [250]);
});
