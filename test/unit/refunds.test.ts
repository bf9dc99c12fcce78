import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { involuntaryRefund, refundTotal } from '../../src/domain/refund-calculator.js';
import { refundText } from '../../src/domain/refund-text.js';
import type { Refund } from '../../src/domain/order.js';
import { coupon, ticket } from '../helpers/domain-fixtures.js';

function refund(ticketNumber: string, amount: number, quoteType: 'FULL' | 'PARTIAL' = 'FULL'): Refund {
  return { ticketNumber, amount, quoteType, createdAt: '2026-11-21T00:00:00.000Z' };
}

describe('involuntaryRefund', () => {
  test('nothing flown: FULL, every open coupon at its value, no penalty', () => {
    const result = involuntaryRefund(ticket('2201234567890', [coupon('S1', 30000), coupon('S2', 27050)]));
    assert.deepEqual(result, { ticketNumber: '2201234567890', amount: 57050, quoteType: 'FULL' });
  });

  test('a used coupon makes it PARTIAL and is not refunded', () => {
    const result = involuntaryRefund(ticket('2201234567890', [coupon('S1', 30000, 'USED'), coupon('S2', 27050)]));
    assert.deepEqual(result, { ticketNumber: '2201234567890', amount: 27050, quoteType: 'PARTIAL' });
  });

  test('already refunded coupons are not refunded again and do not make it PARTIAL', () => {
    const result = involuntaryRefund(ticket('2201234567890', [coupon('S1', 30000, 'REFUNDED'), coupon('S2', 27050)]));
    assert.deepEqual(result, { ticketNumber: '2201234567890', amount: 27050, quoteType: 'FULL' });
  });

  test('everything flown: PARTIAL with 0', () => {
    const result = involuntaryRefund(
      ticket('2201234567890', [coupon('S1', 30000, 'USED'), coupon('S2', 27050, 'USED')]),
    );
    assert.deepEqual(result, { ticketNumber: '2201234567890', amount: 0, quoteType: 'PARTIAL' });
  });
});

describe('refundTotal', () => {
  test('sums amounts exactly', () => {
    assert.equal(refundTotal([]), 0);
    assert.equal(refundTotal([refund('1', 10), refund('2', 20)]), 30);
    assert.equal(refundTotal([refund('1', 57050), refund('2', 1), refund('3', 28525)]), 85576);
  });
});

describe('refundText', () => {
  test('one ticket, EUR with two decimals', () => {
    assert.equal(
      refundText([refund('2201234567890', 57050)], 'EUR'),
      'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:570.50',
    );
  });

  test('JPY without decimals, KWD with three', () => {
    assert.equal(
      refundText([refund('2201234567890', 120000)], 'JPY'),
      'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:120000',
    );
    assert.equal(
      refundText([refund('2201234567890', 123450, 'PARTIAL')], 'KWD'),
      'TicketNumber:2201234567890 QuoteType:PARTIAL RefundAmount:123.450',
    );
    assert.equal(
      refundText([refund('2201234567890', 5)], 'KWD'),
      'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:0.005',
    );
  });

  test('several tickets in the given order, joined by single spaces', () => {
    assert.equal(
      refundText(
        [refund('2201234567890', 57050), refund('2201234567891', 0, 'PARTIAL'), refund('2201234567892', 7)],
        'EUR',
      ),
      'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:570.50 ' +
        'TicketNumber:2201234567891 QuoteType:PARTIAL RefundAmount:0.00 ' +
        'TicketNumber:2201234567892 QuoteType:FULL RefundAmount:0.07',
    );
  });

  test('no tickets: empty text', () => {
    assert.equal(refundText([], 'EUR'), '');
  });
});
