import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MOST_REMEMBERED, REMEMBER_REFUSAL_MS, RememberedRefusals } from '../../src/console/remembered-refusals.js';

/** Sign-in refusals remembered in memory: for a minute at most, never past the store's window, at most 10 000 keys. */

const T0 = Date.parse('2026-11-25T08:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const FAR = T0 + 3_600_000;

test('the documented figures', () => {
  assert.equal(REMEMBER_REFUSAL_MS, 60_000);
  assert.equal(MOST_REMEMBERED, 10_000);
});

test('a refusal is remembered for a minute: refused up to the last millisecond, not at the minute', () => {
  const refusals = new RememberedRefusals();
  assert.equal(refusals.refuses(['a'], at(0)), false);
  refusals.remember('a', at(0), FAR);
  assert.equal(refusals.size, 1);
  assert.equal(refusals.refuses(['b'], at(0)), false);
  assert.equal(refusals.refuses(['a'], at(0)), true);
  assert.equal(refusals.refuses(['b', 'a'], at(59_999)), true);
  assert.equal(refusals.size, 1);
  assert.equal(refusals.refuses(['a'], at(60_000)), false);
  assert.equal(refusals.size, 0, 'a refusal run out is dropped when looked at');
});

test('a window that ends within the minute ends the refusal with it', () => {
  const refusals = new RememberedRefusals();
  refusals.remember('a', at(0), T0 + 10_000);
  assert.equal(refusals.refuses(['a'], at(9_999)), true);
  assert.equal(refusals.refuses(['a'], at(10_000)), false);
});

test('remembering a key again starts its time again, and moves it to the newest', () => {
  const refusals = new RememberedRefusals();
  refusals.remember('a', at(0), FAR);
  refusals.remember('a', at(30_000), FAR);
  assert.equal(refusals.size, 1);
  assert.equal(refusals.refuses(['a'], at(89_999)), true);
  assert.equal(refusals.refuses(['a'], at(90_000)), false);
});

test('forget drops the keys named; forgetPast drops those run out at that time, up to and including it', () => {
  const refusals = new RememberedRefusals();
  refusals.remember('a', at(0), FAR);
  refusals.remember('b', at(0), FAR);
  refusals.remember('c', at(1), FAR);
  refusals.forget(['a', 'zzz']);
  assert.equal(refusals.size, 2);
  assert.equal(refusals.refuses(['a'], at(1)), false);
  refusals.forgetPast(at(59_999));
  assert.equal(refusals.size, 2);
  refusals.forgetPast(at(60_000));
  assert.equal(refusals.size, 1);
  assert.equal(refusals.refuses(['c'], at(60_000)), true);
  refusals.forgetPast(at(60_001));
  assert.equal(refusals.size, 0);
});

test('keys run out stay counted until forgotten or looked at, while there is room', () => {
  const refusals = new RememberedRefusals();
  refusals.remember('a', at(0), FAR);
  refusals.remember('b', at(60_000), FAR);
  assert.equal(refusals.size, 2);
});

test('at the most remembered, the run out go first, and then the oldest', () => {
  const refusals = new RememberedRefusals();
  refusals.remember('first', at(0), FAR);
  refusals.remember('short', at(0), T0 + 1_000);
  for (let i = 2; i < MOST_REMEMBERED; i++) refusals.remember(`k${i}`, at(10_000), FAR);
  assert.equal(refusals.size, MOST_REMEMBERED);
  // At 30 s only "short" has run out: it goes, and nothing else; the oldest, "first", stays.
  refusals.remember('new1', at(30_000), FAR);
  assert.equal(refusals.size, MOST_REMEMBERED);
  assert.equal(refusals.refuses(['first'], at(30_000)), true);
  assert.equal(refusals.refuses(['k2'], at(30_000)), true);
  assert.equal(refusals.refuses(['new1'], at(30_000)), true);
  // Nothing has run out now: the oldest ("first") goes to make room, and only it.
  refusals.remember('new2', at(30_001), FAR);
  assert.equal(refusals.size, MOST_REMEMBERED);
  assert.equal(refusals.refuses(['first'], at(30_001)), false);
  assert.equal(refusals.refuses(['k2'], at(30_001)), true);
  assert.equal(refusals.refuses(['new1', 'new2'], at(30_001)), true);
  // Remembering a key already there makes no room for it.
  refusals.remember('k2', at(30_002), FAR);
  assert.equal(refusals.size, MOST_REMEMBERED);
  assert.equal(refusals.refuses(['k3'], at(30_002)), true);
});
