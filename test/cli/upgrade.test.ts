/**
 * Upgrading in place on SQLite (issue 18, item 5): a database of the former schema (migrations up
 * to 010, filled by the service: test/helpers/former-database.ts) is upgraded by `airorder migrate`
 * to the order as one record, with its progress on standard error, and answers every retrieval,
 * event feed and console session as before. Killed at any moment, the upgrade resumes where its last
 * committed batch ended. test/integration/upgrade-postgres.test.ts runs the same on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { UPGRADE_BATCH } from '../../src/store/upgrade/order-records-upgrade.js';
import { CliSandbox } from '../helpers/cli.js';
import { buildFormerDatabase } from '../helpers/former-database.js';
import { assertUpgraded, killUntilUpgraded, progressCounts } from '../helpers/upgrade-checks.js';
import { scaled } from '../helpers/time-scale.js';

const sandboxes: CliSandbox[] = [];
after(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.cleanup()));
});

function sandbox(): CliSandbox {
  const made = new CliSandbox();
  sandboxes.push(made);
  return made;
}

test(
  'migrate upgrades a database of the former schema: every order retrieved byte for byte, audit, events, deliveries and sessions kept',
  { timeout: scaled(180_000) },
  async () => {
    const here = sandbox();
    const former = await buildFormerDatabase(here, 60);
    const upgraded = await here.ok(['migrate']);
    assert.equal(
      upgraded.stdout,
      'Up 011-order-records\nUp 012-audit-log\nUp 013-event-log\nUp 014-refund-quotes\nUp 015-kept-response-counts\n',
    );
    // Not a terminal: plain lines, from the first (nothing copied yet) to the last.
    assert.deepEqual(
      progressCounts(upgraded.stderr),
      [
        { copied: 0, total: 60 },
        { copied: 60, total: 60 },
      ],
      upgraded.stderr,
    );
    assert.doesNotMatch(upgraded.stderr, /\r/, 'nothing redrawn where no one watches a terminal');
    await assertUpgraded(here, former);
    assert.equal((await here.ok(['migrate'])).stdout, 'nothing to do\n');
  },
);

test(
  'migrate killed with SIGKILL at several moments resumes after its last batch, and serve finishes the upgrade',
  { timeout: scaled(300_000) },
  async (t) => {
    const here = sandbox();
    const former = await buildFormerDatabase(here, 4500);
    const kills = await killUntilUpgraded(here, former, 18_05, UPGRADE_BATCH);
    assert.ok(kills >= 2, `killed ${kills} times`);
    t.diagnostic(`killed ${kills} times before the upgrade ended`);
    await assertUpgraded(here, former);
  },
);
