/**
 * An import whose process dies part-way is marked failed by the next process to start, and its
 * upload's temporary file is removed; a process starting while another one's import runs leaves
 * that import alone. Three `airorder serve` processes on one store (TEST_STORE), with one temporary
 * folder: the first runs a console import of 95 MB of orders; the second starts meanwhile; the first
 * is killed (SIGKILL) mid-import; a third starts. The import's row is read with SQL, before any page
 * shows it (a page would settle it too).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { numberedOrder, writeJsonArray } from '../helpers/big-import-files.js';
import { CliSandbox, type ServeProcess } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';

const sandbox = new CliSandbox();
const tmp = path.join(sandbox.dir, 'tmp');
let database: TestDatabase;

before(async () => {
  fs.mkdirSync(tmp);
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.addAgencyAndOperator(EMAIL, PASSWORD);
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

interface ImportRow {
  status: string;
  phase: string;
  error: string | null;
}

/** The import's row, read with SQL. */
async function importRow(importId: string): Promise<ImportRow> {
  const text = 'select status, phase, error from console_imports where import_id = ';
  if (database.url.startsWith('sqlite:')) {
    const db = new Database(database.url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(`${text}?`).get(importId) as ImportRow;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    return (await client.query<ImportRow>(`${text}$1`, [importId])).rows[0]!;
  } finally {
    await client.end();
  }
}

const uploadFolders = () => fs.readdirSync(tmp).filter((entry) => entry.startsWith('airorder-upload-'));

function errorLines(server: ServeProcess): string[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
}

test('a process killed mid-import: the next to start marks the import failed and removes its file; one starting meanwhile leaves it running', async () => {
  const file = path.join(sandbox.dir, 'orders.json');
  await writeJsonArray(file, 95 * 1000 * 1000, numberedOrder('KILL', 'AG1'));
  const first = await sandbox.serve([], { env: { TMPDIR: tmp } });
  const browser = new ConsoleClient(first.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  const page = await browser.request('/console/imports');
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', 'orders');
  form.set('file', await fs.openAsBlob(file, { type: 'application/json' }), 'orders.json');
  const uploaded = await browser.request('/console/imports', { body: form });
  assert.equal(uploaded.status, 303, uploaded.text.slice(0, 300));
  const importId = uploaded.headers.get('location')!.split('/').at(-1)!;
  for (const deadline = Date.now() + scaled(30_000); ;) {
    const progress = JSON.parse((await browser.request(`/console/imports/${importId}/progress`)).text) as {
      status: string;
      recordsRead: number;
    };
    assert.equal(progress.status, 'running', 'the import runs');
    if (progress.recordsRead > 0) break;
    assert.ok(Date.now() < deadline, 'the import reads records');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(uploadFolders().length, 1, 'the upload is on disk while its import runs');

  // A process starting while the import runs: the import is not its to end, nor the file its to remove.
  const second = await sandbox.serve([], { env: { TMPDIR: tmp } });
  assert.equal((await importRow(importId)).status, 'running');
  assert.equal(uploadFolders().length, 1);

  first.child.kill('SIGKILL');
  await first.exited;
  assert.equal((await importRow(importId)).status, 'running', 'the killed process could not say so');
  assert.equal(uploadFolders().length, 1);

  const third = await sandbox.serve([], { env: { TMPDIR: tmp } });
  const row = await importRow(importId);
  assert.equal(row.status, 'failed');
  assert.match(
    row.error ?? '',
    /^Interrupted: the process running this import \([^)]+:\d+\) stopped before it finished; nothing was stored\. Upload the file again\.$/,
  );
  assert.deepEqual(uploadFolders(), [], "the killed import's upload file is removed");
  const shown = await new ConsoleClient(third.baseUrl).signIn(EMAIL, PASSWORD);
  assert.equal(shown.status, 303);
  assert.deepEqual([...errorLines(second), ...errorLines(third)], []);
  fs.rmSync(file);
});
