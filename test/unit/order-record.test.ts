import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Booking } from '../../src/domain/order.js';
import {
  bookingsOf,
  newRecordJson,
  parseOrderRecord,
  recordAfter,
  recordWithChanges,
  type OrderRecord,
} from '../../src/store/order-record.js';
import { bookingsToStore } from '../../src/store/stored-shapes.js';
import { confirmedBooking, pendingChange, seg, snapshot } from '../helpers/domain-fixtures.js';

/**
 * The timestamps of the stored order (src/store/order-record.ts), each write at a time the test
 * gives: the order's createdAt is set once, its updatedAt by every write; an airline change's
 * createdAt when it is recorded, its resolvedAt when its status first moves.
 */
const CREATED = '2026-11-20T08:00:00.000Z';
const CHANGED = '2026-11-21T09:30:00.000Z';
const LATER = '2026-11-22T11:45:00.000Z';

function newRecord(bookings: Booking[], now = CREATED): OrderRecord {
  return parseOrderRecord(
    newRecordJson('EUR', bookingsToStore({ orderId: 'ORD-1', agencyId: 'AG1', currency: 'EUR', bookings }), now, []),
  );
}

test('a new record is created and updated at the time of its import', () => {
  const record = newRecord([confirmedBooking()]);
  assert.deepEqual([record.createdAt, record.updatedAt], [CREATED, CREATED]);
});

test('a change of a booking moves updatedAt to its time and keeps createdAt', () => {
  const record = newRecord([confirmedBooking()]);
  const after = recordAfter(record, [confirmedBooking({ status: 'CANCELED' })], CHANGED, null);
  assert.deepEqual([after.createdAt, after.updatedAt], [CREATED, CHANGED]);
  const again = recordAfter(after, [confirmedBooking({ status: 'CANCELED' })], LATER, 'trail-2');
  assert.deepEqual([again.createdAt, again.updatedAt], [CREATED, LATER]);
});

test('airline changes added to a record: updatedAt moves, createdAt stays, each change recorded at that time and unresolved', () => {
  const record = newRecord([confirmedBooking()]);
  const before = snapshot(record);
  const after = recordWithChanges(
    record,
    [{ reference: 'ABC123', change: pendingChange('CHG-1', ['S1'], [seg('S1B')]) }],
    CHANGED,
    null,
  );
  assert.deepEqual([after.createdAt, after.updatedAt], [CREATED, CHANGED]);
  assert.deepEqual(
    after.bookings[0]!.changes.map((change) => [change.changeId, change.createdAt, change.resolvedAt]),
    [['CHG-1', CHANGED, null]],
  );
  assert.deepEqual(record, before, 'the record read is left as it was');
});

test('a change already recorded keeps its createdAt when more changes are added later', () => {
  const first = recordWithChanges(
    newRecord([confirmedBooking()]),
    [{ reference: 'ABC123', change: pendingChange('CHG-1', ['S1'], [seg('S1B')], '2026-11-20T08:00:00Z') }],
    CHANGED,
    null,
  );
  const second = recordWithChanges(
    first,
    [{ reference: 'ABC123', change: pendingChange('CHG-2', ['S1B'], [seg('S1C')], '2026-11-21T08:00:00Z') }],
    LATER,
    null,
  );
  assert.deepEqual(
    second.bookings[0]!.changes.map((change) => [change.changeId, change.createdAt]),
    [
      ['CHG-1', CHANGED],
      ['CHG-2', LATER],
    ],
  );
});

test('a change whose status moves is resolved at that time; its createdAt stays, and a later write keeps both', () => {
  const pending = pendingChange('CHG-1', ['S1'], [seg('S1B')]);
  const withChange = recordWithChanges(
    newRecord([confirmedBooking()]),
    [{ reference: 'ABC123', change: pending }],
    CREATED,
    null,
  );
  const accepted = confirmedBooking({ segments: [seg('S1B')], changes: [{ ...pending, status: 'ACCEPTED' }] });
  const resolved = recordAfter(withChange, [accepted], CHANGED, null);
  const stored = () => resolved.bookings[0]!.changes[0]!;
  assert.deepEqual([stored().createdAt, stored().resolvedAt], [CREATED, CHANGED]);

  const cancelled = { ...accepted, status: 'CANCELED' as const };
  const later = recordAfter(resolved, [cancelled], LATER, null).bookings[0]!.changes[0]!;
  assert.deepEqual([later.createdAt, later.resolvedAt], [CREATED, CHANGED], 'its status did not move again');
});

test('a change whose status stays is not resolved by a write of its booking', () => {
  const pending = pendingChange('CHG-1', ['S1'], [seg('S1B')]);
  const withChange = recordWithChanges(
    newRecord([confirmedBooking()]),
    [{ reference: 'ABC123', change: pending }],
    CREATED,
    null,
  );
  const after = recordAfter(withChange, [confirmedBooking({ changes: [pending], status: 'CONFIRMED' })], CHANGED, null);
  assert.deepEqual(
    [after.bookings[0]!.changes[0]!.createdAt, after.bookings[0]!.changes[0]!.resolvedAt],
    [CREATED, null],
  );
});

test('a change the stored booking did not have is recorded at the write and unresolved, whatever its status', () => {
  const known = pendingChange('CHG-1', ['S1'], [seg('S1B')]);
  const withChange = recordWithChanges(
    newRecord([confirmedBooking()]),
    [{ reference: 'ABC123', change: known }],
    CREATED,
    null,
  );
  const unknown = { ...pendingChange('CHG-9', ['S1B'], [seg('S1C')]), status: 'ACCEPTED' as const };
  const after = recordAfter(withChange, [confirmedBooking({ changes: [known, unknown] })], CHANGED, null);
  assert.deepEqual(
    after.bookings[0]!.changes.map((change) => [change.changeId, change.createdAt, change.resolvedAt]),
    [
      ['CHG-1', CREATED, null],
      ['CHG-9', CHANGED, null],
    ],
  );
});

test('a booking the write does not change keeps its stored changes as they were', () => {
  const pending = pendingChange('CHG-2', ['S1'], [seg('S1B')]);
  const two = recordWithChanges(
    newRecord([confirmedBooking(), confirmedBooking({ reference: 'XYZ789' })]),
    [{ reference: 'XYZ789', change: pending }],
    CREATED,
    null,
  );
  const after = recordAfter(two, [confirmedBooking({ status: 'CANCELED' })], CHANGED, null);
  assert.deepEqual(after.bookings[1], two.bookings[1]);
});

test("a booking's changes are kept in the order they were detected, and changes detected at one instant by id", () => {
  const record = newRecord([confirmedBooking()]);
  const at = (changeId: string, detectedAt: string) => ({
    reference: 'ABC123',
    change: pendingChange(changeId, ['S1'], [seg('S1B')], detectedAt),
  });
  const after = recordWithChanges(
    record,
    [
      at('CHG-C', '2026-11-20T08:00:00Z'),
      at('CHG-Z', '2026-11-19T08:00:00Z'),
      at('CHG-A', '2026-11-20T08:00:00Z'),
      at('CHG-B', '2026-11-20T08:00:00Z'),
      at('CHG-0', '2026-11-21T08:00:00Z'),
    ],
    CHANGED,
    null,
  );
  assert.deepEqual(
    after.bookings[0]!.changes.map((change) => change.changeId),
    ['CHG-Z', 'CHG-A', 'CHG-B', 'CHG-C', 'CHG-0'],
  );
});

test('a record stored without a trail (written before trails were kept) starts one at its next write', () => {
  const stored = JSON.parse(
    newRecordJson(
      'EUR',
      bookingsToStore({ orderId: 'ORD-1', agencyId: 'AG1', currency: 'EUR', bookings: [confirmedBooking()] }),
      CREATED,
      [],
    ),
  ) as Record<string, unknown>;
  delete stored.trail;
  const record = parseOrderRecord(JSON.stringify(stored));
  assert.deepEqual(recordAfter(record, [confirmedBooking({ status: 'CANCELED' })], CHANGED, 'key-1').trail, ['key-1']);
  assert.deepEqual(recordWithChanges(record, [], CHANGED, 'key-2').trail, ['key-2']);
  assert.deepEqual(recordWithChanges(record, [], CHANGED, null).trail, []);
});

test("a record's bookings: all of them, or only those named, in the order's own order whatever the names' order", () => {
  const record = newRecord([
    confirmedBooking({ reference: 'AAA111' }),
    confirmedBooking({ reference: 'BBB222' }),
    confirmedBooking({ reference: 'CCC333' }),
  ]);
  const references = (bookings: Booking[]) => bookings.map((booking) => booking.reference);
  assert.deepEqual(references(bookingsOf(record)), ['AAA111', 'BBB222', 'CCC333']);
  assert.deepEqual(references(bookingsOf(record, null)), ['AAA111', 'BBB222', 'CCC333']);
  assert.deepEqual(references(bookingsOf(record, ['CCC333', 'AAA111'])), ['AAA111', 'CCC333']);
  assert.deepEqual(references(bookingsOf(record, ['ZZZ999'])), []);
  assert.deepEqual(references(bookingsOf(record, [])), []);
});
