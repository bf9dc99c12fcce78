/**
 * A signed-in operator's console upload of a 95 MB JSON array is read as a stream, never whole:
 * `airorder serve` runs as a process of its own (on the store TEST_STORE names), an AirOrderRetrieve
 * is sent every 100 ms from the upload's start to the import's end, and the service's peak resident
 * memory (VmHWM) is read before and after. Two files: 95 MB of `{"a":1}` (10 million small objects,
 * refused at the first, as the import refuses any file at its first bad record) and 95 MB of valid
 * orders (about 180,000, each read and checked, then stored). The service stays up, every request is
 * answered, the peak grows by less than 150 MB, and the upload's temporary file is gone once the
 * import ends. How late the answers came is printed, not asserted (bench/console-import-latency.ts
 * measures it).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { latencyFigures, pollApi } from '../helpers/api-poller.js';
import { numberedOrder, peakResident, smallObject, writeJsonArray } from '../helpers/big-import-files.js';
import { CliSandbox, type ServeProcess } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { bearer, simpleOrder } from '../helpers/documents.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

const FILE_BYTES = 95 * 1000 * 1000;
/** What one import may add to the service's peak resident memory, at most. */
const GROWTH_LIMIT_BYTES = 150 * 1000 * 1000;
const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';

const sandbox = new CliSandbox();
const tmp = path.join(sandbox.dir, 'tmp');
let database: TestDatabase;
let server: ServeProcess;
let browser: ConsoleClient;
let token: string;
const retrieve = JSON.stringify({
  OrderRetrieveRQ: { Query: { OrderID: 'PROBE-1', GdsBookingReference: ['PROBE1'] } },
});

before(async () => {
  fs.mkdirSync(tmp);
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.addAgencyAndOperator(EMAIL, PASSWORD);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write('probe.json', JSON.stringify([simpleOrder('PROBE-1', 'AG1', 'PROBE1')])),
  ]);
  // The upload's temporary file goes to a folder of the test's own, to be looked at.
  server = await sandbox.serve([], { env: { TMPDIR: tmp } });
  browser = new ConsoleClient(server.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  // The routes and the import's code run once before anything is measured.
  assert.deepEqual(
    (await pollApi(`${server.baseUrl}/AirOrderRetrieve`, { headers: bearer(token), body: retrieve }).stop()).map(
      (answer) => answer.status,
    ),
    [200],
  );
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

/** Log lines of the service at error level or above (pino: error is 50). */
function errorLines(): string[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
}

interface Outcome {
  status: string;
  recordsRead: number;
  recordsStored: number;
  page: string;
}

/** Uploads `file` as orders while the API is asked every 100 ms; returns how the import ended. */
async function importWhilePolled(file: string, name: string): Promise<Outcome> {
  const before = peakResident(server.child.pid!);
  const poller = pollApi(`${server.baseUrl}/AirOrderRetrieve`, { headers: bearer(token), body: retrieve });
  const page = await browser.request('/console/imports');
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', 'orders');
  form.set('file', await fs.openAsBlob(file, { type: 'application/json' }), path.basename(file));
  const uploaded = await browser.request('/console/imports', { body: form });
  assert.equal(uploaded.status, 303, uploaded.text.slice(0, 300));
  const importPath = uploaded.headers.get('location')!;
  let progress = { status: 'running', recordsRead: 0, recordsStored: 0 };
  for (const deadline = Date.now() + scaled(150_000); progress.status === 'running';) {
    assert.ok(Date.now() < deadline, `the import of ${name} did not end: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    progress = JSON.parse((await browser.request(`${importPath}/progress`)).text);
  }
  const answers = await poller.stop();
  const growth = peakResident(server.child.pid!) - before;
  const { max, p99 } = latencyFigures(answers);
  process.stdout.write(
    `# ${name}: ${answers.length} API requests, slowest answer ${max} ms (p99 ${p99} ms); peak resident memory grew by ${(growth / 1e6).toFixed(1)} MB\n`,
  );
  assert.equal(server.child.exitCode, null, 'the service is still running');
  assert.deepEqual(
    answers.filter((answer) => answer.status !== 200),
    [],
    'every API request sent during the upload and the import was answered 200',
  );
  assert.ok(answers.length >= 5, `${answers.length} requests sent`);
  assert.ok(growth < GROWTH_LIMIT_BYTES, `peak resident memory grew by ${(growth / 1e6).toFixed(1)} MB`);
  assert.deepEqual(
    fs.readdirSync(tmp).filter((entry) => entry.startsWith('airorder-upload-')),
    [],
    "the upload's temporary file is removed once its import has ended",
  );
  assert.deepEqual(errorLines(), []);
  return { ...progress, page: (await browser.request(importPath)).text };
}

test('95 MB of small objects in a JSON array: refused at the first record, read no further, the service answering throughout', async () => {
  const file = path.join(sandbox.dir, 'small-objects.json');
  const written = await writeJsonArray(file, FILE_BYTES, smallObject);
  assert.ok(written.records > 10_000_000, `${written.records} objects`);
  const outcome = await importWhilePolled(file, `${(written.bytes / 1e6).toFixed(1)} MB of {"a":1}`);
  fs.rmSync(file);
  assert.equal(outcome.status, 'failed');
  assert.match(outcome.page, /error: record 1: currency is required/);
});

test('95 MB of valid orders in a JSON array: every record read, checked and stored, the service answering throughout', async () => {
  const file = path.join(sandbox.dir, 'orders.json');
  const written = await writeJsonArray(file, FILE_BYTES, numberedOrder('BIG', 'AG1'));
  const outcome = await importWhilePolled(file, `${(written.bytes / 1e6).toFixed(1)} MB of ${written.records} orders`);
  fs.rmSync(file);
  assert.deepEqual(
    [outcome.status, outcome.recordsRead, outcome.recordsStored],
    ['done', written.records, written.records],
  );
  const last = await sandbox.run(['orders', 'show', `BIG-${written.records - 1}`]);
  assert.equal(last.code, 0, last.stderr);
});
