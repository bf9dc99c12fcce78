/**
 * The crash scenario shared by the SQLite and PostgreSQL crash tests: one agency and the fixture's
 * orders loaded through the CLI, then the load with four SIGKILLs, then a clean SIGTERM.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { asNdjson, type CliSandbox } from './cli.js';
import {
  assertCrashOutcome,
  crashPlan,
  openStoreAt,
  runCrashLoad,
  type CrashFixture,
  type CrashRun,
} from './crash-load.js';
import { seededRandom } from './seeded-random.js';

export const CRASH_SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

export function crashFixture(): CrashFixture {
  return crashPlan({ clients: 8, distinctPerClient: 30, shared: 24, untouched: 12, seed: CRASH_SEED });
}

/** Loads the agency, a token and the fixture through the CLI; returns the token. */
export async function seedCrashSandbox(sandbox: CliSandbox, fixture: CrashFixture): Promise<string> {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson(fixture.orders))]);
  await sandbox.ok(['changes', 'import', sandbox.write('changes.ndjson', asNdjson(fixture.changes))]);
  return token;
}

/** Runs the load with four SIGKILLs and stops the last server with SIGTERM; `env` adds to the service's settings. */
export async function crashUnderLoad(
  t: TestContext,
  sandbox: CliSandbox,
  fixture: CrashFixture,
  token: string,
  env: Record<string, string> = {},
): Promise<CrashRun> {
  t.diagnostic(`seed ${CRASH_SEED} (CRASH_SEED=${CRASH_SEED} reproduces the plan)`);
  const run = await runCrashLoad({
    fixture,
    token,
    kills: 4,
    random: seededRandom(CRASH_SEED + 1),
    // Bursts of one token are the point here, not the per-token rate limit.
    serve: () => sandbox.serve([], { env: { RATE_LIMIT_PER_SECOND: '0', ...env } }),
  });
  t.diagnostic(
    `${run.requests} requests, ${run.retries} retries, ${run.acknowledged.length} acknowledged, kills at ${JSON.stringify(run.kills)}`,
  );
  assert.deepEqual(run.unexpected, []);
  assert.equal(run.kills.length, 4);
  assert.ok(
    run.kills.some((kill) => kill.inFlight > 0),
    'at least one kill came with requests in flight',
  );

  run.server.child.kill('SIGTERM');
  assert.equal((await run.server.exited).code, 0);
  return run;
}

/** The store at `databaseUrl` holds exactly what the run acknowledged (see assertCrashOutcome), with both kinds of cancellation. */
export async function assertStoredOutcome(
  t: TestContext,
  databaseUrl: string,
  fixture: CrashFixture,
  run: CrashRun,
): Promise<void> {
  const store = openStoreAt(databaseUrl);
  try {
    const counts = await assertCrashOutcome(store, fixture, run);
    t.diagnostic(`bookings: ${JSON.stringify(counts)}`);
    assert.ok(counts.voluntary > 0 && counts.involuntary > 0, 'both kinds of cancellation happened');
  } finally {
    await store.close();
  }
}
