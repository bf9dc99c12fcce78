import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asNdjson, CliSandbox } from '../helpers/cli.js';
import { assertCrashOutcome, crashPlan, openStoreAt, runCrashLoad, seededRandom } from '../helpers/crash-load.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../helpers/test-database.js';

/**
 * Contract §8.3 on PostgreSQL: the load and SIGKILLs of test/cli/crash.test.ts (which runs on
 * SQLite) against `airorder serve` processes sharing one PostgreSQL database. A killed process's
 * open transactions are rolled back by the server; what was acknowledged must be committed.
 */
const POSTGRES = testStoreKind() === 'postgres';
const SKIP = POSTGRES ? false : 'runs on PostgreSQL only (TEST_STORE=postgres); test/cli/crash.test.ts covers SQLite';
const sandbox = new CliSandbox();
let database: TestDatabase | null = null;
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const fixture = crashPlan({ clients: 8, distinctPerClient: 30, shared: 24, untouched: 12, seed: SEED });
let token = '';

before(async () => {
  if (!POSTGRES) return;
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson(fixture.orders))]);
  await sandbox.ok(['changes', 'import', sandbox.write('changes.ndjson', asNdjson(fixture.changes))]);
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

test('PostgreSQL: SIGKILL four times under load from eight clients: every acknowledged change is stored, nothing refunded twice, the audit trail matches', { skip: SKIP, timeout: 90_000 }, async (t) => {
  t.diagnostic(`seed ${SEED} (CRASH_SEED=${SEED} reproduces the plan)`);
  const run = await runCrashLoad({
    fixture, token, kills: 4, random: seededRandom(SEED + 1),
    serve: () => sandbox.serve([], { env: { RATE_LIMIT_PER_SECOND: '0' } }),
  });
  t.diagnostic(`${run.requests} requests, ${run.retries} retries, ${run.acknowledged.length} acknowledged, kills at ${JSON.stringify(run.kills)}`);
  assert.deepEqual(run.unexpected, []);
  assert.equal(run.kills.length, 4);
  assert.ok(run.kills.some((kill) => kill.inFlight > 0), 'at least one kill came with requests in flight');

  run.server.child.kill('SIGTERM');
  assert.equal((await run.server.exited).code, 0);

  const store = openStoreAt(database!.url);
  try {
    const counts = await assertCrashOutcome(store, fixture, run);
    t.diagnostic(`bookings: ${JSON.stringify(counts)}`);
    assert.ok(counts.voluntary > 0 && counts.involuntary > 0, 'both kinds of cancellation happened');
  } finally {
    await store.close();
  }
});
