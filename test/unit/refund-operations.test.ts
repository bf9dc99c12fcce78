import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BookingOutcome } from '../../src/domain/booking-outcome.js';
import type { Booking, FareRules, Ticket } from '../../src/domain/order.js';
import { bookingFingerprint } from '../../src/service/booking-fingerprint.js';
import {
  newQuoteId,
  quoteAuditEvents,
  quoteToStore,
  refundQuoteRule,
  refundRule,
  type RefundInput,
} from '../../src/service/refund-operations.js';
import { confirmedBooking, coupon, pax } from '../helpers/domain-fixtures.js';

/**
 * The pure parts of AirOrderRefundQuote and AirOrderRefund (src/service/refund-operations.ts): the
 * rule on each booking, the quote kept from the bookings quoted, and its audit entries.
 */
const ISSUED = '2026-11-20T10:00:00.000Z';
const NOW = '2026-11-30T10:00:00.000Z';
const DAY = 86_400_000;
const settings = { voidWindowMs: DAY, quoteTtlMs: 15 * 60_000 };
const rules: FareRules = { refundable: true, penalty: 1000 };

function tkt(ticketNumber: string, issuedAt = ISSUED): Ticket {
  return { ticketNumber, baseFare: 10000, taxes: 2000, coupons: [coupon('S1', 12000)], issuedAt, fareRules: rules };
}

const two = confirmedBooking({
  reference: 'RFA001',
  passengers: [pax('P1', tkt('2201234567891')), pax('P2', tkt('2201234567892'))],
});
const input = (extra: Partial<RefundInput> = {}): RefundInput => ({
  settings,
  quoteId: 'rfq_A',
  passengerIds: null,
  ...extra,
});

function quotedOf(booking: Booking, extra: Partial<RefundInput> = {}, now = NOW): BookingOutcome {
  return refundQuoteRule(booking, now, input(extra));
}

test('newQuoteId: rfq_ and 24 hex digits, a new one each time', () => {
  const id = newQuoteId();
  assert.match(id, /^rfq_[0-9a-f]{24}$/);
  assert.notEqual(newQuoteId(), id);
});

describe('refundQuoteRule', () => {
  test("the rules' quote under the quote's id, the booking unchanged", () => {
    const outcome = quotedOf(two, { passengerIds: ['P2'] });
    assert.ok(outcome.ok);
    assert.equal(outcome.changed, false);
    assert.equal(outcome.booking, two);
    assert.deepEqual(
      {
        ...outcome.refund,
        tickets: outcome.refund!.tickets.map((ticket) => [ticket.ticketNumber, ticket.amount, ticket.quoteType]),
      },
      {
        quoteId: 'rfq_A',
        expiresAt: '2026-11-30T10:15:00.000Z',
        passengerIds: ['P2'],
        tickets: [['2201234567892', 11000, 'FULL']],
      },
    );
  });

  test("a passenger the booking does not have: the rules' error", () => {
    const outcome = quotedOf(two, { passengerIds: ['P9'] });
    assert.ok(!outcome.ok);
    assert.equal(outcome.code, 'PASSENGER_NOT_FOUND');
  });
});

describe('refundRule', () => {
  const stored = () => quoteToStore('ORD-R', 'AG1', NOW, input(), [{ booking: two, outcome: quotedOf(two) }])!;

  test("the quote's part for the booking, confirmed while the booking is as quoted", () => {
    const outcome = refundRule(two, NOW, input({ quote: stored() }));
    assert.ok(outcome.ok && outcome.changed);
    assert.deepEqual([outcome.booking.status, outcome.booking.refunds.length], ['CANCELED', 2]);
  });

  test('a booking changed since the quote: QUOTE_OUTDATED', () => {
    const changed = { ...two, segments: [...two.segments, { ...two.segments[0]!, segmentId: 'S9' }] };
    const outcome = refundRule(changed, NOW, input({ quote: stored() }));
    assert.ok(!outcome.ok);
    assert.equal(outcome.code, 'QUOTE_OUTDATED');
  });

  test('no quote, or a quote without a part for this booking: QUOTE_NOT_FOUND naming both', () => {
    for (const quote of [null, undefined, stored()]) {
      const booking = quote ? { ...two, reference: 'RFB002' } : two;
      const outcome = refundRule(booking, NOW, input({ quoteId: 'rfq_X', quote }));
      assert.deepEqual(outcome, {
        ok: false,
        code: 'QUOTE_NOT_FOUND',
        message: `Refund quote rfq_X was not found for booking ${booking.reference}.`,
      });
    }
  });
});

describe('quoteToStore', () => {
  // Inside the void window: the quote ends with the window, 5 minutes from now, before the 15 minutes.
  const voidable = confirmedBooking({
    reference: 'RFV003',
    passengers: [pax('P1', tkt('2201234567893', new Date(Date.parse(NOW) - DAY + 5 * 60_000).toISOString()))],
  });

  test('the bookings quoted, in order, each with its fingerprint; the latest expiry of its parts', () => {
    const failed = quotedOf(two, { passengerIds: ['P9'] });
    const quote = quoteToStore('ORD-R', 'AG1', NOW, input(), [
      { booking: voidable, outcome: quotedOf(voidable) },
      { booking: { ...two, reference: 'RFX009' }, outcome: failed },
      { booking: two, outcome: quotedOf(two) },
    ]);
    assert.ok(quote);
    assert.deepEqual(
      {
        ...quote,
        parts: quote.parts.map((part) => [part.reference, part.fingerprint, part.passengerIds, part.expiresAt]),
      },
      {
        quoteId: 'rfq_A',
        agencyId: 'AG1',
        orderId: 'ORD-R',
        createdAt: NOW,
        expiresAt: '2026-11-30T10:15:00.000Z',
        parts: [
          ['RFV003', bookingFingerprint(voidable), ['P1'], '2026-11-30T10:05:00.000Z'],
          ['RFA001', bookingFingerprint(two), ['P1', 'P2'], '2026-11-30T10:15:00.000Z'],
        ],
      },
    );
    assert.deepEqual(
      quote.parts[1]!.tickets.map((ticket) => ticket.amount),
      [11000, 11000],
    );
    const reversed = quoteToStore('ORD-R', 'AG1', NOW, input(), [
      { booking: two, outcome: quotedOf(two) },
      { booking: voidable, outcome: quotedOf(voidable) },
      { booking: voidable, outcome: quotedOf(voidable) },
    ]);
    assert.equal(reversed!.expiresAt, '2026-11-30T10:15:00.000Z');
  });

  test('nothing quoted (every booking failed, or an outcome without a refund): no quote', () => {
    assert.equal(quoteToStore('ORD-R', 'AG1', NOW, input(), []), null);
    assert.equal(
      quoteToStore('ORD-R', 'AG1', NOW, input(), [
        { booking: two, outcome: quotedOf(two, { passengerIds: ['P9'] }) },
        { booking: two, outcome: { ok: true, booking: two, changed: false } },
      ]),
      null,
    );
  });
});

test('quoteAuditEvents: one REFUND_QUOTED entry per part, with the amount in minor units and each ticket', () => {
  const quote = quoteToStore('ORD-R', 'AG1', NOW, input(), [{ booking: two, outcome: quotedOf(two) }])!;
  assert.deepEqual(quoteAuditEvents('ORD-R', 'EUR', quote), [
    {
      orderId: 'ORD-R',
      reference: 'RFA001',
      event: 'REFUND_QUOTED',
      detail: {
        quoteId: 'rfq_A',
        passengerIds: ['P1', 'P2'],
        amountMinor: 22000,
        currency: 'EUR',
        expiresAt: '2026-11-30T10:15:00.000Z',
        tickets: [
          { ticketNumber: '2201234567891', quoteType: 'FULL', amountMinor: 11000 },
          { ticketNumber: '2201234567892', quoteType: 'FULL', amountMinor: 11000 },
        ],
      },
    },
  ]);
});
