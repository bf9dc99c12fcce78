import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressMatcher, LOOPBACK_RANGES, parseAddressRange } from '../../src/address-ranges.js';

test('addresses and CIDR ranges of both families are read; anything else is not', () => {
  assert.deepEqual(parseAddressRange('10.0.0.0/8'), { address: '10.0.0.0', prefix: 8, family: 'ipv4' });
  assert.deepEqual(parseAddressRange('192.0.2.7'), { address: '192.0.2.7', prefix: 32, family: 'ipv4' });
  assert.deepEqual(parseAddressRange('fd00::/8'), { address: 'fd00::', prefix: 8, family: 'ipv6' });
  assert.deepEqual(parseAddressRange('::1'), { address: '::1', prefix: 128, family: 'ipv6' });
  for (const text of [
    '',
    '10.0.0.0/33',
    '::/129',
    '10.0.0.0/',
    '/8',
    '10.0.0/8',
    'localhost',
    '10.0.0.0/8/8',
    'fe80::1%eth0',
    '10.0.0.0/+8',
    '10.0.0.0/0x8',
  ]) {
    assert.equal(parseAddressRange(text), null, text);
  }
});

test('a peer matches the ranges of its family, IPv4-mapped IPv6 peers the IPv4 ones', () => {
  const matches = addressMatcher([
    ...LOOPBACK_RANGES,
    parseAddressRange('10.1.0.0/16')!,
    parseAddressRange('fd00::/8')!,
  ]);
  for (const peer of [
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '::ffff:127.0.0.1',
    '10.1.200.3',
    '::ffff:10.1.0.1',
    'fd12:3456::1',
  ])
    assert.equal(matches(peer), true, peer);
  for (const peer of ['10.2.0.1', '::ffff:10.2.0.1', '192.0.2.2', 'fe80::1', '::2', '', 'not an address', undefined])
    assert.equal(matches(peer), false, String(peer));
  assert.equal(addressMatcher([])('127.0.0.1'), false);
});
