import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDeadlineConsequence, dueChanges } from '../../src/domain/deadline-consequence.js';
import { refundQuote } from '../../src/domain/refund-quote.js';
import { involuntaryCancel } from '../../src/domain/involuntary-cancel.js';
import { confirmedBooking, coupon, pax, pendingChange, seg, snapshot, ticket } from '../helpers/domain-fixtures.js';

const NOW = '2026-11-21T09:00:00.000Z';
const withDeadline = (
  change: ReturnType<typeof pendingChange>,
  actionDeadline: string,
  consequence?: 'ACCEPT' | 'CANCEL',
) => ({ ...change, actionDeadline, consequenceOfInaction: consequence ?? change.consequenceOfInaction });

test('due: pending changes whose deadline is now or past; none on a cancelled booking, none without a deadline', () => {
  const past = withDeadline(pendingChange('C1', ['S1'], [seg('S1B')]), '2026-11-21T08:59:59.999Z');
  const exactly = withDeadline(pendingChange('C2', ['S2'], [seg('S2B')]), '2026-11-21T10:00:00+01:00');
  const later = withDeadline(pendingChange('C3', ['S3'], [seg('S3B')]), '2026-11-21T09:00:00.001Z');
  const none = pendingChange('C4', ['S4'], [seg('S4B')]);
  const booking = confirmedBooking({ changes: [past, exactly, later, none] });
  assert.deepEqual(
    dueChanges(booking, NOW).map((change) => change.changeId),
    ['C1', 'C2'],
  );
  assert.deepEqual(dueChanges({ ...booking, status: 'CANCELED' }, NOW), []);
  assert.equal(applyDeadlineConsequence(confirmedBooking({ changes: [later, none] }), NOW), null);
});

test("ACCEPT: the accept rules, as the agency's call (every pending change accepted); the input is left alone", () => {
  const booking = confirmedBooking({ changes: [withDeadline(pendingChange('C1', ['S1'], [seg('S1B')]), NOW)] });
  const before = snapshot(booking);
  const applied = applyDeadlineConsequence(booking, NOW)!;
  assert.equal(applied.consequence, 'ACCEPT');
  assert.ok(applied.outcome.ok && applied.outcome.changed);
  assert.deepEqual(
    applied.outcome.booking.segments.map((segment) => segment.segmentId),
    ['S1B'],
  );
  assert.deepEqual(booking, before);
});

test('CANCEL of any due change wins; it refunds exactly the quote', () => {
  const booking = confirmedBooking({
    segments: [seg('S1'), seg('S2')],
    passengers: [pax('P1', ticket('2201234567890', [coupon('S1', 10000, 'USED'), coupon('S2', 5001)]))],
    changes: [
      withDeadline(pendingChange('C1', ['S1'], [seg('S1B')]), NOW),
      withDeadline(pendingChange('C2', ['S2'], [seg('S2B')]), NOW, 'CANCEL'),
    ],
  });
  const applied = applyDeadlineConsequence(booking, NOW)!;
  assert.equal(applied.consequence, 'CANCEL');
  assert.ok(applied.outcome.ok);
  assert.deepEqual(
    applied.outcome.booking.refunds.map((refund) => [refund.ticketNumber, refund.amount, refund.quoteType]),
    refundQuote(booking).tickets.map((quote) => [quote.ticketNumber, quote.amount, quote.quoteType]),
  );
  assert.deepEqual(refundQuote(booking), {
    amount: 5001,
    quoteType: 'PARTIAL',
    tickets: [{ ticketNumber: '2201234567890', amount: 5001, quoteType: 'PARTIAL' }],
  });
  assert.deepEqual(applied.outcome, involuntaryCancel(booking, NOW));
});

test('ACCEPT due while another pending change only removes flights: accepting is impossible, so the booking is cancelled and refunded', () => {
  const booking = confirmedBooking({
    segments: [seg('S1'), seg('S2')],
    passengers: [pax('P1', ticket('2201234567890', [coupon('S1', 100), coupon('S2', 200)]))],
    changes: [
      withDeadline(pendingChange('C1', ['S1'], [seg('S1B')]), NOW),
      withDeadline(pendingChange('C2', ['S2'], []), '2026-12-01T00:00:00Z'),
    ],
  });
  const applied = applyDeadlineConsequence(booking, NOW)!;
  assert.equal(applied.consequence, 'CANCEL');
  assert.ok(applied.outcome.ok);
  assert.equal(applied.outcome.booking.status, 'CANCELED');
  assert.deepEqual(
    applied.outcome.booking.refunds.map((refund) => refund.amount),
    [300],
  );
});

test('a quote without tickets is zero and FULL', () => {
  assert.deepEqual(refundQuote(confirmedBooking({ passengers: [pax('P1', null)] })), {
    amount: 0,
    quoteType: 'FULL',
    tickets: [],
  });
});
