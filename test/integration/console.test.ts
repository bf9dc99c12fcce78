/**
 * The operator's console over HTTP, on both stores: sign-in and its limits, the session cookie and
 * its idle expiry (with the service's clock pinned), CSRF tokens, the separation of console sessions
 * and agency tokens, acting for an agency as the operator, and imports that store nothing on error.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { auditTrail } from '../../src/store/repositories/audit-repository.js';
import { runSql } from '../../src/store/raw-sql.js';
import { CliSandbox } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { bearer, change, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { errorOf } from '../helpers/wire-checks.js';

const EMAIL = 'desk@airline.example';
const PASSWORD = 'correct horse battery';
let now = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;
let token: string;

before(async () => {
  service = await startTestService({ clock: () => new Date(now).toISOString() });
  token = await service.tokenFor('AG1');
  await addOperator(service.store, () => new Date(now).toISOString(), { email: EMAIL, name: 'Desk One', password: PASSWORD });
  await service.importOrders([simpleOrder('ORD-C1', 'AG1', 'CON001', '2201111111111'), simpleOrder('ORD-C2', 'AG1', 'CON002', '2202222222222')]);
  await service.importChanges([change('CHG-C1', 'ORD-C1', 'CON001', ['S1'], [segment('S1B', 1, 14)])]);
});

after(async () => {
  await service?.close();
});

// Every client of these tests signs in from loopback: one test's wrong passwords must not limit the next.
beforeEach(async () => {
  await runSql(service?.store.db, 'delete from operator_login_failures', []);
});

function client(): ConsoleClient {
  return new ConsoleClient(service.baseUrl);
}

test('sign-in sets an HttpOnly, SameSite=Strict cookie on /console whose id is stored only hashed; sign-out ends the session', async () => {
  const browser = client();
  const form = await browser.request('/console/login');
  assert.equal(form.status, 200);
  assert.match(form.text, /<label for="email">Email<\/label>\s*<input type="email" id="email" name="email"/);
  assert.match(form.text, /<label for="password">Password<\/label>\s*<input type="password" id="password" name="password"/);
  assert.match(form.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'; style-src 'self'/);

  const signedIn = await browser.signIn(EMAIL, PASSWORD);
  assert.equal(signedIn.status, 303);
  assert.equal(signedIn.headers.get('location'), '/console');
  const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('airorder_console='))!;
  assert.match(cookie, /; Path=\/console; HttpOnly; SameSite=Strict$/);
  const sessionId = browser.cookies.get('airorder_console')!;
  const stored = await runSql<{ session_hash: string; email: string }>(service.store.db, 'select session_hash, email from operator_sessions', []);
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
  const signedIn = await browser.request('/console/login', { form: { _csrf: csrfOf(form.text), email: EMAIL, password: PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
  assert.equal(signedIn.status, 303);
  assert.match(signedIn.headers.getSetCookie().find((line) => line.startsWith('airorder_console='))!, /; Secure$/);
});

test('a session cookie does not open the API, and an agency token does not open the console', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const api = await service.post('/AirOrderRetrieve', { OrderRetrieveRQ: { Query: { OrderID: 'ORD-C1', GdsBookingReference: ['CON001'] } } }, { cookie: browser.cookieHeader() });
  assert.equal(api.status, 401, api.text);
  assert.equal(errorOf(api).Code, 'AUTH_MISSING');

  const withToken = await fetch(`${service.baseUrl}/console/orders`, { headers: bearer(token), redirect: 'manual' });
  assert.equal(withToken.status, 303);
  assert.equal(withToken.headers.get('location'), '/console/login');
  const tokenAsCookie = await fetch(`${service.baseUrl}/console/orders`, { headers: { cookie: `airorder_console=${token}` }, redirect: 'manual' });
  assert.equal(tokenAsCookie.status, 303);
});

test('a form without the session\'s CSRF token is refused and changes nothing', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const forged = await browser.request('/console/agencies', { form: { agencyId: 'FORGED', name: 'Forged' } });
  assert.equal(forged.status, 403);
  assert.match(forged.text, /security token is missing or wrong/);
  const wrong = await browser.request('/console/agencies', { form: { _csrf: 'x'.repeat(43), agencyId: 'FORGED', name: 'Forged' } });
  assert.equal(wrong.status, 403);
  assert.deepEqual(await runSql(service.store.db, "select agency_id from agencies where agency_id = 'FORGED'", []), []);

  // The sign-in form's own token: a login posted from elsewhere has no cookie to match.
  const loginForged = await client().request('/console/login', { form: { email: EMAIL, password: PASSWORD } });
  assert.equal(loginForged.status, 403);

  const real = await browser.submit('/console/agencies', '/console/agencies', { agencyId: 'AG-NEW', name: 'New Agency' });
  assert.equal(real.status, 303);
  assert.deepEqual(await runSql(service.store.db, "select agency_id from agencies where agency_id = 'AG-NEW'", []), [{ agency_id: 'AG-NEW' }]);
});

test('wrong passwords are limited per email, and unknown emails are answered exactly alike', async () => {
  const known = 'limited@airline.example';
  await addOperator(service.store, () => new Date(now).toISOString(), { email: known, name: 'Limited', password: PASSWORD });
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
  assert.equal((await client().signIn(EMAIL, PASSWORD)).status, 429, 'the address is limited, even for an email with no failure');
  now += 15 * 60_000 + 1000;
  assert.equal((await client().signIn(EMAIL, PASSWORD)).status, 303, 'fifteen minutes later it may try again');
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
  const events = await runSql<{ type: string; data: string }>(service.store.db, "select type, data from events where agency_id = 'AG1' order by position", []);
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
  assert.match((await browser.request('/console/orders?q=22022%25')).text, /No orders found/, 'LIKE wildcards match literally');
  await service.importOrders(Array.from({ length: 30 }, (_, index) => simpleOrder(`ORD-P${String(index).padStart(2, '0')}`, 'AG1', `PAG${String(index).padStart(3, '0')}`, `22099${String(index).padStart(8, '0')}`)));
  const first = await browser.request('/console/orders?q=');
  assert.match(first.text, /rel="next"/);
  const second = await browser.request('/console/orders?q=&page=2');
  assert.match(second.text, /rel="prev"/);
  const rows = (text: string) => [...text.matchAll(/<td><a href="\/console\/orders\/([^"]+)"/g)].map((match) => match[1]);
  assert.equal(rows(first.text).length, 25);
  assert.equal(rows(second.text).length, 32 - 25);
  assert.deepEqual(rows(first.text).filter((id) => rows(second.text).includes(id)), []);
});

test('an import with an error shows the record and field as the CLI does, and stores nothing', async () => {
  const browser = client();
  await browser.signIn(EMAIL, PASSWORD);
  const page = await browser.request('/console/imports');
  const bad = [simpleOrder('ORD-I1', 'AG1', 'IMP001', '2203333333331'), { ...simpleOrder('ORD-I2', 'AG1', 'IMP002', '2203333333332'), currency: 'EURO' }];
  const text = JSON.stringify(bad);
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', 'orders');
  form.set('file', new Blob([text], { type: 'application/json' }), 'orders.json');
  const answer = await browser.request('/console/imports', { body: form });
  assert.equal(answer.status, 422);
  const shown = /<code id="import-error">([^<]*)<\/code>/.exec(answer.text)?.[1];
  assert.deepEqual(await runSql(service.store.db, "select order_id from orders where order_id like 'ORD-I%'", []), []);

  const sandbox = new CliSandbox();
  try {
    await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
    const cli = await sandbox.run(['orders', 'import', '-'], { stdin: text });
    assert.equal(cli.code, 1);
    assert.equal(shown?.replace(/&#39;/g, '\'').replace(/&quot;/g, '"'), cli.stderr.trim());
    assert.match(cli.stderr, /record 2/);
    assert.match(cli.stderr, /currency/);
  } finally {
    await sandbox.cleanup();
  }

  const good = new FormData();
  good.set('_csrf', csrfOf(page.text));
  good.set('kind', 'orders');
  good.set('file', new Blob([JSON.stringify(bad.slice(0, 1))], { type: 'application/json' }), 'orders.json');
  const imported = await browser.request('/console/imports', { body: good });
  assert.equal(imported.status, 200);
  assert.match(imported.text, /&quot;imported&quot;:1/);
  const journal = await runSql<{ email: string; action: string }>(service.store.db, "select email, action from operator_actions where action = 'orders import'", []);
  assert.deepEqual(journal, [{ email: EMAIL, action: 'orders import' }]);
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
