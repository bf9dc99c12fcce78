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
    const row = db.prepare("select status from bookings where order_id = 'CKP-1' and reference = 'CKP001'").get() as
      { status: string } | undefined;
    return row?.status ?? null;
  } finally {
    db.close();
  }
}

test('on SQLite, a running service copies committed changes into the database file within moments, not only every 1,000 pages', async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write('orders.ndjson', asNdjson([simpleOrder('CKP-1', 'AG1', 'CKP001')])),
  ]);
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

interface LogUnderLoad {
  /** The largest the write-ahead log was, as the service's checkpoint thread saw it (/metrics). */
  peak: number;
  /** RESTART checkpoints that started the log over meanwhile. */
  restarts: number;
  /** What the service process wrote to files and sockets meanwhile (/proc/PID/io), the log's frames among it. */
  written: number;
}

/** A sample's value in Prometheus' text, by its name with labels as printed (`name{kind="restart"}`). */
function sample(metrics: string, name: string): number {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  assert.ok(line, `${name} is in /metrics`);
  return Number(line.slice(name.length + 1));
}

/** The write-ahead log while `count` cancels are sent 50 at a time to a service with `env`. */
async function logUnderSustainedWrites(env: Record<string, string>, count: number): Promise<LogUnderLoad> {
  const own = new CliSandbox();
  try {
    await own.ok(['agency', 'add', '--agency-id', 'AGW', '--name', 'Agency W']);
    const orders = Array.from({ length: count }, (_, index) =>
      simpleOrder(
        `WAL-${index}`,
        'AGW',
        `WAL${String(index).padStart(5, '0')}`,
        `22077${String(index).padStart(8, '0')}`,
      ),
    );
    await own.ok(['orders', 'import', own.write('orders.ndjson', asNdjson(orders))]);
    const token = (await own.ok(['token', 'issue', '--agency-id', 'AGW'])).stdout.trim();
    const server = await own.serve([], { env: { RATE_LIMIT_PER_SECOND: '0', ...env } });
    const writtenSoFar = () =>
      Number(/^wchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${server.child.pid}/io`, 'utf8'))![1]);
    const metrics = async () => (await server.get('/metrics')).text;
    try {
      const before = writtenSoFar();
      let next = 0;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          while (next < count) {
            const index = next++;
            const response = await server.post(
              '/AirOrderCancel',
              cancelRQ(`WAL-${index}`, [`WAL${String(index).padStart(5, '0')}`]),
              bearer(token),
            );
            assert.equal(response.status, 200, response.text);
          }
        }),
      );
      const written = writtenSoFar() - before;
      // The peak is exact up to the thread's last pass (checkpointer.ts): wait for two passes more,
      // the second begun after the last write was answered, so that it counts the log's last frames too.
      const passes = sample(await metrics(), 'airorder_sqlite_wal_checkpoints_total{kind="passive"}');
      let text = await metrics();
      for (
        let attempt = 0;
        attempt < 100 && sample(text, 'airorder_sqlite_wal_checkpoints_total{kind="passive"}') < passes + 2;
        attempt += 1
      ) {
        await sleep(50);
        text = await metrics();
      }
      assert.ok(
        sample(text, 'airorder_sqlite_wal_checkpoints_total{kind="passive"}') >= passes + 2,
        'the checkpoint thread still passes',
      );
      return {
        peak: sample(text, 'airorder_sqlite_wal_peak_bytes'),
        restarts: sample(text, 'airorder_sqlite_wal_checkpoints_total{kind="restart"}'),
        written,
      };
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  } finally {
    own.cleanup();
  }
}

test('on SQLite, writes that never pause keep the write-ahead log within SQLITE_WAL_LIMIT_MB', async () => {
  const MB = 1024 * 1024;
  const { peak, restarts, written } = await logUnderSustainedWrites({ SQLITE_WAL_LIMIT_MB: '1' }, 8000);
  // The log took far more than it may hold: every page of every commit goes through it.
  assert.ok(written > 80 * MB, `the service wrote ${written} bytes only`);
  // The thread saw the log at every pass: had it never been started over, it would have held them all.
  assert.ok(peak > 0, 'the checkpoint thread saw the log');
  assert.ok(restarts > 0, 'the log was started over');
  // Started over and cut back at 1 MB; what the writes add while a pass is due comes on top.
  assert.ok(
    peak < 10 * MB,
    `the log grew to ${peak} bytes with a 1 MB limit (${restarts} restarts), while ${written} bytes were written`,
  );
});
