/**
 * Upgrading in place on PostgreSQL: test/cli/upgrade.test.ts's database of the former schema,
 * upgraded by `airorder migrate` (whose migrations otherwise run in one transaction) in batches each
 * committed on its own, killed with SIGKILL and resumed. A killed process's open transaction is
 * rolled back by the server: only whole batches stay.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { UPGRADE_BATCH } from '../../src/store/upgrade/order-records-upgrade.js';
import { CliSandbox } from '../helpers/cli.js';
import { buildFormerDatabase } from '../helpers/former-database.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../helpers/test-database.js';
import { assertUpgraded, killUntilUpgraded, progressCounts } from '../helpers/upgrade-checks.js';
import { scaled } from '../helpers/time-scale.js';

const POSTGRES = testStoreKind() === 'postgres';
const SKIP = POSTGRES ? false : 'runs on PostgreSQL only (TEST_STORE=postgres); test/cli/upgrade.test.ts covers SQLite';
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function sandboxOnPostgres(): Promise<CliSandbox> {
  const sandbox = new CliSandbox();
  const database: TestDatabase = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  cleanups.push(
    () => sandbox.cleanup(),
    () => database.drop(),
  );
  return sandbox;
}

test(
  'PostgreSQL: migrate upgrades a database of the former schema: every order retrieved byte for byte, audit, events, deliveries and sessions kept',
  { skip: SKIP, timeout: scaled(180_000) },
  async () => {
    const sandbox = await sandboxOnPostgres();
    const former = await buildFormerDatabase(sandbox, 60);
    const upgraded = await sandbox.ok(['migrate']);
    assert.equal(
      upgraded.stdout,
      'Up 011-order-records\nUp 012-audit-log\nUp 013-event-log\nUp 014-refund-quotes\nUp 015-kept-response-counts\n',
    );
    assert.deepEqual(
      progressCounts(upgraded.stderr),
      [
        { copied: 0, total: 60 },
        { copied: 60, total: 60 },
      ],
      upgraded.stderr,
    );
    await assertUpgraded(sandbox, former);
    assert.equal((await sandbox.ok(['migrate'])).stdout, 'nothing to do\n');
  },
);

test(
  'PostgreSQL: migrate killed with SIGKILL at several moments resumes after its last batch, and serve finishes the upgrade',
  { skip: SKIP, timeout: scaled(300_000) },
  async (t) => {
    const sandbox = await sandboxOnPostgres();
    const former = await buildFormerDatabase(sandbox, 4500);
    const kills = await killUntilUpgraded(sandbox, former, 18_05, UPGRADE_BATCH);
    assert.ok(kills >= 2, `killed ${kills} times`);
    t.diagnostic(`killed ${kills} times before the upgrade ended`);
    await assertUpgraded(sandbox, former);
  },
);
