/**
 * The durations the configuration reads (src/duration.ts): a whole number from 1 to 999999 and one
 * unit of s, m, h or d, blanks around it ignored; anything else is no duration.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDuration } from '../../src/duration.js';

test('each unit in milliseconds', () => {
  assert.equal(parseDuration('1s'), 1000);
  assert.equal(parseDuration('1m'), 60_000);
  assert.equal(parseDuration('1h'), 3_600_000);
  assert.equal(parseDuration('1d'), 86_400_000);
  assert.equal(parseDuration('2m'), 120_000);
  assert.equal(parseDuration('90d'), 90 * 86_400_000);
  assert.equal(parseDuration('15m'), 900_000);
});

test('from 1 to six digits, without a leading zero', () => {
  assert.equal(parseDuration('9s'), 9000);
  assert.equal(parseDuration('10s'), 10_000);
  assert.equal(parseDuration('100000s'), 100_000_000);
  assert.equal(parseDuration('999999s'), 999_999_000);
  assert.equal(parseDuration('1000000s'), null);
  assert.equal(parseDuration('0s'), null);
  assert.equal(parseDuration('05s'), null);
  assert.equal(parseDuration('00s'), null);
});

test('blanks around it are ignored', () => {
  assert.equal(parseDuration(' 5m '), 300_000);
  assert.equal(parseDuration('\t12h\n'), 43_200_000);
});

test('anything else is no duration', () => {
  for (const text of [
    '',
    ' ',
    's',
    '5',
    '5ms',
    '5 m',
    '5S',
    '5M',
    '5w',
    'x5m',
    '5mx',
    '-5m',
    '+5m',
    '1.5h',
    '5m5s',
    'm5',
  ]) {
    assert.equal(parseDuration(text), null, JSON.stringify(text));
  }
});
