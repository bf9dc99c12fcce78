import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptChanges } from '../../src/domain/accept-changes.js';
import type { BookingOutcome } from '../../src/domain/booking-outcome.js';
import { cancelBooking } from '../../src/domain/cancel-booking.js';
import { involuntaryCancel } from '../../src/domain/involuntary-cancel.js';
import type { Booking } from '../../src/domain/order.js';
import { confirmedBooking, coupon, pax, pendingChange, seg, snapshot, ticket } from '../helpers/domain-fixtures.js';

const NOW = '2026-11-21T09:00:00.000Z';

function succeeded(outcome: BookingOutcome): { booking: Booking; changed: boolean } {
  assert.equal(outcome.ok, true, outcome.ok ? '' : `${outcome.code}: ${outcome.message}`);
  return outcome as { ok: true; booking: Booking; changed: boolean };
}

function failedWith(outcome: BookingOutcome, code: string): void {
  assert.equal(outcome.ok, false);
  if (!outcome.ok) {
    assert.equal(outcome.code, code);
    assert.ok(outcome.message.length > 0);
  }
}

const withPending = () =>
  confirmedBooking({ changes: [pendingChange('C1', ['S1'], [seg('S1B', '2026-12-01T14:00:00Z')])] });

describe('cancelBooking', () => {
  test('CONFIRMED becomes CANCELED (voluntary), pending changes CLOSED, others kept, coupons untouched', () => {
    const before = confirmedBooking({
      changes: [
        { ...pendingChange('C0', ['S0'], [seg('S1')]), status: 'ACCEPTED' },
        pendingChange('C1', ['S1'], [seg('S1B')]),
      ],
    });
    const copy = snapshot(before);
    const { booking, changed } = succeeded(cancelBooking(before));
    assert.equal(changed, true);
    assert.equal(booking.status, 'CANCELED');
    assert.equal(booking.cancellation, 'VOLUNTARY');
    assert.deepEqual(
      booking.changes.map((c) => c.status),
      ['ACCEPTED', 'CLOSED'],
    );
    assert.deepEqual(booking.passengers, before.passengers);
    assert.deepEqual(booking.refunds, []);
    assert.deepEqual(before, copy, 'input not mutated');
  });

  test('already CANCELED succeeds unchanged', () => {
    for (const cancellation of ['VOLUNTARY', 'INVOLUNTARY'] as const) {
      const before = confirmedBooking({ status: 'CANCELED', cancellation });
      const { booking, changed } = succeeded(cancelBooking(before));
      assert.equal(changed, false);
      assert.deepEqual(booking, before);
    }
  });
});

describe('acceptChanges', () => {
  test('one pending change: itinerary changed, coupon moved, change ACCEPTED', () => {
    const before = withPending();
    const copy = snapshot(before);
    const { booking, changed } = succeeded(acceptChanges(before));
    assert.equal(changed, true);
    assert.equal(booking.status, 'CONFIRMED');
    assert.deepEqual(
      booking.segments.map((s) => s.segmentId),
      ['S1B'],
    );
    assert.deepEqual(booking.passengers[0]!.ticket!.coupons, [coupon('S1B', 57050)]);
    assert.deepEqual(
      booking.changes.map((c) => c.status),
      ['ACCEPTED'],
    );
    assert.deepEqual(before, copy, 'input not mutated');
  });

  test('several pending changes are applied in detection order', () => {
    // C2 removes the segment C1 added: only works if C1 is applied first.
    const before = confirmedBooking({
      segments: [seg('S1', '2026-12-01T10:00:00Z'), seg('S2', '2026-12-05T10:00:00Z')],
      passengers: [pax('P1', ticket('2201234567890', [coupon('S1', 40000), coupon('S2', 17050)]))],
      changes: [
        pendingChange('C1', ['S1'], [seg('N1', '2026-12-01T12:00:00Z')], '2026-11-20T08:00:00Z'),
        pendingChange(
          'C2',
          ['N1'],
          [seg('N2a', '2026-12-02T08:00:00Z'), seg('N2b', '2026-12-02T12:00:00Z')],
          '2026-11-21T08:00:00Z',
        ),
      ],
    });
    const { booking } = succeeded(acceptChanges(before));
    assert.deepEqual(
      booking.segments.map((s) => s.segmentId),
      ['N2a', 'N2b', 'S2'],
    );
    assert.deepEqual(booking.passengers[0]!.ticket!.coupons, [
      coupon('N2a', 20000),
      coupon('N2b', 20000),
      coupon('S2', 17050),
    ]);
    assert.deepEqual(
      booking.changes.map((c) => c.status),
      ['ACCEPTED', 'ACCEPTED'],
    );
  });

  test('pending changes listed out of order are still applied in detection order', () => {
    const before = confirmedBooking({
      segments: [seg('S1', '2026-12-01T10:00:00Z')],
      passengers: [pax('P1', ticket('2201234567890', [coupon('S1', 57050)]))],
      changes: [
        pendingChange('C2', ['N1'], [seg('N2', '2026-12-01T14:00:00Z')], '2026-11-21T08:00:00Z'),
        pendingChange('C1', ['S1'], [seg('N1', '2026-12-01T12:00:00Z')], '2026-11-20T08:00:00Z'),
      ],
    });
    const { booking } = succeeded(acceptChanges(before));
    assert.deepEqual(
      booking.segments.map((s) => s.segmentId),
      ['N2'],
    );
    assert.deepEqual(booking.passengers[0]!.ticket!.coupons, [coupon('N2', 57050)]);
  });

  test('counts differ: the value is split with the remainder to the first', () => {
    const before = confirmedBooking({
      passengers: [pax('P1', ticket('2201234567890', [coupon('S1', 57051)])), pax('P2', null)],
      changes: [
        pendingChange(
          'C1',
          ['S1'],
          [seg('N1', '2026-12-01T08:00:00Z'), seg('N2', '2026-12-01T12:00:00Z'), seg('N3', '2026-12-01T16:00:00Z')],
        ),
      ],
    });
    const { booking } = succeeded(acceptChanges(before));
    assert.deepEqual(booking.passengers[0]!.ticket!.coupons, [
      coupon('N1', 19017),
      coupon('N2', 19017),
      coupon('N3', 19017),
    ]);
    assert.equal(booking.passengers[1]!.ticket, null, 'an unticketed passenger stays unticketed');
  });

  test('the remainder goes to the first added segment', () => {
    const before = confirmedBooking({
      passengers: [pax('P1', ticket('2201234567890', [coupon('S1', 100)]))],
      changes: [
        pendingChange(
          'C1',
          ['S1'],
          [seg('N1', '2026-12-01T08:00:00Z'), seg('N2', '2026-12-01T12:00:00Z'), seg('N3', '2026-12-01T16:00:00Z')],
        ),
      ],
    });
    const { booking } = succeeded(acceptChanges(before));
    assert.deepEqual(
      booking.passengers[0]!.ticket!.coupons.map((c) => [c.segmentId, c.value]),
      [
        ['N1', 34],
        ['N2', 33],
        ['N3', 33],
      ],
    );
  });

  test('nothing pending and the latest change ACCEPTED: a retry, unchanged', () => {
    const before = confirmedBooking({ changes: [{ ...pendingChange('C1', ['S0'], [seg('S1')]), status: 'ACCEPTED' }] });
    const { booking, changed } = succeeded(acceptChanges(before));
    assert.equal(changed, false);
    assert.deepEqual(booking, before);
  });

  test('a pending change without added segments: NO_REPLACEMENT_OFFERED', () => {
    failedWith(
      acceptChanges(confirmedBooking({ changes: [pendingChange('C1', ['S1'], [])] })),
      'NO_REPLACEMENT_OFFERED',
    );
  });

  test('nothing pending otherwise: NO_PENDING_CHANGE', () => {
    failedWith(acceptChanges(confirmedBooking()), 'NO_PENDING_CHANGE');
    failedWith(
      acceptChanges(confirmedBooking({ changes: [{ ...pendingChange('C1', ['S1'], [seg('N1')]), status: 'CLOSED' }] })),
      'NO_PENDING_CHANGE',
    );
  });

  test('CANCELED: BOOKING_CANCELED, whatever is pending', () => {
    failedWith(acceptChanges({ ...withPending(), status: 'CANCELED', cancellation: 'VOLUNTARY' }), 'BOOKING_CANCELED');
    failedWith(
      acceptChanges({ ...withPending(), status: 'CANCELED', cancellation: 'INVOLUNTARY' }),
      'BOOKING_CANCELED',
    );
  });
});

describe('involuntaryCancel', () => {
  test('CONFIRMED with pending change: CANCELED, changes CANCELED, open coupons REFUNDED, refunds in passenger order', () => {
    const before = confirmedBooking({
      segments: [seg('S1'), seg('S2', '2026-12-05T10:00:00Z')],
      passengers: [
        pax('P1', ticket('2201234567891', [coupon('S1', 30000, 'USED'), coupon('S2', 27050)])),
        pax('P2', null),
        pax('P3', ticket('2201234567890', [coupon('S1', 100), coupon('S2', 200)])),
      ],
      changes: [{ ...pendingChange('C0', ['S0'], [seg('S1')]), status: 'ACCEPTED' }, pendingChange('C1', ['S2'], [])],
    });
    const copy = snapshot(before);
    const { booking, changed } = succeeded(involuntaryCancel(before, NOW));
    assert.equal(changed, true);
    assert.equal(booking.status, 'CANCELED');
    assert.equal(booking.cancellation, 'INVOLUNTARY');
    assert.deepEqual(
      booking.changes.map((c) => c.status),
      ['ACCEPTED', 'CANCELED'],
    );
    assert.deepEqual(
      booking.passengers[0]!.ticket!.coupons.map((c) => c.status),
      ['USED', 'REFUNDED'],
    );
    assert.deepEqual(
      booking.passengers[2]!.ticket!.coupons.map((c) => c.status),
      ['REFUNDED', 'REFUNDED'],
    );
    assert.deepEqual(booking.refunds, [
      { ticketNumber: '2201234567891', amount: 27050, quoteType: 'PARTIAL', createdAt: NOW },
      { ticketNumber: '2201234567890', amount: 300, quoteType: 'FULL', createdAt: NOW },
    ]);
    assert.deepEqual(before, copy, 'input not mutated');
  });

  test('a booking without tickets refunds nothing but is cancelled', () => {
    const { booking } = succeeded(
      involuntaryCancel(
        confirmedBooking({ passengers: [pax('P1', null)], changes: [pendingChange('C1', ['S1'], [])] }),
        NOW,
      ),
    );
    assert.equal(booking.status, 'CANCELED');
    assert.deepEqual(booking.refunds, []);
  });

  test('already cancelled by this operation: unchanged, stored refunds kept', () => {
    const first = succeeded(involuntaryCancel(withPending(), NOW)).booking;
    const { booking, changed } = succeeded(involuntaryCancel(first, '2026-12-31T00:00:00.000Z'));
    assert.equal(changed, false);
    assert.deepEqual(booking, first);
    assert.equal(booking.refunds[0]!.createdAt, NOW);
  });

  test('voluntarily cancelled: BOOKING_CANCELED', () => {
    failedWith(
      involuntaryCancel({ ...withPending(), status: 'CANCELED', cancellation: 'VOLUNTARY' }, NOW),
      'BOOKING_CANCELED',
    );
    const cancelled = succeeded(cancelBooking(withPending())).booking;
    failedWith(involuntaryCancel(cancelled, NOW), 'BOOKING_CANCELED');
  });

  test('no pending change: NO_PENDING_CHANGE', () => {
    failedWith(involuntaryCancel(confirmedBooking(), NOW), 'NO_PENDING_CHANGE');
    const accepted = succeeded(acceptChanges(withPending())).booking;
    failedWith(involuntaryCancel(accepted, NOW), 'NO_PENDING_CHANGE');
  });
});
