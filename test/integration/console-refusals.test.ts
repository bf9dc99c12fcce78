/**
 * What the console refuses, over HTTP on both stores: bodies it does not read (JSON, text, multipart
 * outside the import, compressed) are 415 and never a 500; an unknown agency is 404; a notice in the
 * URL is one of the console's own, never the URL's words; a path out of /docs/static never serves a
 * file nor answers 500; an act the URL names that is not the console's own is 404. None of these writes an error-level log line. A signed-in upload with its
 * token, in the form's first field or in X-CSRF-Token, still imports.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import { after, before, beforeEach, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { startSignedInService } from '../helpers/console-service.js';
import { simpleOrder } from '../helpers/documents.js';
import { socketRequest } from '../helpers/raw-socket.js';
import type { TestService } from '../helpers/test-service.js';
import { scaled } from '../helpers/time-scale.js';

const EMAIL = 'desk@airline.example';
const PASSWORD = 'correct horse battery';
let service: TestService;
let browser: ConsoleClient;
let csrf: string;

before(async () => {
  ({ service, browser } = await startSignedInService(EMAIL, PASSWORD));
  await service.importOrders([simpleOrder('ORD-R1', 'AG1', 'REF001', '2201111111111')]);
  csrf = csrfOf((await browser.request('/console')).text);
});

after(async () => {
  await service?.close();
});

/** The upload folders of this process (src/console/upload-folders.ts names them after it). */
function uploadFolders(): string[] {
  return fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(`airorder-upload-${process.pid}`));
}

let logsBefore = 0;
beforeEach(() => {
  logsBefore = service.logs.length;
});

/** No log line at error level (pino: 50) since the test began. */
function assertNoErrorLogged(): void {
  assert.deepEqual(
    service.logs.slice(logsBefore).filter((line) => Number(line.level) >= 50),
    [],
  );
}

test('a JSON or text body to sign-in, sign-out or the agencies form is 415, not 500, and changes nothing', async () => {
  const login = await browser.request('/console/login');
  const loginCookie = `airorder_console_login=${csrfOf(login.text)}`;
  const cases: { path: string; cookie: string; token: string }[] = [
    { path: '/console/login', cookie: loginCookie, token: csrfOf(login.text) },
    { path: '/console/logout', cookie: browser.cookieHeader(), token: csrf },
    { path: '/console/agencies', cookie: browser.cookieHeader(), token: csrf },
  ];
  for (const { path, cookie, token } of cases) {
    for (const [type, body] of [
      ['application/json', JSON.stringify({ _csrf: token, agencyId: 'JSON1', name: 'Json' })],
      ['text/plain', `_csrf=${token}&agencyId=TEXT1&name=Text`],
    ]) {
      for (const headers of [{ cookie }, { cookie, 'x-csrf-token': token }] as Record<string, string>[]) {
        const answer = await fetch(service.baseUrl + path, {
          method: 'POST',
          headers: { ...headers, 'content-type': type! },
          body,
          redirect: 'manual',
        });
        assert.equal(answer.status, 415, `${path} ${type} ${JSON.stringify(Object.keys(headers))}`);
        assert.match(await answer.text(), /The console reads its own forms only/);
      }
    }
  }
  assert.deepEqual(
    await runSql(service.store.db, "select agency_id from agencies where agency_id in ('JSON1', 'TEXT1')", []),
    [],
  );
  assert.equal((await browser.request('/console')).status, 200, 'the session was not ended');
  assertNoErrorLogged();
});

test('multipart to any console route but the import is 415, read or not', async () => {
  for (const path of [
    '/console/agencies',
    '/console/logout',
    '/console/orders/ORD-R1/bookings/REF001/accept',
    '/console/login',
  ]) {
    const form = new FormData();
    form.set('_csrf', csrf);
    form.set('agencyId', 'MULTI1');
    form.set('name', 'Multi');
    const cookie = path === '/console/login' ? `airorder_console_login=${csrf}` : browser.cookieHeader();
    const answer = await fetch(service.baseUrl + path, {
      method: 'POST',
      headers: { cookie },
      body: form,
      redirect: 'manual',
    });
    assert.equal(answer.status, 415, path);
  }
  assert.deepEqual(await runSql(service.store.db, "select agency_id from agencies where agency_id = 'MULTI1'", []), []);
  assertNoErrorLogged();
});

test('a compressed body to the console is 415, even a form with its token; the API still reads a compressed body, its coding named in any case', async () => {
  const body = zlib.gzipSync(new URLSearchParams({ _csrf: csrf, agencyId: 'GZIP1', name: 'Gzip' }).toString());
  const port = Number(new URL(service.baseUrl).port);
  for (const path of ['/console/agencies', '/console/imports', '/console/login']) {
    const answer = await socketRequest(port, {
      path,
      headers: [
        ['Host', 'x'],
        ['Cookie', browser.cookieHeader()],
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Content-Encoding', 'gzip'],
        ['Content-Length', String(body.length)],
      ],
      body,
    });
    assert.equal(answer?.status, 415, path);
    // The page says why, and where to go back to.
    const page = answer!.raw.toString('utf8');
    assert.match(answer!.headers['content-type'] ?? '', /^text\/html; charset=utf-8$/, path);
    assert.match(page, /<title>Not accepted/, path);
    assert.ok(
      page.includes('The console does not read compressed request bodies; send the form uncompressed.'),
      `${path}: ${page}`,
    );
    assert.ok(page.includes('<p><a href="/console">Back to the overview</a></p>'), path);
  }
  assert.deepEqual(await runSql(service.store.db, "select agency_id from agencies where agency_id = 'GZIP1'", []), []);

  const token = await service.tokenFor('AG1');
  const retrieve = zlib.gzipSync(
    JSON.stringify({ OrderRetrieveRQ: { Query: { OrderID: 'ORD-R1', GdsBookingReference: ['REF001'] } } }),
  );
  // In any case: content codings are case-insensitive.
  for (const coding of ['gzip', 'GZIP', 'GZip']) {
    const api = await fetch(`${service.baseUrl}/AirOrderRetrieve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': coding, authorization: `Bearer ${token}` },
      body: retrieve,
    });
    assert.equal(api.status, 200, coding);
  }
  // Its limit counts the inflated bytes: 1 MiB of spaces, a few KB on the wire, is too large.
  const inflated = zlib.gzipSync(`${' '.repeat(1024 * 1024)}{}`);
  const tooLarge = await fetch(`${service.baseUrl}/AirOrderRetrieve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${token}` },
    body: inflated,
  });
  assert.equal(tooLarge.status, 413);
  assertNoErrorLogged();
});

test('a form sent with Content-Encoding identity, in any case and spacing, is read as any other', async () => {
  const port = Number(new URL(service.baseUrl).port);
  for (const [encoding, agencyId] of [
    ['identity', 'IDENT1'],
    [' IDENTITY ', 'IDENT2'],
  ] as const) {
    const body = new URLSearchParams({ _csrf: csrf, agencyId, name: 'Identity' }).toString();
    const answer = await socketRequest(port, {
      path: '/console/agencies',
      headers: [
        ['Host', 'x'],
        ['Cookie', browser.cookieHeader()],
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Content-Encoding', encoding],
        ['Content-Length', String(Buffer.byteLength(body))],
      ],
      body,
    });
    assert.equal(answer?.status, 303, JSON.stringify(encoding));
    assert.deepEqual(await runSql(service.store.db, 'select agency_id from agencies where agency_id = ?', [agencyId]), [
      { agency_id: agencyId },
    ]);
  }
  assertNoErrorLogged();
});

test('a form whose first field is not the token is refused (403) and nothing is done; the token in X-CSRF-Token does as well', async () => {
  const late = await browser.request('/console/agencies', {
    body: `agencyId=LATE1&name=Late&_csrf=${csrf}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(late.status, 403);
  const wrongHeader = await browser.request('/console/agencies', {
    body: `_csrf=${csrf}&agencyId=LATE2&name=Late`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': 'x'.repeat(43) },
  });
  assert.equal(wrongHeader.status, 403, 'a wrong header is refused even with a right field');
  const byHeader = await browser.request('/console/agencies', {
    body: 'agencyId=HEADER1&name=Header',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf },
  });
  assert.equal(byHeader.status, 303);
  const empty = await browser.request('/console/agencies', { method: 'POST', headers: { 'content-length': '0' } });
  assert.equal(empty.status, 403, 'a POST without a body owes its token too');
  const emptyWithToken = await browser.request('/console/agencies', {
    method: 'POST',
    headers: { 'content-length': '0', 'x-csrf-token': csrf },
  });
  assert.equal(emptyWithToken.status, 400, 'with its token in the header, a form without a body lacks its fields');
  assert.ok(emptyWithToken.text.includes('The agency id must be 1 to 64 characters.'), emptyWithToken.text);
  const tooLarge = await browser.request('/console/agencies', {
    form: { _csrf: csrf, agencyId: 'BIG1', name: 'x'.repeat(20 * 1024) },
  });
  assert.equal(tooLarge.status, 413);
  assert.deepEqual(
    (
      await runSql<{ agency_id: string }>(
        service.store.db,
        "select agency_id from agencies where agency_id in ('LATE1', 'LATE2', 'HEADER1', 'BIG1')",
        [],
      )
    ).map((row) => row.agency_id),
    ['HEADER1'],
  );
  assertNoErrorLogged();
});

test('an upload that is not a readable multipart form (no boundary, cut short, a part cut short) is 400, starts no import and leaves no file', async () => {
  const importsBefore = await runSql(service.store.db, 'select import_id from console_imports', []);
  const uploadsBefore = uploadFolders();
  const part = (name: string, extra = '') => `--abc\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n`;
  for (const [contentType, body] of [
    ['multipart/form-data', `${part('kind')}orders\r\n--abc--\r\n`],
    ['multipart/form-data; boundary=abc', 'no part at all'],
    ['multipart/form-data; boundary=abc', `${part('kind')}orders\r\n--ab`],
    [
      'multipart/form-data; boundary=abc',
      `${part('kind')}orders\r\n${part('file', '; filename="a.json"')}[{"orderId":`,
    ],
  ]) {
    const answer = await browser.request('/console/imports', {
      body,
      headers: { 'content-type': contentType!, 'x-csrf-token': csrf },
    });
    assert.equal(answer.status, 400, `${contentType}: ${body}`);
    assert.match(answer.text, /<p class="error" role="alert">The request could not be read\.<\/p>/);
  }
  assert.deepEqual(await runSql(service.store.db, 'select import_id from console_imports', []), importsBefore);
  assert.deepEqual(uploadFolders(), uploadsBefore);
  assertNoErrorLogged();
});

test('issuing or revoking a token of an unknown agency is 404', async () => {
  const issue = await browser.request('/console/agencies/NOPE/tokens', { form: { _csrf: csrf, expiresInDays: '' } });
  assert.equal(issue.status, 404);
  assert.match(issue.text, /There is no such page/);
  const revoke = await browser.request('/console/agencies/NOPE/tokens/tok_0/revoke', { form: { _csrf: csrf } });
  assert.equal(revoke.status, 404);
  assert.deepEqual(
    await runSql(service.store.db, "select token_id from access_tokens where agency_id = 'NOPE'", []),
    [],
  );
  assertNoErrorLogged();
});

test("an act a URL names that is not the console's own (constructor, __proto__, toString) is 404, shown or sent, and changes nothing", async () => {
  const versionBefore = await runSql(service.store.db, "select version from orders where order_id = 'ORD-R1'", []);
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'refund']) {
    const path = `/console/orders/ORD-R1/bookings/REF001/${name}`;
    const shown = await browser.request(path);
    assert.equal(shown.status, 404, `GET ${name}`);
    assert.match(shown.text, /There is no such page/);
    const sent = await browser.request(path, { form: { _csrf: csrf, reason: 'trying a name' } });
    assert.equal(sent.status, 404, `POST ${name}`);
    assert.match(sent.text, /There is no such page/);
  }
  // The console's own acts are still found.
  assert.equal((await browser.request('/console/orders/ORD-R1/bookings/REF001/accept')).status, 200);
  assert.deepEqual(
    await runSql(service.store.db, "select version from orders where order_id = 'ORD-R1'", []),
    versionBefore,
  );
  assertNoErrorLogged();
});

test("?notice= shows only the console's own notices, never words from the URL", async () => {
  const phishing = 'Your session expired, re-enter your password at https://evil.example/';
  for (const path of ['/console', '/console/agencies', '/console/agencies/AG1', '/console/orders/ORD-R1']) {
    const page = await browser.request(`${path}?notice=${encodeURIComponent(phishing)}`);
    assert.equal(page.status, 200, path);
    assert.doesNotMatch(page.text, /evil\.example|re-enter your password/, path);
    assert.doesNotMatch(page.text, /class="notice"/, path);
  }
  const known = await browser.request('/console/agencies/AG1?notice=token-revoked');
  assert.match(known.text, /<p class="notice" role="status">Token revoked\.<\/p>/);
  const named = await browser.request('/console/orders/ORD-R1?notice=change-accepted&booking=REF001');
  assert.match(named.text, /<p class="notice" role="status">Booking REF001: change accepted\.<\/p>/);
  const foreign = await browser.request(
    `/console/orders/ORD-R1?notice=change-accepted&booking=${encodeURIComponent(phishing)}`,
  );
  assert.match(
    foreign.text,
    /<p class="notice" role="status">Change accepted\.<\/p>/,
    'a booking not on the page is not named',
  );
  assert.doesNotMatch(foreign.text, /evil\.example/);
  assert.doesNotMatch((await browser.request('/console?notice=__proto__')).text, /class="notice"/);

  // After a form, the redirect names its notice by key.
  const added = await browser.request('/console/agencies', {
    form: { _csrf: csrf, agencyId: 'AG-NOTE', name: 'Noted' },
  });
  assert.equal(added.status, 303);
  assert.equal(added.headers.get('location'), '/console/agencies/AG-NOTE?notice=agency-added');
  assertNoErrorLogged();
});

test('a path out of /docs/static, plain or encoded, never serves the file and is a 4xx in the plain error body', async () => {
  const port = Number(new URL(service.baseUrl).port);
  const paths = [
    '/docs/static/../../package.json',
    '/docs/static/%2e%2e/%2e%2e/package.json',
    '/docs/static/%2e%2e%2f%2e%2e%2fpackage.json',
    '/docs/static/..%2f..%2fpackage.json',
    '/docs/static/%252e%252e%252f%252e%252e%252fpackage.json',
    '/docs/static/..%5c..%5cpackage.json',
    '/docs/static/....//....//package.json',
    '/docs/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  ];
  for (const path of paths) {
    const answer = await socketRequest(port, { method: 'GET', path, headers: [['Host', 'x']] });
    assert.ok(answer, path);
    assert.ok(answer.status >= 400 && answer.status < 500, `${path}: ${answer.status}`);
    const text = answer.raw.toString('utf8');
    assert.doesNotMatch(text, /"name":\s*"airorder"|root:/, `${path} served a file`);
    const body = JSON.parse(text) as { Errors: { Code: string }[] };
    assert.notEqual(body.Errors[0]!.Code, 'INTERNAL_ERROR', path);
  }
  const traversal = await socketRequest(port, {
    method: 'GET',
    path: '/docs/static/../../package.json',
    headers: [['Host', 'x']],
  });
  assert.deepEqual(
    [traversal?.status, JSON.parse(traversal!.raw.toString('utf8')).Errors[0].Code],
    [403, 'REQUEST_REFUSED'],
  );
  assertNoErrorLogged();
});

test('a signed-in upload with its token first, or in X-CSRF-Token, is imported; a token after the file is refused before the file is read', async () => {
  const upload = async (form: FormData, headers: Record<string, string> = {}) =>
    browser.request('/console/imports', { body: form, headers });
  const file = (orderId: string, reference: string) =>
    new Blob([`${JSON.stringify(simpleOrder(orderId, 'AG1', reference, '2209999999999'))}\n`], {
      type: 'application/x-ndjson',
    });

  const first = new FormData();
  first.set('_csrf', csrf);
  first.set('kind', 'orders');
  first.set('file', file('ORD-UP1', 'UPL001'), 'one.ndjson');
  const byField = await upload(first);
  assert.equal(byField.status, 303, byField.text.slice(0, 300));

  const headerOnly = new FormData();
  headerOnly.set('kind', 'orders');
  headerOnly.set('file', file('ORD-UP2', 'UPL002'), 'two.ndjson');
  assert.equal((await upload(headerOnly, { 'x-csrf-token': csrf })).status, 303);

  const late = new FormData();
  late.set('kind', 'orders');
  late.set('file', file('ORD-UP3', 'UPL003'), 'three.ndjson');
  late.set('_csrf', csrf);
  assert.equal((await upload(late)).status, 403);

  const urlEncoded = await browser.request('/console/imports', { form: { _csrf: csrf, kind: 'orders' } });
  assert.equal(urlEncoded.status, 415, 'the import reads multipart only');

  // The imports run on after their answers: the orders appear once they have finished.
  for (const deadline = Date.now() + scaled(10_000); Date.now() < deadline;) {
    const rows = await runSql<{ order_id: string }>(
      service.store.db,
      "select order_id from orders where order_id like 'ORD-UP%' order by order_id",
      [],
    );
    if (rows.length >= 2) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(
    (
      await runSql<{ order_id: string }>(
        service.store.db,
        "select order_id from orders where order_id like 'ORD-UP%' order by order_id",
        [],
      )
    ).map((row) => row.order_id),
    ['ORD-UP1', 'ORD-UP2'],
  );
  assertNoErrorLogged();
});
