import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reassignCoupons } from '../../src/domain/coupon-reassignment.js';
import { coupon, seg, snapshot, ticket } from '../helpers/domain-fixtures.js';

const total = (coupons: { value: number }[]) => coupons.reduce((sum, c) => sum + c.value, 0);

test('one-to-one in order when counts match: values and statuses travel with the coupon', () => {
  const before = ticket('2201234567890', [coupon('S1', 30000), coupon('S2', 20000), coupon('S3', 7050)]);
  const after = reassignCoupons(before, ['S2', 'S3'], [seg('N1'), seg('N2')]);
  assert.deepEqual(after.coupons, [coupon('S1', 30000), coupon('N1', 20000), coupon('N2', 7050)]);
  assert.equal(after.ticketNumber, before.ticketNumber);
});

test('one removed, two added: the value is split, remainder to the first', () => {
  const after = reassignCoupons(ticket('2201234567890', [coupon('S1', 57051)]), ['S1'], [seg('N1'), seg('N2')]);
  assert.deepEqual(after.coupons, [coupon('N1', 28526), coupon('N2', 28525)]);
});

test('two removed, three added: the removed total is split in minor units', () => {
  const before = ticket('2201234567890', [coupon('S1', 5000), coupon('S2', 3000), coupon('S3', 2000)]);
  const after = reassignCoupons(before, ['S1', 'S2'], [seg('N1'), seg('N2'), seg('N3')]);
  assert.deepEqual(after.coupons, [coupon('S3', 2000), coupon('N1', 2668), coupon('N2', 2666), coupon('N3', 2666)]);
  assert.equal(total(after.coupons), total(before.coupons));
});

test('three removed, one added: the values merge into one coupon', () => {
  const before = ticket('2201234567890', [coupon('S1', 100), coupon('S2', 200), coupon('S3', 301)]);
  const after = reassignCoupons(before, ['S1', 'S2', 'S3'], [seg('N1')]);
  assert.deepEqual(after.coupons, [coupon('N1', 601)]);
});

test('value is conserved for any split', () => {
  for (let removed = 1; removed <= 4; removed += 1) {
    for (let added = 1; added <= 5; added += 1) {
      const coupons = Array.from({ length: removed }, (_, i) => coupon(`S${i}`, 1001 * (i + 1) + i));
      const before = ticket('2201234567890', [...coupons, coupon('KEEP', 42)]);
      const after = reassignCoupons(
        before,
        coupons.map((c) => c.segmentId),
        Array.from({ length: added }, (_, i) => seg(`N${i}`)),
      );
      assert.equal(total(after.coupons), total(before.coupons), `${removed} -> ${added}`);
      assert.equal(after.coupons.length, 1 + added);
      assert.ok(after.coupons.every((c) => Number.isInteger(c.value)));
    }
  }
});

test('a ticket with no coupon on the removed segments is left alone', () => {
  const before = ticket('2201234567890', [coupon('S1', 57050)]);
  const after = reassignCoupons(before, ['S9'], [seg('N1')]);
  assert.deepEqual(after, before);
});

test('the input ticket is not mutated', () => {
  const before = ticket('2201234567890', [coupon('S1', 57050), coupon('S2', 100)]);
  const copy = snapshot(before);
  reassignCoupons(before, ['S1'], [seg('N1'), seg('N2')]);
  reassignCoupons(before, ['S2'], [seg('N3')]);
  assert.deepEqual(before, copy);
});

test("one-to-one pairs the change's removed and added segments in the change's order, not the ticket's", () => {
  // The document listed the ticket's coupons backwards: the pairing must not follow that order.
  const before = ticket('2201234567890', [coupon('S2', 30000), coupon('S1', 10000)]);
  const after = reassignCoupons(
    before,
    ['S1', 'S2'],
    [seg('A', '2026-12-01T10:00:00Z'), seg('B', '2026-12-05T10:00:00Z')],
  );
  assert.deepEqual(after.coupons, [coupon('A', 10000), coupon('B', 30000)]);
});

test("a split never makes a refunded coupon's value refundable again", () => {
  const before = ticket('2201234567890', [coupon('S1', 10000, 'REFUNDED'), coupon('S2', 10001)]);
  // Two removed, one added: only the open value moves, as open.
  assert.deepEqual(reassignCoupons(before, ['S1', 'S2'], [seg('N1')]).coupons, [coupon('N1', 10001)]);
  // One refunded coupon split in two: the new coupons are refunded too.
  assert.deepEqual(reassignCoupons(before, ['S1'], [seg('N1'), seg('N2')]).coupons, [
    coupon('S2', 10001),
    coupon('N1', 5000, 'REFUNDED'),
    coupon('N2', 5000, 'REFUNDED'),
  ]);
  // One to one keeps each coupon's status.
  assert.deepEqual(reassignCoupons(before, ['S1', 'S2'], [seg('N1'), seg('N2')]).coupons, [
    coupon('N1', 10000, 'REFUNDED'),
    coupon('N2', 10001),
  ]);
});
