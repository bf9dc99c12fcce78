/**
 * The pending changes' tally (src/store/repositories/change-tallies-repository.ts): what a write adds
 * to it, as a pure function. The sum over the store is checked through the service by
 * test/integration/metrics.test.ts and the imports' checks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pendingIn, tallyWrite, TALLY_SHARDS } from '../../src/store/repositories/change-tallies-repository.js';
import { confirmedBooking, pendingChange } from '../helpers/domain-fixtures.js';

test('pendingIn counts the pending changes of every booking, and no other', () => {
  const accepted = { ...pendingChange('CHG-2', ['S1'], []), status: 'ACCEPTED' as const };
  assert.equal(pendingIn([]), 0);
  assert.equal(pendingIn([confirmedBooking()]), 0);
  assert.equal(
    pendingIn([
      confirmedBooking({ changes: [pendingChange('CHG-1', ['S1'], []), accepted] }),
      confirmedBooking({ reference: 'DEF456', changes: [pendingChange('CHG-3', ['S1'], [])] }),
    ]),
    2,
  );
});

test('a write that leaves the count as it was writes nothing to the tally: no statement, so no lock taken', () => {
  assert.equal(tallyWrite(0), null);
});

test('a write that changes the count adds the difference to one row, each row in turn over many writes', () => {
  for (const difference of [1, -3]) {
    const shards = new Set<unknown>();
    // 16 rows, 2,000 writes: the chance that one row is never picked is about 16 × (15/16)^2000, nil.
    for (let write = 0; write < 2_000; write += 1) {
      const statement = tallyWrite(difference);
      assert.ok(statement);
      assert.equal(statement.text, 'update change_tallies set pending = pending + ? where shard = ?');
      assert.equal(statement.parameters[0], difference);
      shards.add(statement.parameters[1]);
    }
    assert.deepEqual(
      [...shards].sort((a, b) => Number(a) - Number(b)),
      Array.from({ length: TALLY_SHARDS }, (_, shard) => shard),
      'every row, and only rows that exist',
    );
  }
});
