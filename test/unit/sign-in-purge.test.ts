import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { RememberedRefusals } from '../../src/console/remembered-refusals.js';
import { SIGN_IN_PURGE_EVERY_MS, SignInPurge } from '../../src/console/sign-in-purge.js';
import { LOGIN_WINDOW_MS } from '../../src/console/sign-in.js';
import type { Store } from '../../src/store/store.js';

/**
 * The purge of ended sign-in windows (docs/security.md): it looks at the service's clock every
 * second and purges on the first look and then once a minute of that clock, never two at once,
 * starting again when the clock is set back. The timer is node's mock; the store answers on demand.
 */

const T0 = Date.parse('2026-11-25T08:00:00.000Z');

function setup() {
  let now = T0;
  const purges: string[] = [];
  const answers: { resolve: (count: number) => void; reject: (error: Error) => void }[] = [];
  const store = {
    write: (work: (tx: unknown) => Promise<number>) =>
      work({
        purgeSignInAttempts: (before: string) => {
          purges.push(before);
          return new Promise<number>((resolve, reject) => answers.push({ resolve, reject }));
        },
      }),
  } as unknown as Store;
  const logs: [string, unknown, string][] = [];
  const log = {
    debug: (object: unknown, message: string) => logs.push(['debug', object, message]),
    warn: (object: unknown, message: string) => logs.push(['warn', object, message]),
  } as unknown as FastifyBaseLogger;
  const refusals = new RememberedRefusals();
  const purge = new SignInPurge(store, () => new Date(now).toISOString(), refusals, log);
  return {
    purge,
    purges,
    answers,
    logs,
    refusals,
    setNow: (ms: number) => (now = ms),
    /** Lets the store's answer and what follows it run. */
    settle: () => new Promise((resolve) => setImmediate(resolve)),
  };
}

const before = (ms: number) => new Date(ms - LOGIN_WINDOW_MS).toISOString();

test('the purge runs once a minute of the service clock', () => {
  assert.equal(SIGN_IN_PURGE_EVERY_MS, 60_000);
});

test('the first look, a second after the start, purges the windows ended 15 minutes before the clock', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const s = setup();
  s.purge.start();
  t.mock.timers.tick(999);
  assert.deepEqual(s.purges, []);
  t.mock.timers.tick(1);
  assert.deepEqual(s.purges, [before(T0)]);
  s.answers[0]!.resolve(0);
  await s.settle();
  await s.purge.stop();
});

test('then once a minute by the clock: not at 59.999 seconds, at 60 seconds, whatever the timer', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const s = setup();
  s.purge.start();
  t.mock.timers.tick(1_000);
  s.answers[0]!.resolve(0);
  await s.settle();
  t.mock.timers.tick(120_000);
  assert.equal(s.purges.length, 1, 'the clock has not moved');
  s.setNow(T0 + 59_999);
  t.mock.timers.tick(1_000);
  assert.equal(s.purges.length, 1);
  s.setNow(T0 + 60_000);
  t.mock.timers.tick(1_000);
  assert.deepEqual(s.purges, [before(T0), before(T0 + 60_000)]);
  s.answers[1]!.resolve(0);
  await s.settle();
  s.setNow(T0 + 119_999);
  t.mock.timers.tick(1_000);
  assert.equal(s.purges.length, 2);
  s.setNow(T0 + 120_000);
  t.mock.timers.tick(1_000);
  assert.equal(s.purges.length, 3);
  s.answers[2]!.resolve(0);
  await s.settle();
  await s.purge.stop();
});

test('a clock set back purges at the next look', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const s = setup();
  s.purge.start();
  t.mock.timers.tick(1_000);
  s.answers[0]!.resolve(0);
  await s.settle();
  s.setNow(T0 - 1);
  t.mock.timers.tick(1_000);
  assert.deepEqual(s.purges, [before(T0), before(T0 - 1)]);
  s.answers[1]!.resolve(0);
  await s.settle();
  await s.purge.stop();
});

test('never two purges at once: a purge under way holds the next, which then waits its minute', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const s = setup();
  s.purge.start();
  t.mock.timers.tick(1_000);
  s.setNow(T0 + 120_000);
  t.mock.timers.tick(5_000);
  assert.equal(s.purges.length, 1);
  s.answers[0]!.resolve(0);
  await s.settle();
  t.mock.timers.tick(1_000);
  assert.deepEqual(s.purges, [before(T0), before(T0 + 120_000)]);
  s.answers[1]!.resolve(0);
  await s.settle();
  await s.purge.stop();
});

test('rows removed are logged at debug level, none removed is not logged; a failure is a warning and is tried again', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const s = setup();
  s.purge.start();
  t.mock.timers.tick(1_000);
  s.answers[0]!.resolve(0);
  await s.settle();
  assert.deepEqual(s.logs, []);
  s.setNow(T0 + 60_000);
  t.mock.timers.tick(1_000);
  s.answers[1]!.resolve(3);
  await s.settle();
  assert.deepEqual(s.logs, [['debug', { count: 3 }, 'ended sign-in windows removed']]);
  s.setNow(T0 + 120_000);
  t.mock.timers.tick(1_000);
  s.answers[2]!.reject(new Error('database is locked'));
  await s.settle();
  assert.deepEqual(s.logs[1], [
    'warn',
    { cause: 'database is locked' },
    'could not remove ended sign-in windows; tried again later',
  ]);
  s.setNow(T0 + 180_000);
  t.mock.timers.tick(1_000);
  assert.equal(s.purges.length, 4);
  s.answers[3]!.resolve(1);
  await s.settle();
  await s.purge.stop();
});

test('each purge also forgets the remembered refusals that have run out', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const s = setup();
  s.refusals.remember('gone', new Date(T0 - 60_000).toISOString(), T0 + 3_600_000);
  s.refusals.remember('kept', new Date(T0).toISOString(), T0 + 3_600_000);
  s.purge.start();
  t.mock.timers.tick(1_000);
  assert.equal(s.refusals.size, 1);
  assert.equal(s.refusals.refuses(['kept'], new Date(T0).toISOString()), true);
  s.answers[0]!.resolve(0);
  await s.settle();
  await s.purge.stop();
});

test('stop ends the looks and waits for the purge under way', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const s = setup();
  s.purge.start();
  t.mock.timers.tick(1_000);
  let stopped = false;
  const stopping = s.purge.stop().then(() => (stopped = true));
  await s.settle();
  assert.equal(stopped, false, 'waits for the purge');
  s.answers[0]!.resolve(0);
  await stopping;
  s.setNow(T0 + 600_000);
  t.mock.timers.tick(10_000);
  assert.equal(s.purges.length, 1);
  await new SignInPurge({} as Store, () => '', new RememberedRefusals(), {} as FastifyBaseLogger).stop();
});
