/**
 * The operator's console over HTTP, on both stores: sign-in and its limits, the session cookie and
 * its idle expiry (with the service's clock pinned), CSRF tokens, the separation of console sessions
 * and agency tokens, acting for an agency as the operator, imports that store nothing on error and
 * whose progress is kept in the store, the operator's email on every action, and the request counts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { after, before, beforeEach, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { ABANDONED_AFTER_MS } from '../../src/console/console-imports.js';
import { LOGIN_WINDOW_MS } from '../../src/console/sign-in.js';
import { auditTrail } from '../../src/store/repositories/audit-repository.js';
import { runSql } from '../../src/store/raw-sql.js';
import { CliSandbox } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { repeated, signInAtOnce } from '../helpers/sign-in-burst.js';
import { bearer, bookingAt, change, involuntaryCancelRQ, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { errorOf } from '../helpers/wire-checks.js';
import { scaled } from '../helpers/time-scale.js';

const EMAIL = 'desk@airline.example';
const PASSWORD = 'correct horse battery';
let now = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;
let token: string;

before(async () => {
  service = await startTestService({ clock: () => new Date(now).toISOString() });
  token = await service.tokenFor('AG1');
  await addOperator(service.store, () => new Date(now).toISOString(), {
    email: EMAIL,
    name: 'Desk One',
    password: PASSWORD,
  });
  await service.importOrders([
    simpleOrder('ORD-C1', 'AG1', 'CON001', '2201111111111'),
    simpleOrder('ORD-C2', 'AG1', 'CON002', '2202222222222'),
  ]);
  await service.importChanges([change('CHG-C1', 'ORD-C1', 'CON001', ['S1'], [segment('S1B', 1, 14)])]);
});

after(async () => {
  await service?.close();
});

// Every client of these tests signs in from loopback: one test's wrong passwords must not limit the next.
// The windows end as they would, with the clock: the counts in the store and the refusals a process
// remembers alike (src/console/remembered-refusals.ts).
beforeEach(() => {
  now += LOGIN_WINDOW_MS + 1000;
});

function client(): ConsoleClient {
  return new ConsoleClient(service.baseUrl);
}

test('sign-in sets an HttpOnly, SameSite=Strict cookie on /console whose id is stored only hashed; sign-out ends the session', async () => {
  const browser = client();
  const form = await browser.request('/console/login');
  assert.equal(form.status, 200);
  assert.match(form.text, /<label for="email">Email<\/label>\s*<input type="email" id="email" name="email"/);
  assert.match(
    form.text,
    /<label for="password">Password<\/label>\s*<input type="password" id="password" name="password"/,
  );
  assert.match(
    form.headers.get('content-security-policy') ?? '',
    /default-src 'none'; script-src 'self'; style-src 'self'/,
  );

  const signedIn = await browser.signIn(EMAIL, PASSWORD);
  assert.equal(signedIn.status, 303);
  assert.equal(signedIn.headers.get('location'), '/console');
  const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('airorder_console='))!;
  assert.match(cookie, /; Path=\/console; HttpOnly; SameSite=Strict$/);
  const sessionId = browser.cookies.get('airorder_console')!;
  const stored = await runSql<{ session_hash: string; email: string }>(
    service.store.db,
    'select session_hash, email from operator_sessions',
    [],
  );
  assert.deepEqual(stored, [{ session_hash: createHash('sha256').update(sessionId).digest('hex'), email: EMAIL }]);

  const overview = await browser.request('/console');
  assert.equal(overview.status, 200);
  assert.match(overview.text, /Pending airline changes/);
  assert.match(overview.text, /CHG-C1/);

  const out = await browser.request('/console/logout', { form: { _csrf: csrfOf(overview.text) } });
  assert.equal(out.status, 303);
  assert.equal(out.headers.get('location'), '/console/login');
  assert.deepEqual(await runSql(service.store.db, 'select session_hash from operator_sessions', []), []);
  const stale = new ConsoleClient(service.baseUrl);
  stale.cookies.set('airorder_console', sessionId);
  assert.equal((await stale.request('/console')).status, 303, 'the ended session opens nothing');
});

test('behind https (X-Forwarded-Proto) the cookie is Secure', async () => {
  const browser = client();
  const form = await browser.request('/console/login', { headers: { 'x-forwarded-proto': 'https' } });
  const signedIn = await browser.request('/console/login', {
    form: { _csrf: csrfOf(form.text), email: EMAIL, password: PASSWORD },
    headers: { 'x-forwarded-proto': 'https' },
  });
  assert.equal(signedIn.status, 303);
  assert.match(
    signedIn.headers.getSetCookie().find((line) => line.startsWith('airorder_console='))!,
    /; Secure$/,
  );
});

test('a session cookie does not open the API, and an agency token does not open the console', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const api = await service.post(
    '/AirOrderRetrieve',
    { OrderRetrieveRQ: { Query: { OrderID: 'ORD-C1', GdsBookingReference: ['CON001'] } } },
    { cookie: browser.cookieHeader() },
  );
  assert.equal(api.status, 401, api.text);
  assert.equal(errorOf(api).Code, 'AUTH_MISSING');

  const withToken = await fetch(`${service.baseUrl}/console/orders`, { headers: bearer(token), redirect: 'manual' });
  assert.equal(withToken.status, 303);
  assert.equal(withToken.headers.get('location'), '/console/login');
  const tokenAsCookie = await fetch(`${service.baseUrl}/console/orders`, {
    headers: { cookie: `airorder_console=${token}` },
    redirect: 'manual',
  });
  assert.equal(tokenAsCookie.status, 303);
});

test("a form without the session's CSRF token is refused and changes nothing", async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const forged = await browser.request('/console/agencies', { form: { agencyId: 'FORGED', name: 'Forged' } });
  assert.equal(forged.status, 403);
  assert.match(forged.text, /security token is missing or wrong/);
  const wrong = await browser.request('/console/agencies', {
    form: { _csrf: 'x'.repeat(43), agencyId: 'FORGED', name: 'Forged' },
  });
  assert.equal(wrong.status, 403);
  assert.deepEqual(await runSql(service.store.db, "select agency_id from agencies where agency_id = 'FORGED'", []), []);

  // The sign-in form's own token: a login posted from elsewhere has no cookie to match.
  const loginForged = await client().request('/console/login', { form: { email: EMAIL, password: PASSWORD } });
  assert.equal(loginForged.status, 403);

  const real = await browser.submit('/console/agencies', '/console/agencies', {
    agencyId: 'AG-NEW',
    name: 'New Agency',
  });
  assert.equal(real.status, 303);
  assert.deepEqual(await runSql(service.store.db, "select agency_id from agencies where agency_id = 'AG-NEW'", []), [
    { agency_id: 'AG-NEW' },
  ]);
});

test('the agencies page lists each agency with its name, IATA number and contact email, empty where it has none', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const created = await browser.submit('/console/agencies', '/console/agencies', {
    agencyId: 'AG-LIST',
    name: 'Listed Agency',
    iata: '12345678',
    email: 'desk@listed.example',
  });
  assert.equal(created.status, 303, created.text);
  const page = (await browser.request('/console/agencies')).text;
  assert.ok(
    page.includes(
      '<tr><td><a href="/console/agencies/AG-LIST">AG-LIST</a></td><td>Listed Agency</td><td>12345678</td><td>desk@listed.example</td></tr>',
    ),
    page,
  );
  assert.ok(
    page.includes(
      '<tr><td><a href="/console/agencies/AG-NEW">AG-NEW</a></td><td>New Agency</td><td></td><td></td></tr>',
    ),
    page,
  );
});

test('wrong passwords are limited per email, and unknown emails are answered exactly alike', async () => {
  const known = 'limited@airline.example';
  await addOperator(service.store, () => new Date(now).toISOString(), {
    email: known,
    name: 'Limited',
    password: PASSWORD,
  });
  const knownAnswers: string[] = [];
  const unknownAnswers: string[] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const a = await client().signIn(known, 'wrong password!');
    const b = await client().signIn('nobody@airline.example', 'wrong password!');
    knownAnswers.push(`${a.status} ${a.text.replace(/value="[^"]*"/g, '')}`);
    unknownAnswers.push(`${b.status} ${b.text.replace(/value="[^"]*"/g, '')}`);
  }
  assert.match(knownAnswers[0]!, /^401 [\s\S]*The email or the password is wrong/);
  assert.deepEqual(knownAnswers, unknownAnswers);

  // The sixth try is refused even with the right password (the address, at 10 failures, is not limited yet).
  const limited = await client().signIn(known, PASSWORD);
  assert.equal(limited.status, 429);
  assert.match(limited.text, /Too many failed sign-ins/);
  const unknownLimited = await client().signIn('nobody@airline.example', PASSWORD);
  assert.equal(unknownLimited.status, 429);
  assert.equal(unknownLimited.text.replace(/value="[^"]*"/g, ''), limited.text.replace(/value="[^"]*"/g, ''));

  // Fifteen minutes later the email may try again.
  now += 15 * 60_000 + 1000;
  assert.equal((await client().signIn(known, PASSWORD)).status, 303);
});

test('wrong passwords are limited per address, whatever emails are tried', async () => {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    assert.equal((await client().signIn(`guess${attempt}@airline.example`, 'wrong password!')).status, 401);
  }
  assert.equal(
    (await client().signIn(EMAIL, PASSWORD)).status,
    429,
    'the address is limited, even for an email with no failure',
  );
  now += 15 * 60_000 + 1000;
  assert.equal((await client().signIn(EMAIL, PASSWORD)).status, 303, 'fifteen minutes later it may try again');
});

test('40 wrong passwords for one email sent at once: 5 are checked (401), 35 refused unchecked (429), and the right password after them too', async () => {
  const email = 'burst@airline.example';
  await addOperator(service.store, () => new Date(now).toISOString(), { email, name: 'Burst', password: PASSWORD });
  const logsBefore = service.logs.length;
  assert.deepEqual(await signInAtOnce([service.baseUrl], repeated(40, { email, password: 'wrong password!' })), {
    401: 5,
    429: 35,
  });
  const after = await client().signIn(email, PASSWORD);
  assert.equal(after.status, 429);
  assert.match(after.text, /Too many failed sign-ins/);
  assert.deepEqual(
    service.logs.slice(logsBefore).filter((line) => Number(line.level) >= 50),
    [],
    'no error-level log line',
  );
});

test('the right password among 40 attempts sent at once: still no more than 5 wrong ones checked', async () => {
  const email = 'among@airline.example';
  await addOperator(service.store, () => new Date(now).toISOString(), { email, name: 'Among', password: PASSWORD });
  const attempts = repeated(40, { email, password: 'wrong password!' });
  attempts[20] = { email, password: PASSWORD };
  const tally = await signInAtOnce([service.baseUrl], attempts);
  const { 401: checkedWrong = 0, 303: signedIn = 0, 429: refused = 0 } = tally;
  assert.ok(checkedWrong <= 5, `wrong passwords checked: ${JSON.stringify(tally)}`);
  assert.ok(signedIn <= 1, JSON.stringify(tally));
  assert.equal(checkedWrong + signedIn + refused, 40, JSON.stringify(tally));
});

test('40 emails tried at once from one address: 20 are checked (401), 20 refused unchecked (429)', async () => {
  const attempts = Array.from({ length: 40 }, (_, index) => ({
    email: `crowd${index}@airline.example`,
    password: 'wrong password!',
  }));
  assert.deepEqual(await signInAtOnce([service.baseUrl], attempts), { 401: 20, 429: 20 });
  assert.equal(
    (await client().signIn(EMAIL, PASSWORD)).status,
    429,
    'the address is limited, even for an email with no failure',
  );
});

test("a success takes back its own attempt and nothing more: it does not reset the address's count", async () => {
  for (let attempt = 0; attempt < 19; attempt += 1) {
    assert.equal((await client().signIn(`guess${attempt}@airline.example`, 'wrong password!')).status, 401);
  }
  assert.equal((await client().signIn(EMAIL, PASSWORD)).status, 303, 'the 20th attempt, the right password');
  assert.equal(
    (await client().signIn('guess19@airline.example', 'wrong password!')).status,
    401,
    'the success is not counted as a failure',
  );
  assert.equal(
    (await client().signIn(EMAIL, PASSWORD)).status,
    429,
    'the 20 failures before and after the success all count',
  );
});

test("a success does not clear the email's failures: they stay counted until their window ends", async () => {
  const email = 'steady@airline.example';
  await addOperator(service.store, () => new Date(now).toISOString(), { email, name: 'Steady', password: PASSWORD });
  for (let attempt = 0; attempt < 4; attempt += 1)
    assert.equal((await client().signIn(email, 'wrong password!')).status, 401);
  assert.equal((await client().signIn(email, PASSWORD)).status, 303);
  assert.equal((await client().signIn(email, 'wrong password!')).status, 401, 'the fifth failure');
  assert.equal(
    (await client().signIn(email, PASSWORD)).status,
    429,
    'five failures within the window, a success among them',
  );
  now += 15 * 60_000 + 1000;
  assert.equal((await client().signIn(email, PASSWORD)).status, 303, 'the window has ended');
});

test("an email too long to be an operator's is answered and counted as any wrong password", async () => {
  const long = `${'x'.repeat(1000)}@airline.example`;
  const withoutValues = (text: string) => text.replace(/value="[^"]*"/g, '');
  const unknown = await client().signIn('nobody@airline.example', 'wrong password!');
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const answer = await client().signIn(long, 'wrong password!');
    assert.equal(answer.status, 401);
    assert.equal(withoutValues(answer.text), withoutValues(unknown.text));
  }
  assert.equal((await client().signIn(long, 'wrong password!')).status, 429);
});

test('a session ends after 12 hours without use; each use starts the 12 hours again', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  now += 11 * 3_600_000;
  assert.equal((await browser.request('/console')).status, 200);
  now += 11 * 3_600_000;
  assert.equal((await browser.request('/console')).status, 200, 'used 11 hours ago: still open');
  now += 12 * 3_600_000;
  const expired = await browser.request('/console');
  assert.equal(expired.status, 303);
  assert.equal(expired.headers.get('location'), '/console/login');
});

test('an operator accepts a change for the agency: same events as the API, audit trail names the operator and the reason', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const path = '/console/orders/ORD-C1/bookings/CON001/accept';
  const noReason = await browser.submit(path, path, { reason: '' });
  assert.equal(noReason.status, 400);
  assert.match(noReason.text, /Give a reason/);
  const done = await browser.submit(path, path, { reason: 'Agency asked by phone' });
  assert.equal(done.status, 303, done.text.slice(0, 500));

  const trail = await auditTrail(service.store.db, 'ORD-C1');
  const accepted = trail.filter((record) => record.operation === 'AirOrderInvoluntaryAccept');
  assert.ok(accepted.length > 0);
  for (const record of accepted) {
    assert.equal(record.actor, 'operator');
    assert.equal(record.operatorEmail, EMAIL);
    assert.equal(record.reason, 'Agency asked by phone');
  }
  const events = await runSql<{ type: string; data: string }>(
    service.store.db,
    "select type, data from events where agency_id = 'AG1' order by position",
    [],
  );
  const resolved = events.find((event) => event.type === 'airline_change.resolved');
  assert.ok(resolved, 'the agency is told, as after its own call');
  assert.match(resolved.data, /OPERATOR/);

  const page = await browser.request('/console/orders/ORD-C1');
  assert.match(page.text, /by operator desk@airline\.example via AirOrderInvoluntaryAccept/);
  assert.match(page.text, /Reason: Agency asked by phone/);
});

test('orders are found by order id, booking reference, ticket number and surname; the search pages', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  for (const q of ['ORD-C2', 'con002', '2202222222222']) {
    const found = await browser.request(`/console/orders?q=${encodeURIComponent(q)}`);
    assert.match(found.text, /href="\/console\/orders\/ORD-C2"/, q);
    assert.doesNotMatch(found.text, /href="\/console\/orders\/ORD-C1"/, q);
  }
  const bySurname = await browser.request('/console/orders?q=lovelace');
  assert.match(bySurname.text, /ORD-C1/);
  assert.match(bySurname.text, /ORD-C2/);
  assert.match(
    (await browser.request('/console/orders?q=22022%25')).text,
    /No orders found/,
    'LIKE wildcards match literally',
  );
  await service.importOrders(
    Array.from({ length: 30 }, (_, index) =>
      simpleOrder(
        `ORD-P${String(index).padStart(2, '0')}`,
        'AG1',
        `PAG${String(index).padStart(3, '0')}`,
        `22099${String(index).padStart(8, '0')}`,
      ),
    ),
  );
  const first = await browser.request('/console/orders?q=');
  assert.match(first.text, /rel="next"/);
  const second = await browser.request('/console/orders?q=&page=2');
  assert.match(second.text, /rel="prev"/);
  const rows = (text: string) =>
    [...text.matchAll(/<td><a href="\/console\/orders\/([^"]+)"/g)].map((match) => match[1]);
  assert.equal(rows(first.text).length, 25);
  assert.equal(rows(second.text).length, 32 - 25);
  assert.deepEqual(
    rows(first.text).filter((id) => rows(second.text).includes(id)),
    [],
  );
});

interface Progress {
  status: string;
  phase: string;
  recordsRead: number;
  recordsStored: number;
  recordsTotal: number | null;
  label: string;
  counts: string;
}

/** Uploads a file on the Imports page: the answer sends the browser to the import's own page. */
async function upload(browser: ConsoleClient, kind: 'orders' | 'changes', name: string, text: string): Promise<string> {
  const page = await browser.request('/console/imports');
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', kind);
  form.set('file', new Blob([text], { type: 'application/json' }), name);
  const answer = await browser.request('/console/imports', { body: form });
  assert.equal(answer.status, 303, answer.text.slice(0, 500));
  const location = answer.headers.get('location') ?? '';
  assert.match(location, /^\/console\/imports\/imp_[0-9a-f]+$/);
  return location;
}

/** Reads the import's progress, as its page's script does, until it has finished; every reading on the way is kept. */
async function follow(browser: ConsoleClient, importPath: string): Promise<Progress[]> {
  const seen: Progress[] = [];
  for (const deadline = Date.now() + scaled(120_000); Date.now() < deadline;) {
    const answer = await browser.request(`${importPath}/progress`);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const progress = JSON.parse(answer.text) as Progress;
    seen.push(progress);
    if (progress.status !== 'running') return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${importPath} did not finish: ${JSON.stringify(seen.at(-1))}`);
}

test('an import with an error shows the record and field as the CLI does, and stores nothing', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const bad = [
    simpleOrder('ORD-I1', 'AG1', 'IMP001', '2203333333331'),
    { ...simpleOrder('ORD-I2', 'AG1', 'IMP002', '2203333333332'), currency: 'EURO' },
  ];
  const text = JSON.stringify(bad);
  const importPath = await upload(browser, 'orders', 'orders.json', text);
  const final = (await follow(browser, importPath)).at(-1)!;
  assert.equal(final.status, 'failed');
  const answer = await browser.request(importPath);
  assert.equal(answer.status, 200);
  const shown = /<code id="import-error">([^<]*)<\/code>/.exec(answer.text)?.[1];
  assert.match(answer.text, /Nothing was stored/);
  assert.deepEqual(await runSql(service.store.db, "select order_id from orders where order_id like 'ORD-I%'", []), []);
  assert.deepEqual(await auditTrail(service.store.db, 'ORD-I1'), []);

  const sandbox = new CliSandbox();
  try {
    await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
    const cli = await sandbox.run(['orders', 'import', '-'], { stdin: text });
    assert.equal(cli.code, 1);
    assert.equal(shown?.replace(/&#39;/g, "'").replace(/&quot;/g, '"'), cli.stderr.trim());
    assert.match(cli.stderr, /^error: record 2 \(order ORD-I2\): /);
    assert.match(cli.stderr, /currency/);
  } finally {
    await sandbox.cleanup();
  }
  assert.deepEqual(
    await runSql(service.store.db, "select email from operator_actions where action = 'orders import'", []),
    [],
    'a refused file is no import',
  );
});

test('imports through the console name the operator in the audit trail: orders and airline changes, on the timeline and in the journal', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const ordersPath = await upload(
    browser,
    'orders',
    'two-orders.json',
    JSON.stringify([
      simpleOrder('ORD-I3', 'AG1', 'IMP003', '2203333333333'),
      simpleOrder('ORD-I4', 'AG1', 'IMP004', '2203333333334'),
    ]),
  );
  const orders = (await follow(browser, ordersPath)).at(-1)!;
  assert.deepEqual(
    { status: orders.status, read: orders.recordsRead, stored: orders.recordsStored, total: orders.recordsTotal },
    { status: 'done', read: 2, stored: 2, total: 2 },
  );
  const done = await browser.request(ordersPath);
  assert.match(
    done.text,
    /<section class="notice" role="status" id="import-result"><p>Orders imported: <code>\{&quot;imported&quot;:2,&quot;replaced&quot;:0\}<\/code>/,
  );
  assert.match(done.text, /<progress id="import-bar" max="2" value="2">/);
  assert.doesNotMatch(done.text, /data-progress-url/, 'nothing left to follow');

  const changesPath = await upload(
    browser,
    'changes',
    'changes.ndjson',
    `${JSON.stringify(change('CHG-I3', 'ORD-I3', 'IMP003', ['S1'], [segment('S1B', 1, 14)]))}\n`,
  );
  assert.equal((await follow(browser, changesPath)).at(-1)!.status, 'done');

  for (const orderId of ['ORD-I3', 'ORD-I4']) {
    const trail = await auditTrail(service.store.db, orderId);
    const imported = trail.find((record) => record.event === 'ORDER_IMPORTED')!;
    assert.equal(imported.actor, 'operator');
    assert.equal(imported.operation, 'orders import');
    assert.equal(imported.operatorEmail, EMAIL);
    assert.ok(imported.requestId, "the upload's request id");
  }
  const recorded = (await auditTrail(service.store.db, 'ORD-I3')).find((record) => record.event === 'CHANGE_RECORDED')!;
  assert.deepEqual([recorded.actor, recorded.operation, recorded.operatorEmail], ['operator', 'changes import', EMAIL]);
  const timeline = await browser.request('/console/orders/ORD-I3');
  assert.match(timeline.text, /ORDER_IMPORTED · by operator desk@airline\.example via orders import/);
  assert.match(timeline.text, /CHANGE_RECORDED · IMP003 · by operator desk@airline\.example via changes import/);

  const journal = await runSql<{ email: string; action: string; target: string }>(
    service.store.db,
    "select email, action, target from operator_actions where action in ('orders import', 'changes import') order by occurred_at, action_id",
    [],
  );
  assert.deepEqual(journal, [
    { email: EMAIL, action: 'orders import', target: 'two-orders.json: {"imported":2,"replaced":0}' },
    { email: EMAIL, action: 'changes import', target: 'changes.ndjson: {"imported":1,"alreadyKnown":0}' },
  ]);
  const list = await browser.request('/console/imports');
  assert.match(
    list.text,
    /<a href="\/console\/imports\/imp_[0-9a-f]+">two-orders\.json<\/a><\/td><td>Orders<\/td><td>desk@airline\.example<\/td>\s*<td>Finished<\/td><td>2 of 2 records stored\.<\/td>/,
  );
});

test("an import's progress is in the store while it runs: records read, then stored of the total, on a page that follows it without inline script", async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const count = 6000;
  const documents = Array.from({ length: count }, (_, index) =>
    simpleOrder(
      `ORD-BIG${index}`,
      'AG1',
      `B${String(index).padStart(5, '0')}`,
      `2207${String(index).padStart(9, '0')}`,
    ),
  );
  const importPath = await upload(
    browser,
    'orders',
    'many.ndjson',
    `${documents.map((document) => JSON.stringify(document)).join('\n')}\n`,
  );
  const running = await browser.request(importPath);
  assert.match(
    running.text,
    /<section class="card" aria-labelledby="progress-heading" id="import-progress" data-progress-url="\/console\/imports\/imp_[0-9a-f]+\/progress">/,
  );
  assert.match(running.text, /<label for="import-bar" id="import-label">[^<]+<\/label>\s*<progress id="import-bar"/);
  assert.match(running.text, /<p id="import-phase" role="status" aria-live="polite">Running: /);
  assert.match(running.text, /<a href="\/console\/imports\/imp_[0-9a-f]+">Show the latest progress<\/a>/);
  assert.doesNotMatch(running.text, /<script>|<script [^>]*>[^<]/, 'no inline script');
  assert.match(
    running.headers.get('content-security-policy') ?? '',
    /script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'/,
  );

  const seen = await follow(browser, importPath);
  const during = seen.filter((progress) => progress.status === 'running');
  assert.ok(
    during.some(
      (progress) =>
        progress.phase === 'reading' &&
        progress.recordsRead > 0 &&
        progress.recordsRead < count &&
        progress.recordsTotal === null,
    ),
    `records read while reading: ${JSON.stringify(during.map((progress) => [progress.phase, progress.recordsRead, progress.recordsStored]))}`,
  );
  assert.ok(
    during.some((progress) => progress.phase === 'storing' && progress.recordsTotal === count),
    'the total once every record is read',
  );
  for (let index = 1; index < seen.length; index += 1) {
    assert.ok(
      seen[index]!.recordsRead >= seen[index - 1]!.recordsRead &&
        seen[index]!.recordsStored >= seen[index - 1]!.recordsStored,
      'progress only goes forward',
    );
  }
  const final = seen.at(-1)!;
  assert.deepEqual(
    [final.status, final.recordsRead, final.recordsStored, final.recordsTotal],
    ['done', count, count, count],
  );
  assert.equal(final.counts, '6,000 of 6,000 records stored.');
  const [stored] = await runSql<{ n: number | string }>(
    service.store.db,
    "select count(*) as n from orders where order_id like 'ORD-BIG%'",
    [],
  );
  assert.equal(Number(stored!.n), count);
});

test('the most recently changed orders page on past the first thousand audit entries: each page its own 25 orders', async () => {
  // The 6,000 orders of the import above are each in the audit log: page 41 starts past its first 1,000 entries.
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const rows = async (page: number) =>
    [
      ...(await browser.request(`/console/orders?q=&page=${page}`)).text.matchAll(
        /<td><a href="\/console\/orders\/([^"]+)"/g,
      ),
    ].map((match) => match[1]);
  const pages = [await rows(40), await rows(41), await rows(42)];
  assert.deepEqual(
    pages.map((ids) => ids.length),
    [25, 25, 25],
  );
  assert.equal(new Set(pages.flat()).size, 75, 'no order on two pages');
  assert.ok(
    pages.flat().every((id) => id!.startsWith('ORD-BIG')),
    pages.flat().join(' '),
  );
});

// On PostgreSQL the processes may run on several hosts: one cannot ask the system whether another
// host's process still runs, only how long ago its import's row was written (its heartbeat).
test("another host's running import is taken as interrupted once its row has been silent for more than ABANDONED_AFTER_MS, not before", async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const at = (ms: number) => new Date(ms).toISOString();
  const runner = 'elsewhere.example:4242/1764000000';
  for (const [importId, updatedAt] of [
    ['imp_heard', at(now - ABANDONED_AFTER_MS)],
    ['imp_silent', at(now - ABANDONED_AFTER_MS - 1)],
  ]) {
    await service.store.write((tx) =>
      tx.insertConsoleImport(
        { importId: importId!, kind: 'orders', fileName: `${importId}.json`, operatorEmail: EMAIL, runner },
        updatedAt!,
      ),
    );
  }
  const page = await browser.request('/console/imports');
  assert.equal(page.status, 200);
  const rows = await runSql<{ import_id: string; status: string; error: string | null; updated_at: string }>(
    service.store.db,
    "select import_id, status, error, updated_at from console_imports where import_id in ('imp_heard', 'imp_silent') order by import_id",
    [],
  );
  assert.deepEqual(
    rows.map((row) => [row.import_id, row.status, row.error, row.updated_at]),
    [
      ['imp_heard', 'running', null, at(now - ABANDONED_AFTER_MS)],
      [
        'imp_silent',
        'failed',
        'Interrupted: the process running this import (elsewhere.example:4242) stopped before it finished; nothing was stored. Upload the file again.',
        at(now),
      ],
    ],
  );
  assert.ok(page.text.includes('imp_silent.json'), 'the page lists the import it ended');
  // An import is ended only if its row is as it was read: written since, it is left, and the caller told so.
  const end = (seenAt: string) =>
    service.store.write((tx) => tx.failRunningConsoleImport('imp_heard', 'Interrupted.', at(now), seenAt));
  assert.equal(await end(at(now - ABANDONED_AFTER_MS - 1)), false);
  assert.equal(await end(at(now - ABANDONED_AFTER_MS)), true);
  const [ended] = await runSql<{ status: string; error: string }>(
    service.store.db,
    "select status, error from console_imports where import_id = 'imp_heard'",
    [],
  );
  assert.deepEqual({ ...ended }, { status: 'failed', error: 'Interrupted.' });
});

test('an abandoned import that had stored its file (its summary written with it) is ended as done, not as nothing stored', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const silentSince = new Date(now - ABANDONED_AFTER_MS - 1).toISOString();
  await service.store.write(async (tx) => {
    await tx.insertConsoleImport(
      {
        importId: 'imp_stored',
        kind: 'orders',
        fileName: 'stored.json',
        operatorEmail: EMAIL,
        runner: 'elsewhere.example:4343/1764000000',
      },
      silentSince,
    );
    await tx.updateConsoleImport(
      'imp_stored',
      { summary: '{"imported":2,"replaced":0}', recordsStored: 2 },
      silentSince,
    );
  });
  const page = await browser.request('/console/imports');
  assert.equal(page.status, 200);
  const [row] = await runSql<{ status: string; error: string | null; summary: string; updated_at: string }>(
    service.store.db,
    "select status, error, summary, updated_at from console_imports where import_id = 'imp_stored'",
    [],
  );
  assert.deepEqual(
    { ...row },
    { status: 'done', error: null, summary: '{"imported":2,"replaced":0}', updated_at: new Date(now).toISOString() },
  );
  // Ended, it is written no more: a late write of its process changes nothing.
  assert.equal(
    await service.store.write((tx) => tx.updateConsoleImport('imp_stored', { recordsStored: 1 }, silentSince)),
    false,
  );
});

/** The overview's section with this heading id, as served. */
function overviewSection(html: string, id: string): string {
  const start = html.indexOf(`<section class="card" aria-labelledby="${id}">`);
  assert.ok(start >= 0, id);
  return html.slice(start, html.indexOf('</section>', start));
}

test("the overview's refunds of the last 24 hours by currency, and the webhook endpoints whose deliveries fail, read from the store", async () => {
  // Earlier tests' refunds fall out of the 24 hours.
  now += 25 * 3_600_000;
  const at = () => new Date(now).toISOString();
  const agencyToken = await service.tokenFor('AGOV');
  await service.store.write((tx) =>
    tx.insertEndpoint({
      endpointId: 'we_overview',
      agencyId: 'AGOV',
      url: 'https://hooks.example/agov',
      events: ['*'],
      status: 'ENABLED',
      statusReason: null,
      secret: 'whsec_overview',
      previousSecret: null,
      previousSecretUntil: null,
      createdAt: at(),
    }),
  );
  await service.importOrders([
    simpleOrder('ORD-OV1', 'AGOV', 'OVR001', '2203000000001'),
    bookingAt('ORD-OV2', 'AGOV', 'JPY', 'OVR002', {
      ticketNumber: '2203000000002',
      baseFare: '5000',
      taxes: '0',
      coupons: [{ segmentId: 'S1', status: 'OPEN', value: '5000' }],
    }),
  ]);
  await service.importChanges([
    change('CHG-OV1', 'ORD-OV1', 'OVR001', ['S1'], [], 'FLIGHT_CANCELLATION'),
    change('CHG-OV2', 'ORD-OV2', 'OVR002', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ]);
  for (const [orderId, reference] of [
    ['ORD-OV1', 'OVR001'],
    ['ORD-OV2', 'OVR002'],
  ]) {
    const answer = await service.post(
      '/AirOrderInvoluntaryCancel',
      involuntaryCancelRQ(orderId!, [reference!]),
      bearer(agencyToken),
    );
    assert.equal(answer.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS', answer.text);
  }
  // The dispatcher's attempts, as it records them: one delivery retrying after a 503, the rest failed for good.
  const claimed = await service.store.write(async (tx) => {
    const deliveries = await tx.claimDeliveries('we_overview', 'in-process', at(), '2999-01-01T00:00:00.000Z', 100);
    for (const [index, delivery] of deliveries.entries()) {
      const retrying = index === 0;
      await tx.recordAttempt(delivery.eventId, 'we_overview', 'in-process', {
        status: retrying ? 'PENDING' : 'FAILED',
        lastStatus: retrying ? 503 : null,
        lastError: retrying ? 'HTTP 503' : 'connect ECONNREFUSED',
        nextAttemptAt: at(),
        at: at(),
      });
    }
    return deliveries.length;
  });
  assert.ok(claimed >= 2, `deliveries of both orders' events: ${claimed}`);

  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const overview = (await browser.request('/console')).text;
  assert.equal(
    overviewSection(overview, 'refunds').split('<tbody>')[1],
    '\n<tr><td>EUR</td><td>1</td><td>570.50 EUR</td></tr><tr><td>JPY</td><td>1</td><td>5000 JPY</td></tr></tbody></table>',
  );
  assert.equal(
    overviewSection(overview, 'failing').split('<tbody>')[1],
    `\n<tr><td><a href="/console/agencies/AGOV">AGOV</a></td><td>https://hooks.example/agov</td><td>${claimed}</td><td>connect ECONNREFUSED</td></tr></tbody></table>`,
  );

  // 24 hours on they are still counted; a millisecond later they have left; the endpoint still fails.
  now += 24 * 3_600_000;
  await browser.signIn(EMAIL, PASSWORD);
  assert.match(overviewSection((await browser.request('/console')).text, 'refunds'), /<td>570\.50 EUR<\/td>/);
  now += 1;
  const later = (await browser.request('/console')).text;
  assert.match(overviewSection(later, 'refunds'), /<p class="muted">None\.<\/p>/);
  assert.match(overviewSection(later, 'failing'), /https:\/\/hooks\.example\/agov/);
});

test("every other console action is recorded with the operator's email: sign-in, agency added, token issued and revoked, sign-out", async () => {
  await runSql(service.store.db, 'delete from operator_actions', []);
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  assert.equal(
    (await browser.submit('/console/agencies', '/console/agencies', { agencyId: 'AG-REC', name: 'Recorded Agency' }))
      .status,
    303,
  );
  const issued = await browser.submit('/console/agencies/AG-REC', '/console/agencies/AG-REC/tokens', {
    expiresInDays: '',
  });
  assert.equal(issued.status, 200);
  const tokenId = /Token (tok_[0-9a-f]+) issued/.exec(issued.text)?.[1];
  assert.ok(tokenId);
  assert.equal(
    (
      await browser.request(`/console/agencies/AG-REC/tokens/${tokenId}/revoke`, {
        form: { _csrf: csrfOf(issued.text) },
      })
    ).status,
    303,
  );
  const overview = await browser.request('/console');
  await browser.request('/console/logout', { form: { _csrf: csrfOf(overview.text) } });

  const journal = await runSql<{ email: string; action: string; target: string }>(
    service.store.db,
    'select email, action, target from operator_actions order by occurred_at, action_id',
    [],
  );
  assert.deepEqual(
    journal.map((row) => [row.email, row.action, row.target.replace(/^::ffff:/, '')]),
    [
      [EMAIL, 'sign in', '127.0.0.1'],
      [EMAIL, 'agency add', 'AG-REC'],
      [EMAIL, 'token issue', `AG-REC ${tokenId}`],
      [EMAIL, 'token revoke', `AG-REC ${tokenId}`],
      [EMAIL, 'sign out', '127.0.0.1'],
    ],
  );
  assert.match(
    overview.text,
    /<td>desk@airline\.example<\/td><td>token revoke<\/td><td>AG-REC tok_/,
    'shown on the overview',
  );
});

test("the overview counts the API's requests of the last hour by outcome code", async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const before = await requestsShown(browser);
  for (let index = 0; index < 3; index += 1) {
    assert.equal(
      (
        await service.post(
          '/AirOrderRetrieve',
          { OrderRetrieveRQ: { Query: { OrderID: 'ORD-C2', GdsBookingReference: ['CON002'] } } },
          bearer(token),
        )
      ).status,
      200,
    );
  }
  assert.equal(
    (
      await service.post('/AirOrderRetrieve', {
        OrderRetrieveRQ: { Query: { OrderID: 'ORD-C2', GdsBookingReference: ['CON002'] } },
      })
    ).status,
    401,
  );
  const after = await requestsShown(browser);
  assert.equal((after.OK ?? 0) - (before.OK ?? 0), 3);
  assert.equal((after.AUTH_MISSING ?? 0) - (before.AUTH_MISSING ?? 0), 1);
});

async function requestsShown(browser: ConsoleClient): Promise<Record<string, number>> {
  const overview = await browser.request('/console');
  const section = overview.text.slice(overview.text.indexOf('id="requests"'), overview.text.indexOf('id="actions"'));
  return Object.fromEntries(
    [...section.matchAll(/<tr><td>([^<]+)<\/td><td>(\d+)<\/td><\/tr>/g)].map((match) => [match[1]!, Number(match[2])]),
  );
}

test("the console's style sheet and script are the files of src/console/assets, with their types, to anyone", async () => {
  for (const [name, type] of [
    ['console.css', 'text/css; charset=utf-8'],
    ['console.js', 'text/javascript; charset=utf-8'],
  ] as const) {
    const answer = await fetch(`${service.baseUrl}/console/assets/${name}`);
    assert.equal(answer.status, 200, name);
    assert.equal(answer.headers.get('content-type'), type, name);
    assert.equal(answer.headers.get('cache-control'), 'max-age=300', name);
    const expected = fs.readFileSync(new URL(`../../src/console/assets/${name}`, import.meta.url), 'utf8');
    assert.ok(expected.length > 100, `${name} is a real file`);
    assert.equal(await answer.text(), expected, name);
  }
});

test('CONSOLE=off leaves the console out', async () => {
  const off = await startTestService({ env: { CONSOLE: 'off' } });
  try {
    const answer = await fetch(`${off.baseUrl}/console/login`);
    assert.equal(answer.status, 404);
    assert.match(answer.headers.get('content-type') ?? '', /json/);
  } finally {
    await off.close();
  }
});

// Last of the file: the order it adds would change the counts the tests above read.
test('a search matches its text literally: a wildcard is neither dropped nor turned into another text', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const undefinedOrder = simpleOrder('ORD-UNDEF', 'AG1', 'UND001', '2203333333333') as {
    bookings: { passengers: { surname: string }[] }[];
  };
  undefinedOrder.bookings[0]!.passengers[0]!.surname = 'UNDEFINED';
  await service.importOrders([undefinedOrder]);
  assert.match((await browser.request('/console/orders?q=undefined')).text, /href="\/console\/orders\/ORD-UNDEF"/);
  // Each would find that order if its wildcard were dropped or turned into "undefined".
  for (const q of ['2203333333333_', '2203333333333%', '%', '_', '\\']) {
    assert.match((await browser.request(`/console/orders?q=${encodeURIComponent(q)}`)).text, /No orders found/, q);
  }
});
