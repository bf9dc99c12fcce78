import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from '../../src/http/rate-limiter.js';

/**
 * The token bucket of src/http/rate-limiter.ts, with time given by the test: `burst` requests at
 * once, refilled at `ratePerSecond`, never above `burst`. Each test names the instant of every request.
 */
const T0 = Date.parse('2026-11-25T08:00:00.000Z');

/** Which of the requests at these instants (ms after T0) are served, in order. */
function served(limiter: RateLimiter, key: string, offsetsMs: readonly number[]): boolean[] {
  return offsetsMs.map((offset) => limiter.take(key, T0 + offset).allowed);
}

test('a key never seen has a full bucket: `burst` requests at one instant are served, the next is refused', () => {
  const limiter = new RateLimiter(2, 3);
  assert.deepEqual(served(limiter, 'tok_a', [0, 0, 0, 0, 0]), [true, true, true, false, false]);
});

test('an empty bucket serves one request per 1/rate seconds, not before', () => {
  const early = new RateLimiter(2, 3);
  served(early, 'tok_a', [0, 0, 0]);
  assert.deepEqual(served(early, 'tok_a', [499]), [false], 'before half a second');
  const onTime = new RateLimiter(2, 3);
  served(onTime, 'tok_a', [0, 0, 0]);
  assert.deepEqual(served(onTime, 'tok_a', [500, 500, 1000, 1000]), [true, false, true, false]);
});

test('a bucket idle for an hour holds `burst` requests, no more', () => {
  const limiter = new RateLimiter(2, 3);
  served(limiter, 'tok_a', [0]);
  const hour = 3_600_000;
  assert.deepEqual(served(limiter, 'tok_a', [hour, hour, hour, hour]), [true, true, true, false]);
});

test('each key has its own bucket', () => {
  const limiter = new RateLimiter(1, 1);
  assert.deepEqual(
    ['tok_a', 'tok_b', 'tok_a', 'tok_b', 'tok_c'].map((key) => limiter.take(key, T0).allowed),
    [true, true, false, false, true],
  );
});

test('a served request states the limit, what is left, the seconds until full and the policy; no Retry-After', () => {
  const limiter = new RateLimiter(2, 3);
  assert.deepEqual(
    [0, 0, 0].map(() => limiter.take('tok_a', T0).headers),
    [
      { 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'ratelimit-reset': '1', 'ratelimit-policy': '3;w=2' },
      { 'ratelimit-limit': '3', 'ratelimit-remaining': '1', 'ratelimit-reset': '1', 'ratelimit-policy': '3;w=2' },
      { 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '2', 'ratelimit-policy': '3;w=2' },
    ],
  );
});

test('a refused request says after how many whole seconds one token is back, at least 1', () => {
  const limiter = new RateLimiter(2, 3);
  served(limiter, 'tok_a', [0, 0, 0]);
  assert.deepEqual(limiter.take('tok_a', T0).headers, {
    'ratelimit-limit': '3',
    'ratelimit-remaining': '0',
    'ratelimit-reset': '2',
    'ratelimit-policy': '3;w=2',
    'retry-after': '1',
  });
  const slow = new RateLimiter(0.25, 1);
  served(slow, 'tok_a', [0]);
  assert.equal(slow.take('tok_a', T0 + 1_000).headers['retry-after'], '3', 'a quarter of a token back after 1 s of 4');
});

test('the policy window is burst/rate seconds, at least 1', () => {
  assert.equal(new RateLimiter(50, 100).take('tok_a', T0).headers['ratelimit-policy'], '100;w=2');
  assert.equal(new RateLimiter(1000, 10).take('tok_a', T0).headers['ratelimit-policy'], '10;w=1');
});

test('past 100,000 buckets, forgetting the full ones changes no decision: a key not yet full keeps its count', () => {
  const limiter = new RateLimiter(1, 2);
  served(limiter, 'busy', [0, 0]);
  for (let index = 0; index < 100_000; index += 1) limiter.take(`tok_${index}`, T0);
  // A second later every bucket is full but the busy one's (one token of two): the next new key makes the limiter forget them.
  assert.equal(limiter.take('another', T0 + 1_000).allowed, true);
  assert.deepEqual(served(limiter, 'busy', [1_000, 1_000]), [true, false], 'the busy key keeps its bucket');
  assert.deepEqual(served(limiter, 'tok_0', [1_000, 1_000, 1_000]), [true, true, false]);
});

test('past 100,000 buckets the limiter forgets those refilled to `burst` exactly or more, and only those', () => {
  const limiter = new RateLimiter(4, 2);
  // One token of two at T0: a quarter of a second at 4 a second refills it to exactly 2.
  limiter.take('early', T0);
  for (let index = 0; index < 99_999; index += 1) limiter.take(`tok_${index}`, T0 + 250);
  assert.equal(limiter.trackedKeys, 100_000, 'at 100,000 buckets nothing is forgotten yet');
  limiter.take('another', T0 + 250);
  // 100,001 buckets: the early one is full and goes; every other holds one token of two and stays.
  assert.equal(limiter.trackedKeys, 100_000);
});
