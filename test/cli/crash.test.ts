import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { assertCrashOutcome, openStoreAt } from '../helpers/crash-load.js';
import { crashFixture, crashUnderLoad, seedCrashSandbox } from '../helpers/crash-scenario.js';

/**
 * Contract §8.3 on SQLite: eight clients cancel and involuntarily cancel bookings, their own and
 * shared ones (several clients on one booking at once, with and without Idempotency-Key), while
 * `airorder serve` is killed with SIGKILL four times at random instants and restarted on the same
 * file. Every acknowledged change must be in the store; no ticket refunded twice; refunds equal the
 * coupons now REFUNDED, and only involuntarily cancelled bookings have such coupons; the audit
 * trail matches the state exactly.
 */
const sandbox = new CliSandbox();
const fixture = crashFixture();
let token = '';

before(async () => {
  token = await seedCrashSandbox(sandbox, fixture);
});

after(() => sandbox.cleanup());

test('SIGKILL four times under load from eight clients: every acknowledged change is stored, nothing refunded twice, the audit trail matches', { timeout: 60_000 }, async (t) => {
  const run = await crashUnderLoad(t, sandbox, fixture, token);
  assert.deepEqual(sandbox.query('pragma integrity_check'), [{ integrity_check: 'ok' }]);

  const store = openStoreAt(sandbox.databaseUrl);
  try {
    const counts = await assertCrashOutcome(store, fixture, run);
    t.diagnostic(`bookings: ${JSON.stringify(counts)}`);
    assert.ok(counts.voluntary > 0 && counts.involuntary > 0, 'both kinds of cancellation happened');
  } finally {
    await store.close();
  }
});
