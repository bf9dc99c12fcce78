/**
 * A request's time limit as its transaction sees it (src/runtime/time-budget.ts): what is left, when
 * the limit passes, and which of the work's commit and the limit comes first; Date on a mocked clock.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { TimeBudget } from '../../src/runtime/time-budget.js';

beforeEach(() => mock.timers.enable({ apis: ['Date'], now: 1_000_000 }));
afterEach(() => mock.timers.reset());

test('the time left counts down from the limit, past zero while nobody marks it passed', () => {
  const budget = new TimeBudget(500);
  assert.equal(budget.remainingMs(), 500);
  mock.timers.tick(200);
  assert.equal(budget.remainingMs(), 300);
  mock.timers.tick(300);
  assert.equal(budget.remainingMs(), 0);
  mock.timers.tick(50);
  assert.equal(budget.remainingMs(), -50);
  assert.equal(budget.expired, false);
});

test('once marked passed: nothing left, expired, and the commit is refused', () => {
  const budget = new TimeBudget(500);
  assert.equal(budget.expired, false);
  assert.equal(budget.expire(), true);
  assert.equal(budget.expired, true);
  assert.equal(budget.remainingMs(), 0);
  assert.equal(budget.claimCommit(), false);
  assert.equal(budget.claimCommit(), false);
});

test('a commit claimed before the limit is kept: the limit passing then cannot stop it', () => {
  const budget = new TimeBudget(500);
  assert.equal(budget.claimCommit(), true);
  assert.equal(budget.claimCommit(), true);
  assert.equal(budget.expired, false);
  assert.equal(budget.expire(), false);
  assert.equal(budget.expired, true);
  assert.equal(budget.remainingMs(), 0);
});

test('marking the limit passed twice says the same both times', () => {
  const budget = new TimeBudget(0);
  assert.equal(budget.remainingMs(), 0);
  assert.equal(budget.expire(), true);
  assert.equal(budget.expire(), true);
});
