/**
 * The console's body limits through the real program (`airorder serve` on the store TEST_STORE
 * names), at each limit and one byte over it: the import upload (100 MiB of file, 1 KiB a field's
 * value), the sign-in form (4 KiB) and every other form (16 KiB, the add-agency form here). At the
 * limit the body is read whole and acted on; one byte over, it is refused with 413 and "The form or
 * file is too large.", and nothing is done: no import, no order, no session, no agency (SQL), no
 * upload file left in the service's temporary folder, nothing logged at error level. Each body over
 * the limit is built so that, cut at the limit, it would still be a valid form or file that does
 * something: a service that stopped reading at the limit and went on with what it had read would be
 * seen. Forms are sent with a Content-Length (refused before they are read) and chunked, without one
 * (refused once counted).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ServeProcess } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { simpleOrder } from '../helpers/documents.js';
import { SignedInConsole } from '../helpers/console-sandbox.js';
import { countRows, sendBody, wholeBody, type Answer } from '../helpers/sized-bodies.js';
import { type TestDatabase } from '../helpers/test-database.js';

const UPLOAD_LIMIT = 100 * 1024 * 1024;
const LOGIN_LIMIT = 4 * 1024;
const FORM_LIMIT = 16 * 1024;
const TOO_LARGE = 'The form or file is too large.';
const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';
const BOUNDARY = '----airorder-limit-boundary';

let desk: SignedInConsole;
let database: TestDatabase;
let server: ServeProcess;
let browser: ConsoleClient;

before(async () => {
  desk = await SignedInConsole.start(EMAIL, PASSWORD);
  ({ database, server, browser } = desk);
});

after(async () => {
  await desk?.close();
});

const count = (query: string) => countRows(database.url, query);

/** Log lines of the service at error level or above (pino: error is 50). */
function errorLines(): string[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
}

function uploadFolders(): string[] {
  return desk.uploadFolders();
}

function assertRefused(answer: Answer, what: string): void {
  assert.equal(answer.status, 413, `${what}: ${answer.text.slice(0, 500)}`);
  assert.ok(answer.text.includes(TOO_LARGE), `${what}: ${answer.text.slice(0, 500)}`);
}

/** `size` bytes of blank lines (1 KiB each, spaces then a newline; the last one may be shorter). */
function* blankLines(size: number): Iterable<Buffer> {
  const block = Buffer.alloc(1024 * 1024, ' ');
  for (let index = 1023; index < block.length; index += 1024) block[index] = 0x0a;
  for (let left = size; left > 0; left -= block.length) yield left >= block.length ? block : block.subarray(0, left);
}

/**
 * An import upload as the console's form sends it, the token first: an NDJSON file of `fileBytes`
 * bytes, `orders` one per line at its start, blank lines after them, and `lastOrder` on its last line.
 */
function uploadForm(
  csrf: string,
  orders: object[],
  fileBytes: number,
  lastOrder: object | null,
  extraFields: [name: string, value: string][] = [],
) {
  const field = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    `${field('_csrf', csrf)}${field('kind', 'orders')}${extraFields.map(([name, value]) => field(name, value)).join('')}--${BOUNDARY}\r\n` +
      'Content-Disposition: form-data; name="file"; filename="orders.ndjson"\r\nContent-Type: application/x-ndjson\r\n\r\n',
  );
  const first = Buffer.from(orders.map((order) => `${JSON.stringify(order)}\n`).join(''));
  const last = Buffer.from(lastOrder ? `${JSON.stringify(lastOrder)}\n` : '');
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const blank = fileBytes - first.length - last.length;
  assert.ok(blank > 0);
  return {
    length: head.length + fileBytes + tail.length,
    *pieces() {
      yield head;
      yield first;
      yield* blankLines(blank);
      yield last;
      yield tail;
    },
  };
}

async function importsPageToken(): Promise<string> {
  const page = await browser.request('/console/imports');
  assert.equal(page.status, 200);
  return csrfOf(page.text);
}

/** The import's outcome once it has ended, from its progress, read as the page's script reads it. */
async function importOutcome(importPath: string): Promise<{ status: string; recordsStored: number }> {
  for (let round = 0; ; round += 1) {
    const progress = JSON.parse((await browser.request(`${importPath}/progress`)).text);
    if (progress.status !== 'running') return progress;
    assert.ok(round < 2400, `the import did not end: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('the import upload: 100 MiB of file', { concurrency: false }, () => {
  test('a file of exactly 100 MiB is read whole and imported, its last line included', async () => {
    const body = uploadForm(
      await importsPageToken(),
      [simpleOrder('ORD-AT-1', 'AG1', 'ATLIM1')],
      UPLOAD_LIMIT,
      simpleOrder('ORD-AT-2', 'AG1', 'ATLIM2', '2201234567891'),
    );
    const answer = await sendBody(
      `${server.baseUrl}/console/imports`,
      { cookie: browser.cookieHeader(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
    );
    assert.equal(answer.status, 303, answer.text.slice(0, 500));
    const outcome = await importOutcome(answer.headers.location!);
    assert.deepEqual([outcome.status, outcome.recordsStored], ['done', 2], JSON.stringify(outcome));
    assert.equal(await count("select order_id from orders where order_id in ('ORD-AT-1', 'ORD-AT-2')"), 2);
    assert.deepEqual(uploadFolders(), [], "the upload's temporary file is removed once its import has ended");
    assert.deepEqual(errorLines(), []);
  });

  test('a file one byte over 100 MiB is refused with 413, and nothing is imported nor left on disk', async () => {
    const importsBefore = await count('select * from console_imports');
    // Cut at 100 MiB, the file would still be one valid order and blank lines.
    const body = uploadForm(
      await importsPageToken(),
      [simpleOrder('ORD-OVER-1', 'AG1', 'OVER01')],
      UPLOAD_LIMIT + 1,
      null,
    );
    const answer = await sendBody(
      `${server.baseUrl}/console/imports`,
      { cookie: browser.cookieHeader(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
    );
    assertRefused(answer, 'upload of 100 MiB + 1 byte');
    assert.equal(await count('select * from console_imports'), importsBefore, 'no import was started');
    assert.equal(await count("select order_id from orders where order_id = 'ORD-OVER-1'"), 0);
    assert.deepEqual(uploadFolders(), [], "the upload's temporary file is removed");
    assert.equal((await browser.request('/console/imports')).status, 200, 'the session goes on, the service too');
    assert.deepEqual(errorLines(), []);
  });
});

describe("the import upload's other fields: 1 KiB of value", { concurrency: false }, () => {
  const upload = async (orderId: string, reference: string, name: string, value: string) =>
    sendBody(
      `${server.baseUrl}/console/imports`,
      { cookie: browser.cookieHeader(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      uploadForm(await importsPageToken(), [simpleOrder(orderId, 'AG1', reference)], 4096, null, [[name, value]]),
    );

  test('a field of exactly 1 KiB is read and the file imported', async () => {
    const answer = await upload('ORD-FIELD-1', 'FIELD1', 'note', 'x'.repeat(1024));
    assert.equal(answer.status, 303, answer.text.slice(0, 500));
    const outcome = await importOutcome(answer.headers.location!);
    assert.deepEqual([outcome.status, outcome.recordsStored], ['done', 1], JSON.stringify(outcome));
    assert.deepEqual(uploadFolders(), []);
    assert.deepEqual(errorLines(), []);
  });

  test('a field one byte over 1 KiB is refused with 413, not read cut short; nothing is imported', async () => {
    const importsBefore = await count('select * from console_imports');
    assertRefused(await upload('ORD-FIELD-2', 'FIELD2', 'note', 'x'.repeat(1025)), 'a field of 1 KiB + 1 byte');
    assert.equal(await count("select order_id from orders where order_id = 'ORD-FIELD-2'"), 0);
    assert.equal(await count('select * from console_imports'), importsBefore, 'no import was started');
    assert.deepEqual(uploadFolders(), [], "the upload's temporary folder is removed");
    assert.deepEqual(errorLines(), []);
  });
});

/** The sign-in form, its token first and `pad` last, of exactly `size` bytes. */
async function signInForm(size: number): Promise<{ cookie: string; body: string }> {
  const page = await fetch(`${server.baseUrl}/console/login`);
  const text = await page.text();
  const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
  const start = new URLSearchParams({ _csrf: csrfOf(text), email: EMAIL, password: PASSWORD }).toString();
  const body = `${start}&pad=`;
  return { cookie, body: body + 'x'.repeat(size - body.length) };
}

const sessionCount = () => count('select * from operator_sessions');

describe('the sign-in form: 4 KiB', { concurrency: false }, () => {
  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked, without a Content-Length' : 'with its Content-Length';
    test(`${how}: a form of exactly 4 KiB signs in; one byte more is refused with 413 and opens no session`, async () => {
      const headers = (cookie: string) => ({ cookie, 'content-type': 'application/x-www-form-urlencoded' });
      const at = await signInForm(LOGIN_LIMIT);
      const sessionsBefore = await sessionCount();
      const signedIn = await sendBody(
        `${server.baseUrl}/console/login`,
        headers(at.cookie),
        wholeBody(at.body),
        chunked,
      );
      assert.equal(signedIn.status, 303, signedIn.text.slice(0, 500));
      assert.equal(await sessionCount(), sessionsBefore + 1);

      const over = await signInForm(LOGIN_LIMIT + 1);
      const refused = await sendBody(
        `${server.baseUrl}/console/login`,
        headers(over.cookie),
        wholeBody(over.body),
        chunked,
      );
      assertRefused(refused, `sign-in form of 4 KiB + 1 byte, ${how}`);
      assert.ok(!String(refused.headers['set-cookie'] ?? '').includes('airorder_console='), 'no session cookie');
      assert.equal(await sessionCount(), sessionsBefore + 1, 'no session was opened');
      assert.deepEqual(errorLines(), []);
    });
  }
});

describe('every other form: 16 KiB', { concurrency: false }, () => {
  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked, without a Content-Length' : 'with its Content-Length';
    test(`${how}: an add-agency form of exactly 16 KiB adds the agency; one byte more is refused with 413 and adds none`, async () => {
      const csrf = csrfOf((await browser.request('/console/agencies')).text);
      const form = (agencyId: string, size: number) => {
        const body = `${new URLSearchParams({ _csrf: csrf, agencyId, name: 'Big Form' }).toString()}&pad=`;
        return wholeBody(body + 'x'.repeat(size - body.length));
      };
      const headers = { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' };
      const atId = chunked ? 'AT-LIMIT-C' : 'AT-LIMIT-L';
      const overId = chunked ? 'OVER-LIMIT-C' : 'OVER-LIMIT-L';
      const added = await sendBody(`${server.baseUrl}/console/agencies`, headers, form(atId, FORM_LIMIT), chunked);
      assert.equal(added.status, 303, added.text.slice(0, 500));
      assert.equal(await count(`select agency_id from agencies where agency_id = '${atId}'`), 1);

      const refused = await sendBody(
        `${server.baseUrl}/console/agencies`,
        headers,
        form(overId, FORM_LIMIT + 1),
        chunked,
      );
      assertRefused(refused, `add-agency form of 16 KiB + 1 byte, ${how}`);
      assert.equal(await count(`select agency_id from agencies where agency_id = '${overId}'`), 0, 'no agency added');
      assert.equal((await browser.request('/console')).status, 200, 'the session goes on');
      assert.deepEqual(errorLines(), []);
    });
  }
});
