import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { asNdjson, CliSandbox } from '../helpers/cli.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';

const sandbox = new CliSandbox();
after(() => sandbox.cleanup());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The booking's status as the database file alone holds it, without the write-ahead log beside it. */
function statusInMainFile(copyTo: string): string | null {
  fs.copyFileSync(sandbox.dbFile, copyTo);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${copyTo}${suffix}`, { force: true });
  const db = new Database(copyTo, { readonly: true });
  try {
    const row = db.prepare("select status from bookings where order_id = 'CKP-1' and reference = 'CKP001'").get() as { status: string } | undefined;
    return row?.status ?? null;
  } finally {
    db.close();
  }
}

test('on SQLite, a running service copies committed changes into the database file within moments, not only every 1,000 pages', async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson([simpleOrder('CKP-1', 'AG1', 'CKP001')]))]);
  const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  const copy = path.join(path.dirname(sandbox.dbFile), 'main-file-only.db');

  const server = await sandbox.serve();
  try {
    assert.equal(statusInMainFile(copy), 'CONFIRMED');
    const response = await server.post('/AirOrderCancel', cancelRQ('CKP-1', ['CKP001']), bearer(token));
    assert.equal(response.status, 200);
    // One small commit is a few pages of log: SQLite alone would leave it there while the service runs.
    let status: string | null = null;
    for (let attempt = 0; attempt < 50 && status !== 'CANCELED'; attempt += 1) {
      await sleep(100);
      try {
        status = statusInMainFile(copy);
      } catch {
        // A copy taken while a page was being written: the next attempt reads a settled file.
      }
    }
    assert.equal(status, 'CANCELED');
    assert.equal(server.child.exitCode, null, 'the service is still running');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
