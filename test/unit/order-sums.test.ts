import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LARGEST_MINOR } from '../../src/domain/money.js';
import { bookingSum, unsafeOrderSum } from '../../src/domain/order-sums.js';
import type { Order } from '../../src/domain/order.js';
import { refundQuote } from '../../src/domain/refund-quote.js';
import { confirmedBooking, coupon, pax, ticket } from '../helpers/domain-fixtures.js';

const MAX = LARGEST_MINOR;
const booking = (...values: number[][]) =>
  confirmedBooking({
    passengers: values.map((coupons, index) =>
      pax(
        `P${index}`,
        ticket(
          `22000000000${String(index).padStart(2, '0')}`,
          coupons.map((value, at) => coupon(`S${at}`, value)),
        ),
      ),
    ),
  });
const orderOf = (...bookings: ReturnType<typeof booking>[]): Order => ({
  orderId: 'O1',
  agencyId: 'A1',
  currency: 'EUR',
  bookings,
});

describe('the sums of an order', () => {
  test("up to the bound: the booking's sum is its largest refund, and refundQuote takes it without overflowing", () => {
    const fits = booking([MAX - 10, 3], [7]);
    assert.equal(bookingSum(fits), MAX);
    assert.equal(refundQuote(fits).amount, MAX);
    assert.equal(unsafeOrderSum(orderOf(fits, booking([0]))), null);
  });

  test('one minor unit past it, named where the sum passes it', () => {
    assert.deepEqual(bookingSum(booking([MAX], [1])), { sum: 'booking', path: ['passengers', 1, 'ticket'] });
    assert.deepEqual(unsafeOrderSum(orderOf(booking([1]), booking([MAX], [1]))), {
      sum: 'booking',
      path: ['bookings', 1, 'passengers', 1, 'ticket'],
    });
    assert.deepEqual(unsafeOrderSum(orderOf(booking([MAX]), booking([1]))), { sum: 'order', path: ['bookings', 1] });
    const ticketPast = booking([MAX]);
    ticketPast.passengers[0]!.ticket!.taxes = 1;
    assert.deepEqual(bookingSum(ticketPast), { sum: 'ticket', path: ['passengers', 0, 'ticket'] });
    // Stored before the bound, a ticket's coupons may add up past it while baseFare + taxes do not.
    const couponsPast = booking([MAX, 1]);
    couponsPast.passengers[0]!.ticket!.baseFare = 1;
    assert.deepEqual(bookingSum(couponsPast), { sum: 'coupons', path: ['passengers', 0, 'ticket', 'coupons'] });
  });

  test('a value stored under the earlier bound (2^53 - 1) is past this one, and so are two of them', () => {
    assert.deepEqual(bookingSum(booking([Number.MAX_SAFE_INTEGER])), {
      sum: 'ticket',
      path: ['passengers', 0, 'ticket'],
    });
    const twoAtBound = booking([MAX], [MAX]);
    assert.deepEqual(bookingSum(twoAtBound), { sum: 'booking', path: ['passengers', 1, 'ticket'] });
  });

  test('a stored value that is not a number counts as past the bound', () => {
    assert.deepEqual(bookingSum(booking([Number.NaN])), { sum: 'ticket', path: ['passengers', 0, 'ticket'] });
  });
});
