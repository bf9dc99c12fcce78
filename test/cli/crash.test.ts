import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asNdjson, CliSandbox } from '../helpers/cli.js';
import { assertCrashOutcome, crashPlan, openStoreAt, runCrashLoad, seededRandom } from '../helpers/crash-load.js';

/**
 * Contract §8.3 on SQLite: eight clients cancel and involuntarily cancel bookings, their own and
 * shared ones (several clients on one booking at once, with and without Idempotency-Key), while
 * `airorder serve` is killed with SIGKILL four times at random instants and restarted on the same
 * file. Every acknowledged change must be in the store; no ticket refunded twice; refunds equal the
 * coupons now REFUNDED, and only involuntarily cancelled bookings have such coupons; the audit
 * trail matches the state exactly.
 */
const sandbox = new CliSandbox();
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const fixture = crashPlan({ clients: 8, distinctPerClient: 30, shared: 24, untouched: 12, seed: SEED });
let token = '';

before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson(fixture.orders))]);
  await sandbox.ok(['changes', 'import', sandbox.write('changes.ndjson', asNdjson(fixture.changes))]);
});

after(() => sandbox.cleanup());

test('SIGKILL four times under load from eight clients: every acknowledged change is stored, nothing refunded twice, the audit trail matches', { timeout: 60_000 }, async (t) => {
  t.diagnostic(`seed ${SEED} (CRASH_SEED=${SEED} reproduces the plan)`);
  const run = await runCrashLoad({
    fixture, token, kills: 4, random: seededRandom(SEED + 1),
    // Bursts of one token are the point here, not the per-token rate limit.
    serve: () => sandbox.serve([], { env: { RATE_LIMIT_PER_SECOND: '0' } }),
  });
  t.diagnostic(`${run.requests} requests, ${run.retries} retries, ${run.acknowledged.length} acknowledged, kills at ${JSON.stringify(run.kills)}`);
  assert.deepEqual(run.unexpected, []);
  assert.equal(run.kills.length, 4);
  assert.ok(run.kills.some((kill) => kill.inFlight > 0), 'at least one kill came with requests in flight');

  run.server.child.kill('SIGTERM');
  assert.equal((await run.server.exited).code, 0);
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
