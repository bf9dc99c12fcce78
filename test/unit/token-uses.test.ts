/**
 * Noting tokens' last uses in batches (src/http/token-uses.ts), on a store stand-in that records what
 * it is asked to write, with node:test's fake timers for the minute a batch waits.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { LAST_USE_PRECISION_MS, LAST_USE_WRITE_DELAY_MS, TokenUses } from '../../src/http/token-uses.js';
import type { TokenUse } from '../../src/store/repositories/tokens-repository.js';
import type { Store } from '../../src/store/store.js';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => mock.timers.reset());

const at = (ms: number) => new Date(Date.UTC(2026, 10, 25, 10) + ms).toISOString();

/** A store whose writes record the uses they were given, and fail while `failing` is set. */
function fakeStore() {
  const state = { written: [] as TokenUse[][], failing: false };
  const store = {
    write: async (work: (tx: { recordTokenUses(uses: TokenUse[]): Promise<void> }) => Promise<void>) =>
      work({
        recordTokenUses: async (uses) => {
          if (state.failing) throw new Error('the store is away');
          state.written.push(uses);
        },
      }),
  } as unknown as Store;
  return { store, state };
}

/** For the tests where every write succeeds. */
function failOnError(error: unknown): never {
  throw error;
}

/** Lets the writes begun so far settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

test('the precision and the delay: five minutes and one minute', () => {
  assert.equal(LAST_USE_PRECISION_MS, 300_000);
  assert.equal(LAST_USE_WRITE_DELAY_MS, 60_000);
});

test('uses wait a minute, then are written in one batch, the first use of each token', async () => {
  const { store, state } = fakeStore();
  const uses = new TokenUses(store, failOnError);
  uses.used('t1', at(0));
  uses.used('t2', at(1_000));
  uses.used('t1', at(2_000));
  mock.timers.tick(LAST_USE_WRITE_DELAY_MS - 1);
  await settle();
  assert.deepEqual(state.written, []);
  mock.timers.tick(1);
  await settle();
  assert.deepEqual(state.written, [
    [
      { tokenId: 't1', usedAt: at(0) },
      { tokenId: 't2', usedAt: at(1_000) },
    ],
  ]);
  // Nothing noted since: the next minute writes nothing.
  mock.timers.tick(LAST_USE_WRITE_DELAY_MS);
  await uses.close();
  assert.equal(state.written.length, 1);
});

test("a token's use is noted again only from five minutes after the last noted one", async () => {
  const { store, state } = fakeStore();
  const uses = new TokenUses(store, failOnError);
  uses.used('t1', at(0));
  await uses.close();
  uses.used('t1', at(LAST_USE_PRECISION_MS - 1));
  await uses.close();
  uses.used('t1', at(LAST_USE_PRECISION_MS));
  await uses.close();
  uses.used('t1', at(LAST_USE_PRECISION_MS + 1));
  await uses.close();
  assert.deepEqual(state.written, [
    [{ tokenId: 't1', usedAt: at(0) }],
    [{ tokenId: 't1', usedAt: at(LAST_USE_PRECISION_MS) }],
  ]);
});

test('close writes what waits at once, and a batch is written once', async () => {
  const { store, state } = fakeStore();
  const uses = new TokenUses(store, failOnError);
  uses.used('t1', at(0));
  uses.used('t2', at(0));
  await uses.close();
  assert.deepEqual(state.written, [
    [
      { tokenId: 't1', usedAt: at(0) },
      { tokenId: 't2', usedAt: at(0) },
    ],
  ]);
  // A use after a close waits a whole minute of its own: the wait the close ended is gone.
  mock.timers.tick(LAST_USE_WRITE_DELAY_MS / 2);
  uses.used('t3', at(0));
  mock.timers.tick(LAST_USE_WRITE_DELAY_MS / 2);
  await settle();
  assert.equal(state.written.length, 1);
  mock.timers.tick(LAST_USE_WRITE_DELAY_MS / 2);
  await settle();
  assert.deepEqual(state.written[1], [{ tokenId: 't3', usedAt: at(0) }]);
  await uses.close();
  assert.equal(state.written.length, 2);
});

test('a failed write is reported, and its tokens are noted again at their next use', async () => {
  const { store, state } = fakeStore();
  const errors: unknown[] = [];
  const uses = new TokenUses(store, (error) => errors.push(error));
  uses.used('t1', at(0));
  uses.used('t2', at(0));
  state.failing = true;
  await uses.close();
  assert.deepEqual(
    errors.map((error) => (error as Error).message),
    ['the store is away'],
  );
  state.failing = false;
  uses.used('t1', at(1_000));
  await uses.close();
  assert.deepEqual(state.written, [[{ tokenId: 't1', usedAt: at(1_000) }]]);
  // The writes go on after a failure.
  uses.used('t3', at(0));
  await uses.close();
  assert.deepEqual(state.written[1], [{ tokenId: 't3', usedAt: at(0) }]);
});

test('past 10,000 tokens noted, what was noted when is forgotten', async () => {
  const { store, state } = fakeStore();
  const uses = new TokenUses(store, failOnError);
  for (let i = 0; i < 10_000; i++) uses.used(`t${i}`, at(0));
  await uses.close();
  // Still remembered: not noted again.
  uses.used('t0', at(1));
  await uses.close();
  assert.equal(state.written.length, 1);
  // One more token: the 10,000 are forgotten, so t0 is noted again.
  uses.used('t10000', at(2));
  uses.used('t0', at(3));
  await uses.close();
  assert.deepEqual(state.written[1], [
    { tokenId: 't10000', usedAt: at(2) },
    { tokenId: 't0', usedAt: at(3) },
  ]);
});
