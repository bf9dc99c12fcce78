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
import { waitUntil } from '../helpers/upgrade-checks.js';

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

/** Runs statements on the test's database, whichever its engine. */
async function execute(statements: { sqlite: string; postgres: string }): Promise<void> {
  if (database.url.startsWith('sqlite:')) {
    const db = new Database(database.url.slice('sqlite:'.length), { fileMustExist: true });
    try {
      db.exec(statements.sqlite);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    await client.query(statements.postgres);
  } finally {
    await client.end();
  }
}

test('a start whose clean-up fails: each failure is a warning saying what was not done and why, and the service serves', async (t) => {
  // The imports' table behind a view every read of which fails, and a TMPDIR that is a file.
  const kept = 'alter table console_imports rename to console_imports_kept;';
  await execute({
    sqlite: `${kept} create view console_imports as select * from console_imports_kept where abs(-9223372036854775808) > 0;`,
    postgres: `${kept} create view console_imports as select * from console_imports_kept where cast(current_user || 'x' as integer) > 0;`,
  });
  t.after(() =>
    execute({
      sqlite: 'drop view console_imports; alter table console_imports_kept rename to console_imports;',
      postgres: 'drop view console_imports; alter table console_imports_kept rename to console_imports;',
    }),
  );
  const notAFolder = path.join(sandbox.dir, 'not-a-folder');
  fs.writeFileSync(notAFolder, '');
  const server = await sandbox.serve([], { env: { TMPDIR: notAFolder } });
  // Logged before the line saying it listens, which may reach this process after /healthz answered.
  await waitUntil(() => server.stdout().includes('"msg":"listening"'), 'the line saying the service listens', 20_000);
  const warnings = server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message?: string } })
    .filter((line) => line.level === 40);
  const said = (msg: string) => warnings.find((line) => line.msg === msg);
  const unchecked = said('imports of stopped processes not checked; they are when the Imports page is shown');
  assert.match(
    unchecked?.err?.message ?? '',
    /integer overflow|invalid input syntax for type integer/,
    JSON.stringify(warnings),
  );
  assert.match(
    said('upload files of stopped processes not removed')?.err?.message ?? '',
    /ENOTDIR/,
    JSON.stringify(warnings),
  );
  assert.equal((await server.get('/readyz')).status, 200);
  assert.deepEqual(errorLines(server), []);
});
