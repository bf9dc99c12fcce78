/**
 * A background task run again some time after each run ends (src/runtime/polling-loop.ts): never two
 * runs at once, a failure reported and the loop going on, and a stop that waits for the run under way.
 * setTimeout on a mocked clock.
 */
import assert from 'node:assert/strict';
import { mock, test, type TestContext } from 'node:test';
import { pollEvery } from '../../src/runtime/polling-loop.js';

/** setTimeout on this test's mocked clock, put back when the test ends. */
function mockTimers(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  return t.mock.timers;
}

/** Lets the promise callbacks waiting run (setImmediate is not mocked). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A run that ends when the test says. */
function controlledRun() {
  const pending: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const run = mock.fn(() => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })));
  return { run, end: () => pending.shift()!.resolve(), fail: (error: unknown) => pending.shift()!.reject(error) };
}

test('the first run starts after the interval, the next one the interval after the previous ended', async (t) => {
  const timers = mockTimers(t);
  const { run, end } = controlledRun();
  const failed = mock.fn();
  const loop = pollEvery(100, run, failed);
  timers.tick(99);
  assert.equal(run.mock.callCount(), 0);
  timers.tick(1);
  assert.equal(run.mock.callCount(), 1);
  // Never two at once: a run that takes long delays the next.
  timers.tick(1000);
  await settle();
  assert.equal(run.mock.callCount(), 1);
  end();
  await settle();
  timers.tick(99);
  assert.equal(run.mock.callCount(), 1);
  timers.tick(1);
  assert.equal(run.mock.callCount(), 2);
  end();
  await settle();
  timers.tick(100);
  assert.equal(run.mock.callCount(), 3);
  assert.equal(failed.mock.callCount(), 0);
  end();
  await loop.stop();
});

test('a failed run is reported and the loop goes on', async (t) => {
  const timers = mockTimers(t);
  const { run, end, fail } = controlledRun();
  const failed = mock.fn();
  const loop = pollEvery(50, run, failed);
  timers.tick(50);
  const error = new Error('the database is away');
  fail(error);
  await settle();
  assert.equal(failed.mock.callCount(), 1);
  assert.equal(failed.mock.calls[0]!.arguments[0], error);
  timers.tick(50);
  assert.equal(run.mock.callCount(), 2);
  end();
  await settle();
  assert.equal(failed.mock.callCount(), 1);
  await loop.stop();
});

test('stopped before its first run, it never runs', async (t) => {
  const timers = mockTimers(t);
  const { run } = controlledRun();
  const loop = pollEvery(100, run, () => {});
  await loop.stop();
  timers.tick(1000);
  assert.equal(run.mock.callCount(), 0);
});

test('stopped between runs, it runs no more', async (t) => {
  const timers = mockTimers(t);
  const { run, end } = controlledRun();
  const loop = pollEvery(100, run, () => {});
  timers.tick(100);
  end();
  await settle();
  await loop.stop();
  timers.tick(1000);
  assert.equal(run.mock.callCount(), 1);
});

test('stopped during a run, it waits for that run to end and starts no other', async (t) => {
  const timers = mockTimers(t);
  const { run, end } = controlledRun();
  const loop = pollEvery(100, run, () => {});
  timers.tick(100);
  let stopped = false;
  const stopping = loop.stop().then(() => (stopped = true));
  await settle();
  assert.equal(stopped, false);
  end();
  await stopping;
  assert.equal(stopped, true);
  timers.tick(1000);
  assert.equal(run.mock.callCount(), 1);
});
