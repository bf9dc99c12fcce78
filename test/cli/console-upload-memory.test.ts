/**
 * Uploads to the console from someone without a session cost the service their headers, not their
 * body: `airorder serve` runs as a process of its own (on the store TEST_STORE names), and its peak
 * resident memory (VmHWM in /proc/PID/status) is read before and after. A gzip "bomb" (about 100 KB
 * that inflates to 99 MiB of multipart) and a plain 90 MiB multipart upload, to the import and to
 * sign-in, one at a time and four at once, are refused; that the body was not read is shown by the
 * answer arriving while the client still holds all but the first 64 KiB, and the connection then
 * closing. A signed-in operator's 60 MB import file streams to disk and is imported.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { CliSandbox, type ServeProcess } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { simpleOrder } from '../helpers/documents.js';
import {
  gzipped,
  heldUpload,
  MULTIPART_TYPE,
  multipartOfSize,
  pushedUpload,
  type BodySource,
} from '../helpers/held-upload.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

const MiB = 1024 * 1024;
/** What a refused upload may add to the service's peak resident memory, at most. */
const GROWTH_LIMIT_BYTES = 50 * 1000 * 1000;
const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';

const sandbox = new CliSandbox();
let database: TestDatabase;
let server: ServeProcess;
const bomb = gzipped(multipartOfSize(99 * MiB));
const plain = multipartOfSize(90 * MiB);

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['operator', 'add', '--email', EMAIL, '--name', 'Dana Desk', '--password-stdin'], {
    stdin: PASSWORD,
  });
  server = await sandbox.serve();
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

/** The process's peak resident memory so far, in bytes. */
function peakResident(pid: number): number {
  const line = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(line, 'VmHWM in /proc/PID/status');
  return Number(line[1]) * 1024;
}

/** Log lines of the service at error level or above (pino: error is 50). */
function errorLines(): string[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
}

const uploads: { name: string; path: string; headers: Record<string, string>; body: BodySource; status: number }[] = [
  {
    name: 'gzip bomb to the import',
    path: '/console/imports',
    headers: { 'content-type': MULTIPART_TYPE, 'content-encoding': 'gzip' },
    body: bomb,
    status: 415,
  },
  {
    name: '90 MiB to the import',
    path: '/console/imports',
    headers: { 'content-type': MULTIPART_TYPE },
    body: plain,
    status: 303,
  },
  {
    name: 'gzip bomb to sign-in',
    path: '/console/login',
    headers: { 'content-type': MULTIPART_TYPE, 'content-encoding': 'gzip' },
    body: bomb,
    status: 415,
  },
  {
    name: '90 MiB to sign-in',
    path: '/console/login',
    headers: { 'content-type': MULTIPART_TYPE },
    body: plain,
    status: 403,
  },
  {
    name: '90 MiB to sign-in with its cookie (multipart is not a sign-in form)',
    path: '/console/login',
    headers: { 'content-type': MULTIPART_TYPE, cookie: 'airorder_console_login=abc' },
    body: plain,
    status: 415,
  },
];

test('uploads without a session are answered before their body is read, and the connection closes', async () => {
  assert.ok(bomb.length < 200_000, `the bomb is small on the wire: ${bomb.length} bytes`);
  for (const upload of uploads) {
    const answer = await heldUpload(server.port, upload.path, upload.headers, upload.body);
    assert.equal(answer.status, upload.status, upload.name);
    assert.ok(
      answer.sentBeforeAnswer <= 64 * 1024 && answer.sentBeforeAnswer < upload.body.length,
      `${upload.name}: answered with ${answer.sentBeforeAnswer} of ${upload.body.length} bytes sent`,
    );
    assert.equal(answer.headers.connection, 'close', upload.name);
    assert.equal(
      answer.closedAfterAnswer,
      true,
      `${upload.name}: the server closed the connection instead of reading the rest`,
    );
  }
  assert.deepEqual(errorLines(), []);
});

test("the service's peak memory grows by less than 50 MB under these uploads, sent whole, one at a time and four at once", async () => {
  // Code paths warmed once, so that what is measured is the uploads.
  await pushedUpload(server.port, '/console/imports', { 'content-type': MULTIPART_TYPE }, multipartOfSize(MiB));
  const before = peakResident(server.child.pid!);
  for (const upload of uploads)
    assert.equal(await pushedUpload(server.port, upload.path, upload.headers, upload.body), upload.status, upload.name);
  for (const upload of uploads) {
    const statuses = await Promise.all(
      Array.from({ length: 4 }, () => pushedUpload(server.port, upload.path, upload.headers, upload.body)),
    );
    assert.deepEqual(
      statuses,
      [upload.status, upload.status, upload.status, upload.status],
      `four at once: ${upload.name}`,
    );
  }
  const health = await fetch(`${server.baseUrl}/healthz`);
  assert.equal(health.status, 200);
  const growth = peakResident(server.child.pid!) - before;
  process.stdout.write(
    `# peak resident memory before ${(before / 1e6).toFixed(1)} MB, growth ${(growth / 1e6).toFixed(1)} MB\n`,
  );
  assert.ok(growth < GROWTH_LIMIT_BYTES, `peak resident memory grew by ${(growth / 1e6).toFixed(1)} MB`);
  assert.deepEqual(errorLines(), []);
  const browser = new ConsoleClient(server.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  assert.match(
    (await browser.request('/console/imports')).text,
    /<h2 id="recent">Recent imports<\/h2>\s*<p class="muted">None yet\.<\/p>/,
    'no import was started',
  );
});

test("a signed-in operator's 60 MB import file streams to disk: the peak memory grows by less than 50 MB, and the import stores every order", async () => {
  const browser = new ConsoleClient(server.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  const count = 1000;
  // Each line padded to 60 KB with the spaces JSON allows after a value: 60 MB of file, 1,000 orders.
  const lines = Array.from({ length: count }, (_, index) =>
    JSON.stringify(
      simpleOrder(`MEM-${index}`, 'AG1', `M${String(index).padStart(5, '0')}`, `2205${String(index).padStart(9, '0')}`),
    ).padEnd(60_000, ' '),
  );
  const file = new Blob([`${lines.join('\n')}\n`], { type: 'application/x-ndjson' });
  assert.ok(file.size >= 60_000_000);
  const page = await browser.request('/console/imports');
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', 'orders');
  form.set('file', file, 'padded.ndjson');

  const before = peakResident(server.child.pid!);
  const uploaded = await browser.request('/console/imports', { body: form });
  assert.equal(uploaded.status, 303, uploaded.text.slice(0, 300));
  const growth = peakResident(server.child.pid!) - before;
  process.stdout.write(
    `# signed-in 60 MB upload: peak resident memory before ${(before / 1e6).toFixed(1)} MB, growth ${(growth / 1e6).toFixed(1)} MB\n`,
  );
  assert.ok(
    growth < GROWTH_LIMIT_BYTES,
    `peak resident memory grew by ${(growth / 1e6).toFixed(1)} MB while 60 MB were uploaded`,
  );

  const importPath = uploaded.headers.get('location')!;
  let progress: { status: string; recordsStored: number } = { status: 'running', recordsStored: 0 };
  for (const deadline = Date.now() + scaled(120_000); progress.status === 'running';) {
    assert.ok(Date.now() < deadline, 'the import finishes');
    await new Promise((resolve) => setTimeout(resolve, 200));
    progress = JSON.parse((await browser.request(`${importPath}/progress`)).text);
  }
  assert.deepEqual([progress.status, progress.recordsStored], ['done', count]);
  const total = peakResident(server.child.pid!) - before;
  process.stdout.write(
    `# the same, once the import has stored its ${count} orders: growth ${(total / 1e6).toFixed(1)} MB\n`,
  );
  assert.deepEqual(errorLines(), []);
});
