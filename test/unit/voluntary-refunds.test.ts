import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { percentOf, penaltyOf } from '../../src/domain/penalty.js';
import { confirmRefund } from '../../src/domain/voluntary-refund.js';
import { ISSUE_CLOCK_SKEW_MS, quoteBooking, quoteTicket } from '../../src/domain/voluntary-quote.js';
import type { FareRules, TaxLine, Ticket } from '../../src/domain/order.js';
import { confirmedBooking, coupon, pax, snapshot } from '../helpers/domain-fixtures.js';

const DAY = 86_400_000;
const ISSUED = '2026-11-20T10:00:00.000Z';
const LATER = Date.parse(ISSUED) + 10 * DAY;

function tkt(
  baseFare: number,
  taxes: number,
  extra: {
    fareRules?: FareRules;
    taxBreakdown?: TaxLine[];
    issuedAt?: string;
    status?: 'OPEN' | 'USED' | 'REFUNDED';
  } = {},
): Ticket {
  const { status = 'OPEN', ...rest } = extra;
  return {
    ticketNumber: '2201234567890',
    baseFare,
    taxes,
    coupons: [coupon('S1', baseFare + taxes, status)],
    issuedAt: ISSUED,
    ...rest,
  };
}

function quoted(ticket: Ticket, now = LATER) {
  const result = quoteTicket(ticket, 'P1', now, DAY);
  assert.ok(result.ok, JSON.stringify(result));
  return result.value;
}

function refused(ticket: Ticket, now = LATER) {
  const result = quoteTicket(ticket, 'P1', now, DAY);
  assert.ok(!result.ok);
  return result.error.code;
}

describe('percentOf: integers, rounded half up', () => {
  test('102.50 at 35 % is 35.88, where 10250 * 0.35 in floating point is 3587.4999…', () => {
    assert.ok(10250 * 0.35 < 3587.5);
    assert.equal(percentOf(10250, 3500), 3588);
  });
  test('halves round up, below half down, exact values stay', () => {
    assert.equal(percentOf(3333, 1250), 417); // 416.625
    assert.equal(percentOf(12345, 1250), 1543); // 1543.125 (JPY)
    assert.equal(percentOf(145500, 1250), 18188); // 18187.5 (KWD)
    assert.equal(percentOf(1, 5000), 1); // 0.5
    assert.equal(percentOf(1, 4999), 0);
    assert.equal(percentOf(45000, 1000), 4500);
  });
  test('fares past 2^53 / 10000 are still exact', () => {
    assert.equal(percentOf(999_999_999_999_999, 3333), 333_300_000_000_000); // 333299999999999.6667
  });
});

describe('penaltyOf', () => {
  test('an amount, a percentage, never more than the fare', () => {
    assert.equal(penaltyOf({ refundable: true, penalty: 10000 }, 45000), 10000);
    assert.equal(penaltyOf({ refundable: true, penaltyBasisPoints: 3500 }, 10250), 3588);
    assert.equal(penaltyOf({ refundable: true, penalty: 8000 }, 5000), 5000);
    assert.equal(penaltyOf({ refundable: true }, 5000), 0);
  });
});

describe('quoteTicket', () => {
  test('EUR, refundable with a fixed penalty: fare - penalty + every tax', () => {
    const quote = quoted(tkt(45000, 12050, { fareRules: { refundable: true, penalty: 10000 } }));
    assert.deepEqual(
      [quote.quoteType, quote.amount, quote.breakdown.fare, quote.breakdown.taxes, quote.breakdown.penalty],
      ['FULL', 47050, 45000, 12050, 10000],
    );
    assert.deepEqual(quote.breakdown.taxLines, []);
  });

  test('a refundable fare gives back YQ and YR too', () => {
    const quote = quoted(
      tkt(10250, 9000, {
        fareRules: { refundable: true, penaltyBasisPoints: 3500 },
        taxBreakdown: [
          { code: 'DE', amount: 2000 },
          { code: 'YQ', amount: 6000 },
          { code: 'YR', amount: 1000 },
        ],
      }),
    );
    assert.deepEqual([quote.amount, quote.breakdown.penalty, quote.breakdown.taxes], [10250 - 3588 + 9000, 3588, 9000]);
    assert.ok(quote.breakdown.taxLines.every((line) => line.refundable));
  });

  test('non-refundable: only the refundable taxes, flagged or by code, no fare, no penalty', () => {
    const quote = quoted(
      tkt(45000, 15000, {
        fareRules: { refundable: false, penalty: 5000 },
        taxBreakdown: [
          { code: 'DE', amount: 3000 },
          { code: 'YQ', amount: 8000 },
          { code: 'YR', amount: 1000, refundable: true },
          { code: 'OY', amount: 2500, refundable: false },
          { code: 'RA', amount: 500 },
        ],
      }),
    );
    assert.deepEqual(
      [quote.amount, quote.breakdown.fare, quote.breakdown.taxes, quote.breakdown.penalty],
      [4500, 0, 4500, 0],
    );
    assert.deepEqual(
      quote.breakdown.taxLines.map((line) => [line.code, line.refundable]),
      [
        ['DE', true],
        ['YQ', false],
        ['YR', true],
        ['OY', false],
        ['RA', true],
      ],
    );
  });

  test('non-refundable without a breakdown: its one tax is given back', () => {
    assert.equal(quoted(tkt(45000, 12050, { fareRules: { refundable: false } })).amount, 12050);
  });

  test('a penalty larger than the fare takes the fare, never the taxes', () => {
    const quote = quoted(tkt(5000, 2000, { fareRules: { refundable: true, penalty: 8000 } }));
    assert.deepEqual([quote.amount, quote.breakdown.penalty], [2000, 5000]);
  });

  test('void inside the window: everything back, no penalty, even without fare rules; one minute outside: refunded by the rules', () => {
    const ticket = tkt(45000, 12050, {
      fareRules: { refundable: true, penalty: 10000 },
      taxBreakdown: [
        { code: 'DE', amount: 4050 },
        { code: 'YQ', amount: 8000 },
      ],
    });
    const end = Date.parse(ISSUED) + DAY;
    const inside = quoted(ticket, end - 60_000);
    assert.deepEqual([inside.quoteType, inside.amount, inside.breakdown.penalty], ['VOID', 57050, 0]);
    assert.ok(inside.breakdown.taxLines.every((line) => line.refundable));
    const outside = quoted(ticket, end + 60_000);
    assert.deepEqual([outside.quoteType, outside.amount], ['FULL', 47050]);
    const withoutRules = { ...ticket };
    delete withoutRules.fareRules;
    assert.equal(quoted(withoutRules, end - 60_000).quoteType, 'VOID');
    assert.equal(refused(withoutRules, end + 60_000), 'NO_FARE_RULES');
  });

  test("issued up to ISSUE_CLOCK_SKEW_MS (5 minutes) after our clock: voided, as the issuer's clock may run ahead; a millisecond later: not yet issued, never voided", () => {
    assert.equal(ISSUE_CLOCK_SKEW_MS, 5 * 60_000);
    const ticket = tkt(45000, 0, { fareRules: { refundable: true } });
    const issued = Date.parse(ISSUED);
    assert.equal(quoted(ticket, issued - 4 * 60_000).quoteType, 'VOID');
    assert.equal(quoted(ticket, issued - ISSUE_CLOCK_SKEW_MS).quoteType, 'VOID');
    assert.equal(quoted(ticket, issued - ISSUE_CLOCK_SKEW_MS - 1).quoteType, 'FULL');
    assert.equal(quoted(ticket, issued).quoteType, 'VOID');
    assert.equal(quoted(ticket, issued + DAY - 1).quoteType, 'VOID');
    assert.equal(quoted(ticket, issued + DAY).quoteType, 'FULL');
  });

  test('a ticket without issuedAt is never voided', () => {
    const ticket = tkt(45000, 0, { fareRules: { refundable: true } });
    delete ticket.issuedAt;
    assert.equal(quoted(ticket, Date.parse(ISSUED)).quoteType, 'FULL');
  });

  test('a flown coupon: PARTLY_FLOWN; nothing OPEN: ALREADY_REFUNDED', () => {
    assert.equal(refused(tkt(45000, 0, { fareRules: { refundable: true }, status: 'USED' })), 'PARTLY_FLOWN');
    assert.equal(refused(tkt(45000, 0, { fareRules: { refundable: true }, status: 'REFUNDED' })), 'ALREADY_REFUNDED');
  });
});

describe('quoteBooking and confirmRefund', () => {
  const rules: FareRules = { refundable: true, penalty: 1000 };
  const ticketOf = (number: string) => ({ ...tkt(10000, 2000, { fareRules: rules }), ticketNumber: number });
  const three = confirmedBooking({
    passengers: [
      pax('P1', ticketOf('2201234567891')),
      pax('P2', ticketOf('2201234567892')),
      pax('P3', ticketOf('2201234567893')),
    ],
  });
  const now = new Date(LATER).toISOString();
  const settings = { voidWindowMs: DAY, quoteTtlMs: 15 * 60_000 };

  test('one passenger of three, then the other two: CANCELED only then', () => {
    const before = snapshot(three);
    const first = quoteBooking(three, ['P2'], now, settings);
    assert.ok(first.ok);
    assert.deepEqual(first.value.passengerIds, ['P2']);
    assert.equal(first.value.expiresAt, new Date(LATER + 15 * 60_000).toISOString());
    const one = confirmRefund(three, { quoteId: 'Q1', part: first.value, unchangedSinceQuote: true }, now);
    assert.deepEqual(three, before, 'the booking given is not changed');
    assert.ok(one.ok && one.changed);
    assert.equal(one.booking.status, 'CONFIRMED');
    assert.deepEqual(
      one.booking.passengers.map((p) => p.ticket!.coupons[0]!.status),
      ['OPEN', 'REFUNDED', 'OPEN'],
    );
    assert.deepEqual(
      one.booking.refunds.map((r) => [r.ticketNumber, r.amount, r.quoteId]),
      [['2201234567892', 11000, 'Q1']],
    );

    const again = confirmRefund(one.booking, { quoteId: 'Q1', part: first.value, unchangedSinceQuote: false }, now);
    assert.ok(again.ok && !again.changed, 'a confirmed quote answers again, unchanged');

    const rest = quoteBooking(one.booking, null, now, settings);
    assert.ok(rest.ok);
    assert.deepEqual(rest.value.passengerIds, ['P1', 'P3']);
    const done = confirmRefund(one.booking, { quoteId: 'Q2', part: rest.value, unchangedSinceQuote: true }, now);
    assert.ok(done.ok && done.changed);
    assert.deepEqual([done.booking.status, done.booking.cancellation], ['CANCELED', 'VOLUNTARY']);
    assert.equal(done.booking.refunds.length, 3);
    const none = quoteBooking(done.booking, null, now, settings);
    assert.ok(!none.ok && none.error.code === 'ALREADY_REFUNDED');
  });

  test('unknown passenger, expiry, outdated', () => {
    const unknown = quoteBooking(three, ['P9'], now, settings);
    assert.ok(!unknown.ok && unknown.error.code === 'PASSENGER_NOT_FOUND');
    const quote = quoteBooking(three, null, now, settings);
    assert.ok(quote.ok);
    const expired = confirmRefund(
      three,
      { quoteId: 'Q', part: quote.value, unchangedSinceQuote: true },
      quote.value.expiresAt,
    );
    assert.ok(!expired.ok && expired.code === 'QUOTE_EXPIRED');
    const outdated = confirmRefund(three, { quoteId: 'Q', part: quote.value, unchangedSinceQuote: false }, now);
    assert.ok(!outdated.ok && outdated.code === 'QUOTE_OUTDATED');
  });

  test('a void quote ends with the void window when that comes first, and voids the coupons', () => {
    const booking = confirmedBooking({ passengers: [pax('P1', tkt(10000, 2000))] });
    const at = new Date(Date.parse(ISSUED) + DAY - 5 * 60_000).toISOString();
    const quote = quoteBooking(booking, null, at, settings);
    assert.ok(quote.ok);
    assert.equal(quote.value.expiresAt, new Date(Date.parse(ISSUED) + DAY).toISOString());
    const done = confirmRefund(booking, { quoteId: 'QV', part: quote.value, unchangedSinceQuote: true }, at);
    assert.ok(done.ok);
    assert.equal(done.booking.passengers[0]!.ticket!.coupons[0]!.status, 'VOIDED');
    assert.equal(done.booking.status, 'CANCELED');
  });
});
