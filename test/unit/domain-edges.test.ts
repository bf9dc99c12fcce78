import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptChanges } from '../../src/domain/accept-changes.js';
import { inDetectionOrder } from '../../src/domain/booking-outcome.js';
import { normaliseReferences } from '../../src/domain/booking-references.js';
import { sortByDeparture } from '../../src/domain/itinerary.js';
import { LARGEST_MINOR, sumMinor } from '../../src/domain/money.js';
import {
  BOOKING_STATUSES,
  CHANGE_KINDS,
  CONSEQUENCES,
  COUPON_STATUSES,
  PASSENGER_TYPES,
  type Booking,
  type Ticket,
} from '../../src/domain/order.js';
import { bookingSum, unsafeSumProblem } from '../../src/domain/order-sums.js';
import { refundQuote } from '../../src/domain/refund-quote.js';
import { refundableTaxes } from '../../src/domain/refundable-taxes.js';
import { confirmRefund, type QuoteToConfirm } from '../../src/domain/voluntary-refund.js';
import { quoteAmount, quoteBooking, quoteTicket, voidWindowEnd } from '../../src/domain/voluntary-quote.js';
import { confirmedBooking, coupon, pax, pendingChange, seg, ticket } from '../helpers/domain-fixtures.js';

/** The domain's rules at their edges: ties, boundaries, the passengers and coupons a rule leaves alone. */
const DAY = 86_400_000;
const ISSUED = '2026-11-20T10:00:00.000Z';
const SETTINGS = { voidWindowMs: DAY, quoteTtlMs: 15 * 60_000 };

function refundable(ticketNumber: string, statuses: ('OPEN' | 'USED' | 'REFUNDED')[] = ['OPEN']): Ticket {
  return {
    ...ticket(
      ticketNumber,
      statuses.map((status, index) => coupon(`S${index + 1}`, 10_000, status)),
    ),
    issuedAt: ISSUED,
    fareRules: { refundable: true, penalty: 1_000 },
  };
}

describe('the order in which changes and segments are taken', () => {
  test('changes by detection time first, then by changeId, whatever order they are listed in', () => {
    const at = (changeId: string, detectedAt: string) => ({ changeId, detectedAt });
    const ids = (changes: { changeId: string }[]) => changes.map((change) => change.changeId);
    assert.deepEqual(ids(inDetectionOrder([at('A', '2026-11-20T09:00:00Z'), at('B', '2026-11-20T08:00:00Z')])), [
      'B',
      'A',
    ]);
    assert.deepEqual(ids(inDetectionOrder([at('B', '2026-11-20T08:00:00Z'), at('A', '2026-11-20T08:00:00Z')])), [
      'A',
      'B',
    ]);
    assert.deepEqual(ids(inDetectionOrder([at('A', '2026-11-20T08:00:00Z'), at('B', '2026-11-20T08:00:00Z')])), [
      'A',
      'B',
    ]);
    assert.deepEqual(
      ids(
        inDetectionOrder([
          at('C2', '2026-11-20T08:00:00Z'),
          at('Z', '2026-11-19T08:00:00Z'),
          at('C10', '2026-11-20T08:00:00Z'),
          at('A', '2026-11-21T08:00:00Z'),
        ]),
      ),
      ['Z', 'C10', 'C2', 'A'],
    );
  });

  test('segments by departure; equal departures keep their order', () => {
    const ids = (segments: { segmentId: string }[]) => segments.map((segment) => segment.segmentId);
    const same = '2026-12-01T10:00:00Z';
    assert.deepEqual(ids(sortByDeparture([seg('S2', same), seg('S1', same), seg('S3', same)])), ['S2', 'S1', 'S3']);
    assert.deepEqual(ids(sortByDeparture([seg('S2', '2026-12-02T10:00:00Z'), seg('S1', same)])), ['S1', 'S2']);
    // Past the length the sort merges runs rather than inserting one by one.
    const many = Array.from({ length: 200 }, (_, i) =>
      seg(`S${(i * 7919) % 1000}`, i % 2 ? same : '2026-12-01T09:00:00Z'),
    );
    assert.deepEqual(ids(sortByDeparture(many)), [
      ...ids(many.filter((_, i) => i % 2 === 0)),
      ...ids(many.filter((_, i) => i % 2)),
    ]);
  });

  test('booking references are upper-cased and each kept once, in the order first given', () => {
    assert.deepEqual(normaliseReferences(['abc123', 'XYZ789', 'ABC123', 'xyz789', 'Def456']), [
      'ABC123',
      'XYZ789',
      'DEF456',
    ]);
    assert.deepEqual(normaliseReferences([]), []);
  });
});

test('what an imported document may say: the passenger types, coupon and booking statuses, change kinds, consequences', () => {
  assert.deepEqual(PASSENGER_TYPES, ['ADT', 'CHD', 'INF']);
  assert.deepEqual(COUPON_STATUSES, ['OPEN', 'USED', 'REFUNDED']);
  assert.deepEqual(BOOKING_STATUSES, ['CONFIRMED', 'CANCELED']);
  assert.deepEqual(CHANGE_KINDS, ['SCHEDULE_CHANGE', 'FLIGHT_CANCELLATION', 'ROUTING_CHANGE']);
  assert.deepEqual(CONSEQUENCES, ['ACCEPT', 'CANCEL']);
});

describe('sums', () => {
  test('an overflow is named as such', () => {
    assert.throws(() => sumMinor([Number.MAX_SAFE_INTEGER, 1]), { name: 'RangeError', message: 'Amount overflow' });
  });

  test("a passenger without a ticket adds nothing to the booking's sum", () => {
    const booking = confirmedBooking({
      passengers: [pax('P1', null), pax('P2', ticket('2201', [coupon('S1', 700)])), pax('P3', null)],
    });
    assert.equal(bookingSum(booking), 700);
  });

  test('each sum past the limit is named in the words of an import error', () => {
    const limit =
      'more than 9999999999999.99 EUR (999999999999999 minor units), the largest sum the service keeps exact';
    assert.equal(LARGEST_MINOR, 999_999_999_999_999);
    assert.equal(unsafeSumProblem({ sum: 'ticket', path: [] }, 'EUR'), `has baseFare + taxes of ${limit}`);
    assert.equal(unsafeSumProblem({ sum: 'coupons', path: [] }, 'EUR'), `values add up to ${limit}`);
    assert.equal(
      unsafeSumProblem({ sum: 'booking', path: [] }, 'EUR'),
      `brings the tickets of its booking to ${limit}`,
    );
    assert.equal(unsafeSumProblem({ sum: 'order', path: [] }, 'EUR'), `brings the tickets of the order to ${limit}`);
    assert.equal(
      unsafeSumProblem({ sum: 'order', path: [] }, 'JPY'),
      'brings the tickets of the order to more than 999999999999999 JPY (999999999999999 minor units), the largest sum the service keeps exact',
    );
  });
});

describe('involuntary refunds and taxes', () => {
  test('a quote is FULL when no ticket was flown, PARTIAL when one was', () => {
    const full = refundQuote(confirmedBooking({ passengers: [pax('P1', refundable('1', ['OPEN', 'OPEN']))] }));
    assert.equal(full.quoteType, 'FULL');
    const partial = refundQuote(
      confirmedBooking({
        passengers: [pax('P1', refundable('1', ['OPEN', 'OPEN'])), pax('P2', refundable('2', ['USED', 'OPEN']))],
      }),
    );
    assert.equal(partial.quoteType, 'PARTIAL');
  });

  test('without a flag, YQ and YR are kept on a non-refundable fare, and each other code given back', () => {
    const { taxes, taxLines } = refundableTaxes(
      {
        ...ticket('1', [coupon('S1', 100)]),
        taxes: 60,
        taxBreakdown: [
          { code: 'YQ', amount: 10 },
          { code: 'YR', amount: 20 },
          { code: 'DE', amount: 30 },
        ],
      },
      false,
    );
    assert.equal(taxes, 30);
    assert.deepEqual(
      taxLines.map((line) => [line.code, line.refundable]),
      [
        ['YQ', false],
        ['YR', false],
        ['DE', true],
      ],
    );
  });
});

describe('accepting changes', () => {
  test('only pending changes become ACCEPTED; earlier ones keep their status', () => {
    const closed = { ...pendingChange('C0', ['S0'], [seg('S1')], '2026-11-19T08:00:00Z'), status: 'CLOSED' as const };
    const booking = confirmedBooking({ changes: [closed, pendingChange('C1', ['S1'], [seg('S1B')])] });
    const outcome = acceptChanges(booking);
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.booking.changes.map((change) => [change.changeId, change.status]),
      [
        ['C0', 'CLOSED'],
        ['C1', 'ACCEPTED'],
      ],
    );
  });
});

describe('voluntary quotes at their edges', () => {
  const at = (iso: string) => Date.parse(iso);

  test('a ticket loaded without its issue time has no void window', () => {
    const withoutIssue = refundable('1');
    delete withoutIssue.issuedAt;
    assert.equal(voidWindowEnd(withoutIssue, DAY), null);
    assert.equal(voidWindowEnd(refundable('1'), DAY), at(ISSUED) + DAY);
  });

  test('the void window ends at issue time plus its length: at that instant the ticket is refunded by its rules', () => {
    const inside = quoteTicket(refundable('1'), 'P1', at(ISSUED) + DAY - 1, DAY);
    assert.ok(inside.ok);
    assert.equal(inside.value.quoteType, 'VOID');
    const atEnd = quoteTicket(refundable('1'), 'P1', at(ISSUED) + DAY, DAY);
    assert.ok(atEnd.ok);
    assert.equal(atEnd.value.quoteType, 'FULL');
  });

  test('one coupon flown among open ones: PARTLY_FLOWN; one refunded among open ones: ALREADY_REFUNDED', () => {
    const later = at(ISSUED) + 10 * DAY;
    const flown = quoteTicket(refundable('1', ['USED', 'OPEN']), 'P1', later, DAY);
    assert.equal(flown.ok ? 'quoted' : flown.error.code, 'PARTLY_FLOWN');
    const refunded = quoteTicket(refundable('1', ['OPEN', 'REFUNDED']), 'P1', later, DAY);
    assert.equal(refunded.ok ? 'quoted' : refunded.error.code, 'ALREADY_REFUNDED');
  });

  test('a named passenger who left already fails the quote; an unticketed one is quoted with no ticket', () => {
    const gone = {
      ...pax('P2', refundable('2')),
      canceled: { at: '2026-11-21T10:00:00.000Z', quoteId: 'Q-1' },
    };
    const booking = confirmedBooking({ passengers: [pax('P1', refundable('1')), gone, pax('P3', null)] });
    const now = '2026-11-25T10:00:00.000Z';
    const refused = quoteBooking(booking, ['P1', 'P2'], now, SETTINGS);
    assert.deepEqual(refused.ok ? 'quoted' : refused.error, {
      code: 'ALREADY_REFUNDED',
      message: 'Passenger P2 left booking ABC123 with a refund already.',
    });
    const quoted = quoteBooking(booking, ['P1', 'P3'], now, SETTINGS);
    assert.ok(quoted.ok);
    assert.deepEqual(quoted.value.passengerIds, ['P1', 'P3']);
    assert.deepEqual(
      quoted.value.tickets.map((one) => one.ticketNumber),
      ['1'],
    );
    assert.equal(quoteAmount(quoted.value.tickets), 9_000);
    assert.equal(quoteAmount([]), 0);
  });

  test("a ticket that cannot be refunded fails the booking's quote, whichever passenger holds it", () => {
    const booking = confirmedBooking({
      passengers: [pax('P1', refundable('1')), pax('P2', refundable('2', ['USED', 'OPEN']))],
    });
    const quote = quoteBooking(booking, null, '2026-11-25T10:00:00.000Z', SETTINGS);
    assert.equal(quote.ok ? 'quoted' : quote.error.code, 'PARTLY_FLOWN');
  });
});

describe('confirming a voluntary refund', () => {
  const now = '2026-11-25T10:00:00.000Z';
  function confirmable(booking: Booking, passengerIds: string[] | null = null): QuoteToConfirm {
    const quote = quoteBooking(booking, passengerIds, '2026-11-25T09:55:00.000Z', SETTINGS);
    assert.ok(quote.ok);
    return { quoteId: 'Q-9', part: quote.value, unchangedSinceQuote: true };
  }

  test('the outcome carries the refund as confirmed: quote, expiry, passengers and tickets', () => {
    const booking = confirmedBooking({ passengers: [pax('P1', refundable('1'))] });
    const quote = confirmable(booking);
    const outcome = confirmRefund(booking, quote, now);
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.refund, {
      quoteId: 'Q-9',
      expiresAt: quote.part.expiresAt,
      passengerIds: ['P1'],
      tickets: quote.part.tickets,
    });
  });

  test('an unticketed passenger leaves with the others, their ticket still none', () => {
    const booking = confirmedBooking({ passengers: [pax('P1', refundable('1')), pax('P2', null)] });
    const outcome = confirmRefund(booking, confirmable(booking), now);
    assert.ok(outcome.ok);
    assert.equal(outcome.booking.passengers[1]!.ticket, null);
    assert.deepEqual(outcome.booking.passengers[1]!.canceled, { at: now, quoteId: 'Q-9' });
  });

  test("a leaving passenger whose ticket the quote does not list keeps that ticket's coupons as they are", () => {
    const booking = confirmedBooking({ passengers: [pax('P1', refundable('1')), pax('P2', refundable('2'))] });
    const quote = confirmable(booking, ['P1']);
    const widened = { ...quote, part: { ...quote.part, passengerIds: ['P1', 'P2'] } };
    const outcome = confirmRefund(booking, widened, now);
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.booking.passengers.map((passenger) => passenger.ticket!.coupons.map((one) => one.status)),
      [['REFUNDED'], ['OPEN']],
    );
  });

  test('only OPEN coupons become REFUNDED', () => {
    const booking = confirmedBooking({ passengers: [pax('P1', refundable('1', ['OPEN', 'OPEN']))] });
    const quote = confirmable(booking);
    const flownMeanwhile = confirmedBooking({ passengers: [pax('P1', refundable('1', ['USED', 'OPEN']))] });
    const outcome = confirmRefund(flownMeanwhile, quote, now);
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.booking.passengers[0]!.ticket!.coupons.map((one) => one.status),
      ['USED', 'REFUNDED'],
    );
  });

  test('the last passengers leaving end the booking: CANCELED, its pending changes CLOSED, the others kept', () => {
    const accepted = {
      ...pendingChange('C0', ['S0'], [seg('S1')], '2026-11-19T08:00:00Z'),
      status: 'ACCEPTED' as const,
    };
    const booking = confirmedBooking({
      passengers: [pax('P1', refundable('1'))],
      changes: [accepted, pendingChange('C1', ['S1'], [seg('S1B')])],
    });
    const outcome = confirmRefund(booking, confirmable(booking), now);
    assert.ok(outcome.ok);
    assert.equal(outcome.booking.status, 'CANCELED');
    assert.equal(outcome.booking.cancellation, 'VOLUNTARY');
    assert.deepEqual(
      outcome.booking.changes.map((change) => [change.changeId, change.status]),
      [
        ['C0', 'ACCEPTED'],
        ['C1', 'CLOSED'],
      ],
    );
  });

  test('a booking cancelled already keeps how it was cancelled when its last passengers leave', () => {
    const booking = confirmedBooking({
      status: 'CANCELED',
      cancellation: 'INVOLUNTARY',
      passengers: [pax('P1', null)],
      changes: [{ ...pendingChange('C1', ['S1'], []), status: 'CANCELED' }],
    });
    const outcome = confirmRefund(booking, confirmable(booking), now);
    assert.ok(outcome.ok);
    assert.equal(outcome.booking.status, 'CANCELED');
    assert.equal(outcome.booking.cancellation, 'INVOLUNTARY');
    assert.deepEqual(outcome.booking.changes, booking.changes);
  });
});
