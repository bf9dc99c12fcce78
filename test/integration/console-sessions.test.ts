/**
 * The console's session and CSRF rules at their edges (docs/security.md): a session ends 12 hours
 * after its last use, to the millisecond; its last use is written at most once a minute; signing in
 * clears sessions idle for 12 hours; a disabled operator's session ends; a form's token is the
 * session's, in X-CSRF-Token or as the first field, and nothing else opens a form.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { runSql } from '../../src/store/raw-sql.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const EMAIL = 'sessions@airline.example';
const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
const IDLE = 12 * HOUR;
let now = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;

before(async () => {
  service = await startTestService({ clock: () => new Date(now).toISOString() });
  await addOperator(service.store, () => new Date(now).toISOString(), {
    email: EMAIL,
    name: 'Session Desk',
    password: PASSWORD,
  });
});

after(async () => {
  await service?.close();
});

// Sign-ins from loopback are counted: one test's must not limit the next.
beforeEach(async () => {
  await runSql(service.store.db, 'delete from operator_sign_in_attempts', []);
});

async function signedIn(): Promise<{ browser: ConsoleClient; hash: string }> {
  const browser = new ConsoleClient(service.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  const id = browser.cookies.get('airorder_console');
  assert.ok(id, 'the session cookie is set');
  return { browser, hash: createHash('sha256').update(id).digest('hex') };
}

async function lastSeen(hash: string): Promise<string | null> {
  const rows = await runSql<{ last_seen_at: string }>(
    service.store.db,
    'select last_seen_at from operator_sessions where session_hash = ?',
    [hash],
  );
  return rows[0]?.last_seen_at ?? null;
}

async function overview(browser: ConsoleClient): Promise<number> {
  return (await browser.request('/console')).status;
}

test('a session is open until 12 hours after its last use and ends at 12 hours exactly, its row removed', async () => {
  const { browser, hash } = await signedIn();
  const signedInAt = now;
  now = signedInAt + IDLE - 1;
  assert.equal(await overview(browser), 200, 'a millisecond before the 12 hours');
  assert.equal(await lastSeen(hash), new Date(now).toISOString(), 'the use starts the 12 hours again');

  const { browser: other, hash: otherHash } = await signedIn();
  now += IDLE;
  const ended = await browser.request('/console');
  assert.equal(ended.status, 303, '12 hours to the millisecond after the last use');
  assert.equal(ended.headers.get('location'), '/console/login');
  assert.equal(await lastSeen(hash), null, 'the ended session is removed');
  assert.equal(await overview(other), 303);
  assert.equal(await lastSeen(otherHash), null);
});

test('the last use is written at most once a minute: not 59.999 seconds after the one written, then at 60 seconds', async () => {
  const { browser, hash } = await signedIn();
  const written = new Date(now).toISOString();
  now += 59_999;
  assert.equal(await overview(browser), 200);
  assert.equal(await lastSeen(hash), written, 'within the minute nothing is written');
  now += 1;
  assert.equal(await overview(browser), 200);
  assert.equal(await lastSeen(hash), new Date(now).toISOString(), 'a minute after: written');
});

test('signing in removes the sessions idle for longer than 12 hours, and keeps the others', async () => {
  const { hash: idle } = await signedIn();
  now += HOUR;
  const { hash: recent } = await signedIn();
  now += IDLE - HOUR + 1;
  // `idle` was last used 12 hours and a millisecond ago, `recent` 11 hours and a millisecond ago.
  const { hash: fresh } = await signedIn();
  assert.equal(await lastSeen(idle), null, 'idle for longer than 12 hours: removed');
  assert.notEqual(await lastSeen(recent), null, 'idle for 11 hours: kept');
  assert.notEqual(await lastSeen(fresh), null);
});

test('an operator disabled while a session of theirs is stored: the session ends at its next request and is removed', async () => {
  const { browser, hash } = await signedIn();
  assert.equal(await overview(browser), 200);
  await runSql(service.store.db, 'update operators set disabled_at = ? where email = ?', [
    new Date(now).toISOString(),
    EMAIL,
  ]);
  try {
    const refused = await browser.request('/console');
    assert.equal(refused.status, 303);
    assert.equal(refused.headers.get('location'), '/console/login');
    assert.equal(await lastSeen(hash), null);
  } finally {
    await runSql(service.store.db, 'update operators set disabled_at = null where email = ?', [EMAIL]);
  }
});

test('an unknown or missing session cookie opens nothing: to the sign-in page, before the form is read', async () => {
  for (const cookie of ['airorder_console=not-a-session', 'airorder_console=', 'other=1']) {
    const response = await fetch(`${service.baseUrl}/console/agencies`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'agencyId=NOSESSION&name=None',
      redirect: 'manual',
    });
    assert.equal(response.status, 303, cookie);
    assert.equal(response.headers.get('location'), '/console/login');
    await response.text();
  }
  assert.deepEqual(await agency('NOSESSION'), []);
});

async function agency(agencyId: string): Promise<unknown[]> {
  return runSql(service.store.db, 'select agency_id from agencies where agency_id = ?', [agencyId]);
}

test("a form opens only with the session's own token: in X-CSRF-Token, or as the first field", async () => {
  const { browser } = await signedIn();
  const token = csrfOf((await browser.request('/console')).text);
  const { browser: stranger } = await signedIn();
  const strangersToken = csrfOf((await stranger.request('/console')).text);
  assert.notEqual(token, strangersToken, 'each session has its own token');

  const tries: { name: string; body: string; header?: string; status: number }[] = [
    { name: "another session's token as the first field", body: `_csrf=${strangersToken}`, status: 403 },
    { name: "another session's token in the header", body: '', header: strangersToken, status: 403 },
    { name: 'the token one character short', body: `_csrf=${token.slice(0, -1)}`, status: 403 },
    { name: 'the token in a field of another name', body: `csrf=${token}`, status: 403 },
    { name: 'no token at all', body: '', status: 403 },
    { name: 'an empty header', body: `_csrf=${token}`, header: '', status: 403 },
    { name: 'the token as the first field', body: `_csrf=${token}`, status: 303 },
    { name: 'the token in the header, none in the body', body: '', header: token, status: 303 },
  ];
  for (const [index, attempt] of tries.entries()) {
    const agencyId = `CSRF${index}`;
    const headers: Record<string, string> = {};
    if (attempt.header !== undefined) headers['x-csrf-token'] = attempt.header;
    const body = [attempt.body, `agencyId=${agencyId}`, 'name=Csrf'].filter(Boolean).join('&');
    const response = await browser.request('/console/agencies', {
      body,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.status, attempt.status, attempt.name);
    assert.deepEqual(await agency(agencyId), attempt.status === 303 ? [{ agency_id: agencyId }] : [], attempt.name);
  }
});

test('the sign-in form needs its cookie and the same token; a GET needs no token', async () => {
  const browser = new ConsoleClient(service.baseUrl);
  const page = await browser.request('/console/login');
  assert.equal(page.status, 200);
  const token = csrfOf(page.text);
  const attempts: { name: string; cookie: string | null; field: string; header?: string }[] = [
    { name: 'no cookie', cookie: null, field: token },
    { name: 'a cookie that is not the token', cookie: 'x'.repeat(token.length), field: token },
    { name: 'an empty cookie', cookie: '', field: '' },
    { name: 'the token only in a header that does not match', cookie: token, field: token, header: 'y'.repeat(5) },
  ];
  for (const attempt of attempts) {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (attempt.cookie !== null) headers.cookie = `airorder_console_login=${attempt.cookie}`;
    if (attempt.header) headers['x-csrf-token'] = attempt.header;
    const response = await fetch(`${service.baseUrl}/console/login`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ _csrf: attempt.field, email: EMAIL, password: PASSWORD }).toString(),
      redirect: 'manual',
    });
    assert.equal(response.status, 403, attempt.name);
    assert.equal(response.headers.getSetCookie().filter((line) => line.startsWith('airorder_console=')).length, 0);
    await response.text();
  }
  const signedIn = await browser.request('/console/login', {
    form: { _csrf: token, email: EMAIL, password: PASSWORD },
  });
  assert.equal(signedIn.status, 303);
  assert.equal((await browser.request('/console')).status, 200);
});

test('a GET needs no token, whatever X-CSRF-Token says', async () => {
  const { browser } = await signedIn();
  const page = await browser.request('/console', { headers: { 'x-csrf-token': 'not-the-token' } });
  assert.equal(page.status, 200);
});

test('signing out ends the session: its row is removed and its cookie opens nothing', async () => {
  const { browser, hash } = await signedIn();
  const token = csrfOf((await browser.request('/console')).text);
  const id = browser.cookies.get('airorder_console')!;
  const out = await browser.request('/console/logout', { form: { _csrf: token } });
  assert.equal(out.status, 303);
  assert.equal(await lastSeen(hash), null);
  const again = await fetch(`${service.baseUrl}/console`, {
    headers: { cookie: `airorder_console=${id}` },
    redirect: 'manual',
  });
  assert.equal(again.status, 303);
  assert.equal(again.headers.get('location'), '/console/login');
  await again.text();
});
