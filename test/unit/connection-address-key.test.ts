/**
 * What one address is for MAX_CONNECTIONS_PER_ADDRESS (src/http/connection-limits.ts): an IPv4
 * address, whichever form it arrives in, and an IPv6 address's /64, whichever way it is written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressKey } from '../../src/client-address.js';

test('an IPv4 address counts as itself, its IPv4-mapped IPv6 form (a socket bound to ::) with it', () => {
  assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('::FFFF:127.0.0.1'), '127.0.0.1');
  assert.notEqual(addressKey('203.0.113.7'), addressKey('203.0.113.8'));
});

test('IPv6 addresses count by their /64, however compressed', () => {
  const key = addressKey('2001:db8:1:2::1');
  assert.equal(key, '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:0db8:0001:0002:ffff:0:0:9'), key);
  assert.equal(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), key);
  assert.notEqual(addressKey('2001:db8:1:3::1'), key);
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(addressKey('64:ff9b::192.0.2.33'), '64:ff9b:0:0::/64');
});

test('only a whole IPv4-mapped address counts as its IPv4 address', () => {
  assert.equal(addressKey('::ffff:10.20.30.40'), '10.20.30.40');
  assert.equal(addressKey('::ffff:255.255.255.255'), '255.255.255.255');
  // Mapped-looking text inside another address, or with a zone id after it, is an IPv6 address.
  assert.equal(addressKey('1::ffff:1.2.3.4'), '1:0:0:0::/64');
  assert.equal(addressKey('::ffff:1.2.3.4%eth0'), '0:0:0:0::/64');
});

test('an IPv6 address is read group by group, whatever its case, zeros and dotted tail', () => {
  assert.equal(addressKey('ABCD:EF::1'), 'abcd:ef:0:0::/64');
  assert.equal(addressKey('0001:0002:0003:0004::'), '1:2:3:4::/64');
  assert.equal(addressKey('2001:db8::'), '2001:db8:0:0::/64');
  assert.equal(addressKey('::'), '0:0:0:0::/64');
  assert.equal(addressKey('1:2:3:4:5:6:7:8'), '1:2:3:4::/64');
  assert.equal(addressKey('1:2:3:4:5:6:1.2.3.4'), '1:2:3:4::/64');
  // The dotted tail is two groups: the gap it leaves for the zeros is one group here, not two.
  assert.equal(addressKey('1::5:6:7:8:1.2.3.4'), '1:0:5:6::/64');
  assert.equal(addressKey('1::4:5:6:7:8'), '1:0:0:4::/64');
  assert.equal(addressKey('1::5:6:7:8:11.22.33.44'), '1:0:5:6::/64');
  assert.equal(addressKey('1::5:6:7:8:255.255.255.255'), '1:0:5:6::/64');
  assert.equal(addressKey('fe80::5:6:7:8%eth0'), 'fe80:0:0:0::/64');
});

test('what is no IP address counts as it is', () => {
  assert.equal(addressKey('localhost'), 'localhost');
  assert.equal(addressKey(''), '');
  assert.equal(addressKey('::ffff:1.2.3'), '::ffff:1.2.3');
});
