import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { test } from 'node:test';
import { DECOY_HASH, hashPassword, verifyPassword } from '../../src/console/password-hash.js';

/** Operators' password hashes: scrypt with its cost in the hash (docs/security.md), and what a bad stored hash gives. */

const FORMAT = /^scrypt\$16384\$8\$1\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/;

test('a hash is scrypt$N$r$p$salt$key with the documented cost, a 16-byte salt and a 32-byte key, salted anew each time', async () => {
  const first = await hashPassword('correct horse');
  const second = await hashPassword('correct horse');
  assert.match(first, FORMAT);
  assert.match(second, FORMAT);
  assert.notEqual(first.split('$')[4], second.split('$')[4]);
  const [, , , , salt, key] = first.split('$');
  const expected = scryptSync('correct horse', Buffer.from(salt!, 'base64url'), 32, { N: 16_384, r: 8, p: 1 });
  assert.equal(key, expected.toString('base64url'));
});

test('the password hashed verifies, another does not; the password is compared in NFC', async () => {
  const stored = await hashPassword('caf\u00e9');
  assert.equal(await verifyPassword('caf\u00e9', stored), true);
  assert.equal(await verifyPassword('cafe\u0301', stored), true);
  assert.equal(await verifyPassword('cafe', stored), false);
  assert.equal(await verifyPassword('', stored), false);
});

test('a stored hash of another cost verifies with its own cost', async () => {
  const salt = Buffer.from('0123456789abcdef');
  const key = scryptSync('pw', salt, 32, { N: 1024, r: 4, p: 2 });
  const stored = ['scrypt', 1024, 4, 2, salt.toString('base64url'), key.toString('base64url')].join('$');
  assert.equal(await verifyPassword('pw', stored), true);
  assert.equal(await verifyPassword('pw', stored.replace('$1024$', '$2048$')), false);
});

test('a stored hash of another scheme, or without salt or key, never verifies', async () => {
  const emptySaltKey = scryptSync('pw', Buffer.alloc(0), 32, { N: 16_384, r: 8, p: 1 }).toString('base64url');
  assert.equal(await verifyPassword('pw', `scrypt$16384$8$1$$${emptySaltKey}`), false);
  const good = await hashPassword('pw');
  assert.equal(await verifyPassword('pw', good.replace(/^scrypt/, 'bcrypt')), false);
  assert.equal(await verifyPassword('pw', good.replace(/\$[^$]+$/, '$')), false);
  assert.equal(await verifyPassword('pw', good.replace(/\$[^$]+$/, '')), false);
  assert.equal(await verifyPassword('pw', ''), false);
});

test('a stored key of another length is a mismatch, not an error', async () => {
  const good = await hashPassword('pw');
  assert.equal(await verifyPassword('pw', good.slice(0, -4)), false);
  assert.equal(await verifyPassword('pw', `${good}AAAA`), false);
});

test('the decoy hash has the form and cost of a real one, so checking it takes as long, and matches nothing', async () => {
  assert.match(DECOY_HASH, FORMAT);
  assert.equal(await verifyPassword('', DECOY_HASH), false);
  assert.equal(await verifyPassword('password', DECOY_HASH), false);
});
