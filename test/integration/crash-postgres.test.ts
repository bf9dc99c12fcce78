import { after, before, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { assertStoredOutcome, crashFixture, crashUnderLoad, seedCrashSandbox } from '../helpers/crash-scenario.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * docs/contract.md §8.3 on PostgreSQL: the load and SIGKILLs of test/cli/crash.test.ts (which runs on
 * SQLite) against `airorder serve` processes sharing one PostgreSQL database. A killed process's
 * open transactions are rolled back by the server; what was acknowledged must be committed.
 */
const POSTGRES = testStoreKind() === 'postgres';
const SKIP = POSTGRES ? false : 'runs on PostgreSQL only (TEST_STORE=postgres); test/cli/crash.test.ts covers SQLite';
const sandbox = new CliSandbox();
let database: TestDatabase | null = null;
const fixture = crashFixture();
let token = '';

before(async () => {
  if (!POSTGRES) return;
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  token = await seedCrashSandbox(sandbox, fixture);
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

test(
  'PostgreSQL: SIGKILL four times under load from eight clients: every acknowledged change is stored, nothing refunded twice, the audit trail matches',
  { skip: SKIP, timeout: scaled(90_000) },
  async (t) => {
    const run = await crashUnderLoad(t, sandbox, fixture, token);

    await assertStoredOutcome(t, database!.url, fixture, run);
  },
);
