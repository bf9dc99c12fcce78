/**
 * `airorder migrate`: what it says it applied or rolled back, and an upgrade's progress bar. In
 * process (test/helpers/in-process-cli.ts); test/cli/* run the built program as an operator does.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createTestDatabase } from '../helpers/test-database.js';
import { formerDatabase } from '../helpers/former-schema.js';
import { dir, airorder, ok, useInProcessCli } from '../helpers/in-process-cli.js';

useInProcessCli();

describe('migrate', () => {
  test('nothing left to apply: said so; with --json, an empty list', async () => {
    assert.equal(await ok(['migrate']), 'nothing to do\n');
    assert.equal(await ok(['--json', 'migrate']), '{\n  "applied": []\n}\n');
  });

  test('--rollback names the migration it rolled back; migrating again applies it again', async () => {
    const rolledBack = await ok(['migrate', '--rollback']);
    assert.match(rolledBack, /^Down \d{3}-[a-z0-9-]+\n$/);
    const name = rolledBack.slice('Down '.length, -1);
    assert.equal(await ok(['migrate']), `Up ${name}\n`);
    assert.deepEqual(JSON.parse(await ok(['--json', 'migrate', '--rollback'])), { applied: [`Down ${name}`] });
    assert.deepEqual(JSON.parse(await ok(['--json', 'migrate'])), { applied: [`Up ${name}`] });
    const before = (await ok(['migrate', '--rollback'])).slice('Down '.length, -1);
    await ok(['migrate', '--rollback']);
    assert.match(await ok(['migrate']), new RegExp(`^Up \\d{3}-[a-z0-9-]+\\nUp ${before}\\n$`));
  });

  test("an upgrade that copies orders: the bar on a terminal, ended before migrate's own lines", async (t) => {
    const former = await createTestDatabase(fs.mkdtempSync(path.join(dir, 'former-')));
    t.after(() => former.drop());
    await formerDatabase(former.url);
    const run = await airorder(['migrate'], '', { url: former.url, tty: true });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(
      run.stderr.endsWith(`[${'#'.repeat(24)}] 100% upgrade: orders copied into records: 1 of 1, ETA 0s\u001b[K\n`),
      JSON.stringify(run.stderr),
    );
    assert.match(run.stdout, /^Up 011-/);
  });
});
