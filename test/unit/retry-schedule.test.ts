import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextAttemptAt } from '../../src/webhook-delivery/retry-schedule.js';

/**
 * docs/webhooks.md, "Retries": after failed attempt n the next waits the n-th delay of the schedule,
 * give or take 20 %. The random source is pinned, so the bounds are asserted exactly.
 */
const SCHEDULE = [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 86_400_000];
const NOW = Date.parse('2026-11-25T08:00:00.000Z');
const JUST_UNDER_ONE = 1 - Number.EPSILON / 2;

const delayWith = (failedAttempts: number, random: number) =>
  nextAttemptAt(SCHEDULE, failedAttempts, NOW, () => random)! - NOW;

test('the lowest random value gives 80 % of the delay, the middle one the delay, the highest 120 %', () => {
  SCHEDULE.forEach((delay, index) => {
    const attempt = index + 1;
    assert.deepEqual(
      [delayWith(attempt, 0), delayWith(attempt, 0.5), delayWith(attempt, JUST_UNDER_ONE)],
      [delay * 0.8, delay, delay * 1.2],
      `after failed attempt ${attempt}`,
    );
  });
});

test('the jitter falls on both sides of the delay: half of the random range below it, half above', () => {
  const delay = SCHEDULE[1]!;
  const steps = 1_000;
  const delays = Array.from({ length: steps }, (_, i) => delayWith(2, i / steps));
  assert.equal(delays.filter((value) => value < delay).length, steps / 2);
  assert.equal(delays.filter((value) => value > delay).length, steps / 2 - 1);
  assert.equal(Math.min(...delays), delay * 0.8);
  assert.equal(Math.max(...delays), delay * 1.2 - Math.round((delay * 0.4) / steps));
  for (let i = 1; i < delays.length; i += 1)
    assert.ok(delays[i]! >= delays[i - 1]!, 'a larger random value never gives a shorter wait');
});

test('the schedule spent, there is no next attempt', () => {
  assert.equal(
    nextAttemptAt(SCHEDULE, SCHEDULE.length + 1, NOW, () => 0.5),
    null,
  );
  assert.equal(
    nextAttemptAt([], 1, NOW, () => 0.5),
    null,
  );
  assert.equal(
    nextAttemptAt([1_000], 1, NOW, () => 0.5),
    NOW + 1_000,
  );
});
