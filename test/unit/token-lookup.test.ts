/**
 * The token cache in front of the store (src/http/token-lookup.ts), on a store stand-in that counts
 * its reads and whose marker the test moves: what is read again, what is kept, and when a token is
 * refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenLookup } from '../../src/http/token-lookup.js';
import type { TokenUses } from '../../src/http/token-uses.js';
import type { ActiveToken } from '../../src/store/repositories/tokens-repository.js';
import type { Store } from '../../src/store/store.js';

const NOW = '2026-11-25T10:00:00.000Z';

function activeToken(tokenId: string, expiresAt: string | null = null): ActiveToken {
  return {
    tokenId,
    expiresAt,
    agency: { agencyId: 'AG1', name: 'Agency AG1', iataNumber: null, email: null },
  } as ActiveToken;
}

/** A store with the tokens given by hash, a marker the test sets, and the hashes it was asked for. */
function fakeStore(tokens: Map<string, ActiveToken>) {
  const state = { marker: 'm1' as string | null, reads: [] as string[] };
  const store = {
    authMarker: () => state.marker,
    read: {
      findActiveToken: async (hash: string) => {
        state.reads.push(hash);
        return tokens.get(hash) ?? null;
      },
    },
  } as unknown as Store;
  return { store, state };
}

test('a found token is kept while the marker stays, and read again once it moves', async () => {
  const tokens = new Map([['h1', activeToken('t1')]]);
  const { store, state } = fakeStore(tokens);
  const lookup = new TokenLookup(store);
  assert.equal((await lookup.find('h1', NOW))?.tokenId, 't1');
  assert.equal((await lookup.find('h1', NOW))?.tokenId, 't1');
  assert.deepEqual(state.reads, ['h1']);
  // Revoked meanwhile: the marker moved, so the store is asked and its answer stands.
  tokens.delete('h1');
  state.marker = 'm2';
  assert.equal(await lookup.find('h1', NOW), null);
  assert.deepEqual(state.reads, ['h1', 'h1']);
});

test('an unknown token is never kept, and forgets what was kept under its hash', async () => {
  const tokens = new Map<string, ActiveToken>();
  const { store, state } = fakeStore(tokens);
  const lookup = new TokenLookup(store);
  assert.equal(await lookup.find('h1', NOW), null);
  tokens.set('h1', activeToken('t1'));
  assert.equal((await lookup.find('h1', NOW))?.tokenId, 't1');
  assert.deepEqual(state.reads, ['h1', 'h1']);

  // Found under m1, then unknown under m2: back under m1 (a marker can only move on, but the
  // lookup must not lean on that), the entry is gone and the store is asked.
  state.marker = 'm2';
  tokens.delete('h1');
  assert.equal(await lookup.find('h1', NOW), null);
  state.marker = 'm1';
  assert.equal(await lookup.find('h1', NOW), null);
  assert.deepEqual(state.reads, ['h1', 'h1', 'h1', 'h1']);
});

test('a store without a marker is asked every time', async () => {
  const { store, state } = fakeStore(new Map([['h1', activeToken('t1')]]));
  state.marker = null;
  const lookup = new TokenLookup(store);
  assert.equal((await lookup.find('h1', NOW))?.tokenId, 't1');
  assert.equal((await lookup.find('h1', NOW))?.tokenId, 't1');
  assert.deepEqual(state.reads, ['h1', 'h1']);
});

test('an entry kept under another marker is not used', async () => {
  const tokens = new Map([['h1', activeToken('t1')]]);
  const { store, state } = fakeStore(tokens);
  const lookup = new TokenLookup(store);
  await lookup.find('h1', NOW);
  state.marker = 'm2';
  tokens.set('h1', activeToken('t1-renewed'));
  assert.equal((await lookup.find('h1', NOW))?.tokenId, 't1-renewed');
  assert.equal((await lookup.find('h1', NOW))?.tokenId, 't1-renewed');
  assert.deepEqual(state.reads, ['h1', 'h1']);
});

test('expiry is checked at every use, cached or not: a token is refused from its expiry on', async () => {
  const { store } = fakeStore(new Map([['h1', activeToken('t1', '2026-11-25T10:00:00.001Z')]]));
  const lookup = new TokenLookup(store);
  assert.equal((await lookup.find('h1', '2026-11-25T10:00:00.000Z'))?.tokenId, 't1');
  assert.equal(await lookup.find('h1', '2026-11-25T10:00:00.001Z'), null);
  assert.equal(await lookup.find('h1', '2026-11-25T10:00:00.002Z'), null);
});

test('each accepted use is told to the noter of last uses, and no refused one', async () => {
  const { store } = fakeStore(
    new Map([
      ['h1', activeToken('t1')],
      ['h2', activeToken('t2', NOW)],
    ]),
  );
  const told: [string, string][] = [];
  const uses = { used: (tokenId: string, at: string) => told.push([tokenId, at]) } as unknown as TokenUses;
  const lookup = new TokenLookup(store, uses);
  await lookup.find('h1', NOW);
  await lookup.find('h1', '2026-11-25T10:00:01.000Z');
  await lookup.find('h2', NOW);
  await lookup.find('h3', NOW);
  assert.deepEqual(told, [
    ['t1', NOW],
    ['t1', '2026-11-25T10:00:01.000Z'],
  ]);
});

test('past 10,000 tokens kept, the cache starts again empty', async () => {
  const tokens = new Map<string, ActiveToken>();
  for (let i = 0; i <= 10_000; i++) tokens.set(`h${i}`, activeToken(`t${i}`));
  const { store, state } = fakeStore(tokens);
  const lookup = new TokenLookup(store);
  for (let i = 0; i < 10_000; i++) await lookup.find(`h${i}`, NOW);
  await lookup.find('h0', NOW);
  assert.equal(state.reads.length, 10_000, 'the first 10,000 are all kept');
  await lookup.find('h10000', NOW);
  await lookup.find('h10000', NOW);
  await lookup.find('h0', NOW);
  assert.deepEqual(state.reads.slice(10_000), ['h10000', 'h0']);
});
