/**
 * Two `airorder serve` processes on one store (SQLite file or PostgreSQL database, as TEST_STORE
 * says): the overview of either counts the API requests both answered (also those of a process that
 * has just stopped), and an import uploaded to one shows its progress on the other while it runs.
 * `airorder audit` and `airorder operator actions` name the operator.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asNdjson, CliSandbox, type ServeProcess } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { bearer, simpleOrder } from '../helpers/documents.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

const sandbox = new CliSandbox();
let database: TestDatabase;
let one: ServeProcess;
let two: ServeProcess;
let token: string;
const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';
const retrieve = { OrderRetrieveRQ: { Query: { OrderID: 'PR-1', GdsBookingReference: ['PRB001'] } } };

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write('orders.ndjson', asNdjson([simpleOrder('PR-1', 'AG1', 'PRB001', '2201000000771')])),
  ]);
  await sandbox.ok(['operator', 'add', '--email', EMAIL, '--name', 'Dana Desk', '--password-stdin'], {
    stdin: PASSWORD,
  });
  one = await sandbox.serve();
  two = await sandbox.serve();
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

/** The overview's table of requests of the last hour, as numbers per outcome code. */
async function requestsShown(browser: ConsoleClient): Promise<Record<string, number>> {
  const overview = await browser.request('/console');
  assert.equal(overview.status, 200);
  const section = overview.text.slice(overview.text.indexOf('id="requests"'), overview.text.indexOf('id="actions"'));
  return Object.fromEntries(
    [...section.matchAll(/<tr><td>([^<]+)<\/td><td>(\d+)<\/td><\/tr>/g)].map((match) => [match[1]!, Number(match[2])]),
  );
}

/** A browser on each process, sharing one session (it is in the store). */
async function browsers(): Promise<[ConsoleClient, ConsoleClient]> {
  const first = new ConsoleClient(one.baseUrl);
  assert.equal((await first.signIn(EMAIL, PASSWORD)).status, 303);
  const second = new ConsoleClient(two.baseUrl);
  for (const [name, value] of first.cookies) second.cookies.set(name, value);
  return [first, second];
}

/** Uploads an orders file on the Imports page; returns the path of the import's own page. */
async function uploadOrders(browser: ConsoleClient, documents: object[], fileName: string): Promise<string> {
  const page = await browser.request('/console/imports');
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', 'orders');
  form.set('file', new Blob([asNdjson(documents)], { type: 'application/x-ndjson' }), fileName);
  const uploaded = await browser.request('/console/imports', { body: form });
  assert.equal(uploaded.status, 303, uploaded.text.slice(0, 300));
  return uploaded.headers.get('location')!;
}

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  let value = await read();
  for (const deadline = Date.now() + scaled(timeoutMs); !done(value); value = await read()) {
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return value;
}

test('the overview of either process counts the requests of both, and of a process that has stopped', async () => {
  const [onOne, onTwo] = await browsers();
  for (let index = 0; index < 2; index += 1)
    assert.equal((await one.post('/AirOrderRetrieve', retrieve, bearer(token))).status, 200);
  for (let index = 0; index < 3; index += 1)
    assert.equal((await two.post('/AirOrderRetrieve', retrieve, bearer(token))).status, 200);
  assert.equal((await two.post('/AirOrderRetrieve', retrieve)).status, 401);
  const expected = { OK: 5, AUTH_MISSING: 1 };
  const counted = (shown: Record<string, number>) =>
    shown.OK === expected.OK && shown.AUTH_MISSING === expected.AUTH_MISSING;
  // Each process adds its counts to the store every few seconds.
  assert.deepEqual(await until("process one's overview", () => requestsShown(onOne), counted), expected);
  assert.deepEqual(await until("process two's overview", () => requestsShown(onTwo), counted), expected);

  // A process that stops adds what it counted as it closes.
  const third = await sandbox.serve();
  assert.equal((await third.post('/AirOrderRetrieve', retrieve, { authorization: 'Bearer not-a-token' })).status, 401);
  third.child.kill('SIGTERM');
  assert.equal((await third.exited).code, 0);
  const shown = await requestsShown(onOne);
  assert.deepEqual(
    shown,
    { ...expected, AUTH_INVALID: 1 },
    'counted before the next flush of the processes still running',
  );
});

test('an import uploaded to one process shows its progress on the other while it runs, and names the operator in the audit trail', async () => {
  const [onOne, onTwo] = await browsers();
  const count = 20_000;
  const documents = Array.from({ length: count }, (_, index) =>
    simpleOrder(`PR-BIG${index}`, 'AG1', `G${String(index).padStart(5, '0')}`, `2208${String(index).padStart(9, '0')}`),
  );
  const importPath = await uploadOrders(onOne, documents, 'big.ndjson');

  const seen: {
    status: string;
    phase: string;
    recordsRead: number;
    recordsStored: number;
    recordsTotal: number | null;
    updatedAt?: string;
  }[] = [];
  const pages: string[] = [];
  for (const deadline = Date.now() + scaled(180_000); seen.at(-1)?.status !== 'done';) {
    assert.ok(Date.now() < deadline, `the import did not finish: ${JSON.stringify(seen.at(-1))}`);
    const progress = await onTwo.request(`${importPath}/progress`);
    assert.equal(progress.status, 200, progress.text);
    seen.push(JSON.parse(progress.text));
    assert.notEqual(seen.at(-1)!.status, 'failed', progress.text);
    if (seen.at(-1)!.status === 'running' && seen.at(-1)!.recordsRead > 0 && pages.length === 0)
      pages.push((await onTwo.request(importPath)).text);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const during = seen.filter((progress) => progress.status === 'running' && progress.recordsRead > 0);
  assert.ok(
    during.some((progress) => progress.recordsRead < count || progress.recordsStored < count),
    `progress while running, on the other process: ${JSON.stringify(seen.slice(0, 5))}`,
  );
  assert.match(pages[0] ?? '', /<progress id="import-bar"/);
  assert.match(pages[0] ?? '', /data-progress-url=/);
  const { updatedAt, ...final } = seen.at(-1) as (typeof seen)[number] & { updatedAt: string };
  assert.deepEqual(final, {
    status: 'done',
    phase: 'storing',
    recordsRead: count,
    recordsStored: count,
    recordsTotal: count,
    label: 'Finished',
    counts: '20,000 of 20,000 records stored.',
  });
  assert.ok(
    Date.parse(updatedAt) >= Date.parse(seen.find((progress) => progress.status === 'running')!.updatedAt as string),
    'the time of the last progress',
  );

  const trail = JSON.parse((await sandbox.ok(['audit', '--order', 'PR-BIG19999'])).stdout) as {
    event: string;
    actor: string;
    operation: string;
    operatorEmail?: string;
  }[];
  assert.deepEqual(
    trail.map(({ event, actor, operation, operatorEmail }) => ({ event, actor, operation, operatorEmail })),
    [{ event: 'ORDER_IMPORTED', actor: 'operator', operation: 'orders import', operatorEmail: EMAIL }],
  );
  const cliTrail = JSON.parse((await sandbox.ok(['audit', '--order', 'PR-1'])).stdout) as {
    operatorEmail?: string;
    operation: string;
  }[];
  assert.deepEqual(
    cliTrail.map((record) => [record.operation, record.operatorEmail]),
    [['orders import', undefined]],
    "the CLI's own import names no operator",
  );

  const actions = JSON.parse(
    (await sandbox.ok(['operator', 'actions', '--email', 'DESK@airline.example', '--limit', '5'])).stdout,
  ) as { email: string; action: string; target: string }[];
  assert.deepEqual(
    actions.slice(0, 2).map(({ email, action, target }) => [email, action, target.replace(/::ffff:/, '')]),
    [
      [EMAIL, 'orders import', 'big.ndjson: {"imported":20000,"replaced":0}'],
      [EMAIL, 'sign in', '127.0.0.1'],
    ],
  );
});

// Last: it kills the first process.
test('an import whose process is killed stored nothing, and the other process shows it failed, not running forever', async () => {
  const [onOne, onTwo] = await browsers();
  const count = 20_000;
  const documents = Array.from({ length: count }, (_, index) =>
    simpleOrder(
      `PR-KILL${index}`,
      'AG1',
      `K${String(index).padStart(5, '0')}`,
      `2209${String(index).padStart(9, '0')}`,
    ),
  );
  const importPath = await uploadOrders(onOne, documents, 'killed.ndjson');
  type Progress = { status: string; recordsRead: number; label: string };
  const progressOn = async (browser: ConsoleClient) =>
    JSON.parse((await browser.request(`${importPath}/progress`)).text) as Progress;
  const running = await until(
    'the import running on the first process',
    () => progressOn(onTwo),
    (progress) => progress.status !== 'running' || progress.recordsRead > 0,
  );
  assert.equal(running.status, 'running', 'killed while it runs');
  one.child.kill('SIGKILL');
  await one.exited;

  const ended = await until(
    'the import shown as ended',
    () => progressOn(onTwo),
    (progress) => progress.status !== 'running',
  );
  assert.deepEqual([ended.status, ended.label], ['failed', 'Failed: nothing was stored']);
  const shown = await onTwo.request(importPath);
  assert.match(
    shown.text,
    /Interrupted: the process running this import \([^)]+:\d+\) stopped before it finished; nothing was stored\. Upload the file again\./,
  );
  for (const orderId of ['PR-KILL0', `PR-KILL${count - 1}`]) {
    const audit = await sandbox.run(['audit', '--order', orderId]);
    assert.equal(audit.code, 1, `${orderId} was not stored: ${audit.stdout}`);
    const answer = await two.post(
      '/AirOrderRetrieve',
      { OrderRetrieveRQ: { Query: { OrderID: orderId, GdsBookingReference: ['K00000'] } } },
      bearer(token),
    );
    assert.match(answer.text, /ORDER_NOT_FOUND/, `${orderId}: ${answer.text.slice(0, 200)}`);
  }
});
