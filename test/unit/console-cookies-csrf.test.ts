import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { cookieHeader, LOGIN_COOKIE, readCookie, SESSION_COOKIE } from '../../src/console/cookies.js';
import {
  checkFirstField,
  CSRF_FIELD,
  CSRF_HEADER,
  csrfPending,
  csrfVerified,
  CsrfRefusal,
  expectCsrf,
} from '../../src/console/csrf-check.js';

/** The console's cookies as the browser gets and sends them, and the CSRF check's states (docs/security.md). */

const request = (headers: Record<string, string | string[]> = {}, protocol = 'http') =>
  ({ headers, protocol }) as unknown as FastifyRequest;

test('the cookie names are the documented ones', () => {
  assert.equal(SESSION_COOKIE, 'airorder_console');
  assert.equal(LOGIN_COOKIE, 'airorder_console_login');
});

test('readCookie finds the named cookie among others, keeps "=" in its value, and says null otherwise', () => {
  const header = (cookie: string) => request({ cookie });
  assert.equal(readCookie(header('airorder_console=abc'), SESSION_COOKIE), 'abc');
  assert.equal(readCookie(header('a=1;  airorder_console=ab=c= ; b=2'), SESSION_COOKIE), 'ab=c=');
  assert.equal(readCookie(header('airorder_console_login=x; airorder_console=y'), SESSION_COOKIE), 'y');
  assert.equal(readCookie(header('airorder_console_login=x'), SESSION_COOKIE), null);
  assert.equal(readCookie(header('xairorder_console=1; airorder_consolex=2'), SESSION_COOKIE), null);
  assert.equal(readCookie(header('airorder_console='), SESSION_COOKIE), null);
  assert.equal(readCookie(header('airorder_console'), SESSION_COOKIE), null);
  assert.equal(readCookie(header(''), SESSION_COOKIE), null);
  assert.equal(readCookie(request(), SESSION_COOKIE), null);
});

test('a cookie is HttpOnly, SameSite=Strict, on the console path, with Max-Age only when given', () => {
  assert.equal(cookieHeader(request(), 'n', 'v'), 'n=v; Path=/console; HttpOnly; SameSite=Strict');
  assert.equal(
    cookieHeader(request(), 'n', 'v', '/console/login', 0),
    'n=v; Path=/console/login; HttpOnly; SameSite=Strict; Max-Age=0',
  );
  assert.equal(
    cookieHeader(request(), 'n', '', '/console', 600),
    'n=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=600',
  );
});

test('a cookie is Secure when served over https, directly or behind a proxy that says so', () => {
  assert.equal(cookieHeader(request({}, 'https'), 'n', 'v'), 'n=v; Path=/console; HttpOnly; SameSite=Strict; Secure');
  assert.equal(
    cookieHeader(request({ 'x-forwarded-proto': 'https' }), 'n', 'v', '/console', 5),
    'n=v; Path=/console; HttpOnly; SameSite=Strict; Max-Age=5; Secure',
  );
  assert.equal(
    cookieHeader(request({ 'x-forwarded-proto': 'http' }), 'n', 'v'),
    'n=v; Path=/console; HttpOnly; SameSite=Strict',
  );
});

test('the CSRF field and header names are the documented ones; a refusal is a 403 error', () => {
  assert.equal(CSRF_FIELD, '_csrf');
  assert.equal(CSRF_HEADER, 'x-csrf-token');
  const refusal = new CsrfRefusal();
  assert.ok(refusal instanceof Error);
  assert.equal(refusal.statusCode, 403);
  assert.equal(refusal.message, 'the CSRF token is missing or wrong');
  assert.equal(refusal.name, 'CsrfRefusal');
});

test('a request of which no token is expected is neither pending nor verified, and its first field passes', () => {
  const r = request();
  assert.equal(csrfPending(r), false);
  assert.equal(csrfVerified(r), false);
  assert.equal(checkFirstField(r, 'other', 'x'), true);
  assert.equal(csrfVerified(r), false);
});

test('the right token in the header settles it at once: verified, nothing pending, any first field passes', () => {
  const r = request({ 'x-csrf-token': 'tok' });
  assert.equal(expectCsrf(r, 'tok'), true);
  assert.equal(csrfPending(r), false);
  assert.equal(csrfVerified(r), true);
  assert.equal(checkFirstField(r, 'other', 'x'), true);
  assert.equal(csrfVerified(r), true);
});

test('a wrong or empty token in the header refuses at once, and leaves the request unverified', () => {
  const r = request({ 'x-csrf-token': 'tok!' });
  assert.equal(expectCsrf(r, 'tok'), false);
  assert.equal(csrfPending(r), true);
  assert.equal(csrfVerified(r), false);
  const empty = request({ 'x-csrf-token': '' });
  assert.equal(expectCsrf(empty, 'tok'), false);
});

test('without the header the body first field decides: the _csrf name and the same token, or refused', () => {
  const fresh = () => {
    const r = request({ 'x-csrf-token': ['tok', 'tok'] });
    assert.equal(expectCsrf(r, 'tok'), null);
    assert.equal(csrfPending(r), true);
    assert.equal(csrfVerified(r), false);
    return r;
  };
  const right = fresh();
  assert.equal(checkFirstField(right, '_csrf', 'tok'), true);
  assert.equal(csrfPending(right), false);
  assert.equal(csrfVerified(right), true);
  assert.equal(checkFirstField(right, 'later', 'field'), true);

  for (const [name, value] of [
    ['_csrf', 'tok2'],
    ['_csrf', 'to'],
    ['_csrf', ''],
    ['csrf', 'tok'],
    ['', ''],
  ] as const) {
    const wrong = fresh();
    assert.equal(checkFirstField(wrong, name, value), false, `${name}=${value}`);
    assert.equal(csrfPending(wrong), true);
    assert.equal(csrfVerified(wrong), false);
  }
});
