import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { hashSessionId, randomSecret, sameSecret, SESSION_IDLE_MS } from '../../src/console/sessions.js';

/** The secrets of a console session: how they are made, kept (hashed) and compared. */

test('a session ends after 12 hours without use', () => {
  assert.equal(SESSION_IDLE_MS, 43_200_000);
});

test('a secret is 32 random bytes in base64url, a new one each time', () => {
  const secrets = new Set(Array.from({ length: 50 }, () => randomSecret()));
  assert.equal(secrets.size, 50);
  for (const secret of secrets) {
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(secret, 'base64url').length, 32);
  }
});

test('a session id is kept as its SHA-256, in hex', () => {
  assert.equal(hashSessionId('abc'), createHash('sha256').update('abc').digest('hex'));
  assert.equal(hashSessionId('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('two secrets are the same only when equal; another length is a mismatch, not an error', () => {
  assert.equal(sameSecret('token', 'token'), true);
  assert.equal(sameSecret('', ''), true);
  assert.equal(sameSecret('token', 'tokeN'), false);
  assert.equal(sameSecret('token', 'token!'), false);
  assert.equal(sameSecret('token!', 'token'), false);
  assert.equal(sameSecret('', 'token'), false);
  assert.equal(sameSecret('é', 'e\u0301'), false);
});
