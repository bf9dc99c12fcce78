/** The system clock (src/runtime/clock.ts): the current time as an ISO-8601 UTC string, Date on a mocked clock. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/runtime/clock.js';

test('the system clock tells the current time in ISO-8601 UTC', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 0, 31, 23, 59, 58, 7) });
  assert.equal(systemClock(), '2026-01-31T23:59:58.007Z');
  t.mock.timers.tick(2000);
  assert.equal(systemClock(), '2026-02-01T00:00:00.007Z');
});
