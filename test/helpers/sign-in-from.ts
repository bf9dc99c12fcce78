/**
 * Sign-ins from a given client address, for the tests of the per-address limits: requests are
 * injected into the app (Fastify's inject, with its `remoteAddress`), which runs every hook and
 * handler a request over a socket runs, as if it had come from that address.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { csrfOf } from './console-client.js';

const LOGIN_COOKIE = 'airorder_console_login';

/** A browser's sign-in from `address`: the form first (its double-submit cookie and token), then the post. Returns the status. */
export async function signInFrom(
  app: FastifyInstance,
  address: string,
  email: string,
  password: string,
): Promise<number> {
  const form = await app.inject({ method: 'GET', url: '/console/login', remoteAddress: address });
  assert.equal(form.statusCode, 200);
  const cookie = form.cookies.find((one) => one.name === LOGIN_COOKIE);
  assert.ok(cookie, 'the sign-in form sets its cookie');
  const answer = await app.inject({
    method: 'POST',
    url: '/console/login',
    remoteAddress: address,
    headers: { cookie: `${LOGIN_COOKIE}=${cookie.value}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrfOf(form.body), email, password }).toString(),
  });
  return answer.statusCode;
}

/**
 * A sign-in post as a script sends it, without the form: the double-submit pair is the script's own
 * (any cookie value with the same value in the header passes the check). Returns the status.
 */
export async function postSignIn(
  app: FastifyInstance,
  address: string,
  email: string,
  password: string,
): Promise<number> {
  const answer = await app.inject({
    method: 'POST',
    url: '/console/login',
    remoteAddress: address,
    headers: {
      cookie: `${LOGIN_COOKIE}=self-made`,
      'x-csrf-token': 'self-made',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ email, password }).toString(),
  });
  return answer.statusCode;
}
