/**
 * The booking's fingerprint (src/service/booking-fingerprint.ts), which a refund quote keeps and
 * AirOrderRefund compares: the same booking gives the same digest whatever order its fields were
 * built in, and any change of it gives another.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { Booking } from '../../src/domain/order.js';
import { bookingFingerprint } from '../../src/service/booking-fingerprint.js';

const fingerprint = (value: unknown) => bookingFingerprint(value as Booking);
const digestOf = (text: string) => createHash('sha256').update(text).digest('base64url');

test('the digest is SHA-256, base64url, of the JSON with every object key sorted and undefined fields left out', () => {
  const booking = { z: 1, a: [{ y: 'x', b: null, skipped: undefined }, 2], m: { k: true } };
  assert.equal(fingerprint(booking), digestOf('{"a":[{"b":null,"y":"x"},2],"m":{"k":true},"z":1}'));
});

test('the order fields were built in does not change it; a field left undefined is a field absent', () => {
  const one = { reference: 'ABC123', status: 'CONFIRMED', passengers: [{ passengerId: 'P1', canceled: null }] };
  const other = { passengers: [{ canceled: null, passengerId: 'P1' }], status: 'CONFIRMED', reference: 'ABC123' };
  assert.equal(fingerprint(one), fingerprint(other));
  assert.equal(fingerprint({ ...one, note: undefined }), fingerprint(one));
});

test('any change of a value, of a key, or of the order of an array changes it', () => {
  const base = { reference: 'ABC123', segments: ['S1', 'S2'], refunds: [], status: 'CONFIRMED' };
  const seen = new Set([fingerprint(base)]);
  for (const changed of [
    { ...base, status: 'CANCELED' },
    { ...base, segments: ['S2', 'S1'] },
    { ...base, refunds: [{ amount: 0 }] },
    { ...base, refunds: {} },
    { ...base, extra: null },
    { ...base, reference: 'ABC124' },
    { reference: 'ABC123', segments: ['S1', 'S2'], refunds: [], statuz: 'CONFIRMED' },
    { ...base, segments: 'S1,S2' },
  ]) {
    const digest = fingerprint(changed);
    assert.ok(!seen.has(digest), JSON.stringify(changed));
    seen.add(digest);
  }
});
