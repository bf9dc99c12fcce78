import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QuotedRefund } from '../../src/domain/booking-outcome.js';
import type { Refund } from '../../src/domain/order.js';
import { failedItem, failureText, renderItems, successItem } from '../../src/http/result-items.js';
import { confirmedBooking } from '../helpers/domain-fixtures.js';

/** docs/contract.md §5, §6: each operation's result items, as a booking's outcome makes them. */
const FAILURE = { code: 'BOOKING_NOT_FOUND', message: 'Booking XYZ999 is not part of order ORD-1.' };
const FAILURE_TEXT = 'BOOKING_NOT_FOUND: Booking XYZ999 is not part of order ORD-1.';

const QUOTE: QuotedRefund = {
  quoteId: 'rfq_0123456789abcdef01234567',
  expiresAt: '2026-11-28T10:15:00Z',
  passengerIds: ['P1', 'P2'],
  tickets: [
    {
      passengerId: 'P1',
      ticketNumber: '2201234567890',
      quoteType: 'FULL',
      amount: 45050,
      breakdown: {
        fare: 40000,
        taxes: 10050,
        penalty: 5000,
        taxLines: [
          { code: 'YQ', amount: 8000, refundable: true },
          { code: 'DE', amount: 2050, refundable: false },
        ],
      },
    },
    {
      passengerId: 'P2',
      ticketNumber: '2201234567891',
      quoteType: 'VOID',
      amount: 12345,
      breakdown: { fare: 12000, taxes: 345, penalty: 0, taxLines: [] },
    },
  ],
};

test('a failed item carries the code and message joined by ": "', () => {
  assert.equal(failureText(FAILURE), FAILURE_TEXT);
});

test('cancel and retrieve: the booking status as it stands, an empty Msg, the reference as a string', () => {
  const booking = confirmedBooking({ status: 'CANCELED' });
  for (const operation of ['cancel', 'retrieve'] as const) {
    assert.deepEqual(successItem(operation, 'ORD-1', 'ABC123', booking, 'EUR'), {
      Status: 'SUCCESS',
      Msg: '',
      BookingStatus: 'CANCELED',
      OrderID: 'ORD-1',
      GdsBookingReference: 'ABC123',
    });
  }
});

test('involuntary accept: the reference in a list and an empty ErrorMsg', () => {
  assert.deepEqual(successItem('involuntaryAccept', 'ORD-1', 'ABC123', confirmedBooking(), 'EUR'), {
    OrderID: 'ORD-1',
    GdsBookingReference: ['ABC123'],
    ErrorMsg: '',
    Status: 'SUCCESS',
  });
});

test("involuntary cancel: the booking's own refunds, not those of earlier voluntary refunds", () => {
  const refunds: Refund[] = [
    { ticketNumber: '2201234567890', amount: 57050, quoteType: 'FULL', createdAt: '2026-11-20T08:00:00Z' },
    {
      ticketNumber: '2201234567891',
      amount: 10000,
      quoteType: 'FULL',
      createdAt: '2026-11-19T08:00:00Z',
      quoteId: 'rfq_0123456789abcdef01234567',
    },
    { ticketNumber: '2201234567892', amount: 1, quoteType: 'PARTIAL', createdAt: '2026-11-20T08:00:00Z' },
  ];
  const booking = confirmedBooking({ status: 'CANCELED', refunds });
  assert.deepEqual(successItem('involuntaryCancel', 'ORD-1', 'ABC123', booking, 'EUR'), {
    OrderID: 'ORD-1',
    GdsBookingReference: ['ABC123'],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: 570.51,
    RefundText:
      'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:570.50 TicketNumber:2201234567892 QuoteType:PARTIAL RefundAmount:0.01',
    RefundPaxWiseFare: [
      { TicketNumber: '2201234567890', Amount: 570.5 },
      { TicketNumber: '2201234567892', Amount: 0.01 },
    ],
  });
  assert.deepEqual(
    successItem('involuntaryCancel', 'ORD-1', 'ABC123', confirmedBooking({ refunds: [refunds[0]!] }), 'JPY'),
    {
      OrderID: 'ORD-1',
      GdsBookingReference: ['ABC123'],
      ErrorMsg: '',
      Status: 'SUCCESS',
      RefundAmount: 57050,
      RefundText: 'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:57050',
      RefundPaxWiseFare: [{ TicketNumber: '2201234567890', Amount: 57050 }],
    },
  );
});

test("a refund quote or refund: the quote's amount, each ticket's breakdown, its id and expiry", () => {
  const expected = {
    OrderID: 'ORD-1',
    GdsBookingReference: ['ABC123'],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: 573.95,
    RefundText:
      'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:450.50 TicketNumber:2201234567891 QuoteType:VOID RefundAmount:123.45',
    RefundPaxWiseFare: [
      {
        TicketNumber: '2201234567890',
        Amount: 450.5,
        Fare: 400,
        Taxes: 100.5,
        Penalty: 50,
        TaxBreakdown: [
          { TaxCode: 'YQ', Amount: 80, Refundable: true },
          { TaxCode: 'DE', Amount: 20.5, Refundable: false },
        ],
      },
      { TicketNumber: '2201234567891', Amount: 123.45, Fare: 120, Taxes: 3.45, Penalty: 0, TaxBreakdown: [] },
    ],
    QuoteID: 'rfq_0123456789abcdef01234567',
    ExpiresAt: '2026-11-28T10:15:00Z',
  };
  for (const operation of ['refundQuote', 'refund'] as const) {
    assert.deepEqual(successItem(operation, 'ORD-1', 'ABC123', confirmedBooking(), 'EUR', QUOTE), expected);
    assert.throws(() => successItem(operation, 'ORD-1', 'ABC123', confirmedBooking(), 'EUR'), {
      message: `a successful ${operation} item carries its refund`,
    });
  }
  const yen = successItem('refund', 'ORD-1', 'ABC123', confirmedBooking(), 'JPY', QUOTE) as typeof expected;
  assert.equal(yen.RefundAmount, 57395);
  assert.equal(yen.RefundPaxWiseFare[0]!.TaxBreakdown[1]!.Amount, 2050);
});

test('a failed item claims no status or refund: empty or zero fields beside the failure text', () => {
  for (const operation of ['cancel', 'retrieve'] as const) {
    assert.deepEqual(failedItem(operation, 'ORD-1', 'XYZ999', FAILURE), {
      Status: 'FAILED',
      Msg: FAILURE_TEXT,
      BookingStatus: '',
      OrderID: 'ORD-1',
      GdsBookingReference: 'XYZ999',
    });
  }
  assert.deepEqual(failedItem('involuntaryAccept', 'ORD-1', 'XYZ999', FAILURE), {
    OrderID: 'ORD-1',
    GdsBookingReference: ['XYZ999'],
    ErrorMsg: FAILURE_TEXT,
    Status: 'FAILED',
  });
  assert.deepEqual(failedItem('involuntaryCancel', 'ORD-1', 'XYZ999', FAILURE), {
    OrderID: 'ORD-1',
    GdsBookingReference: ['XYZ999'],
    ErrorMsg: FAILURE_TEXT,
    Status: 'FAILED',
    RefundAmount: 0,
    RefundText: '',
    RefundPaxWiseFare: [],
  });
  for (const operation of ['refundQuote', 'refund'] as const) {
    assert.deepEqual(failedItem(operation, 'ORD-1', 'XYZ999', FAILURE), {
      OrderID: 'ORD-1',
      GdsBookingReference: ['XYZ999'],
      ErrorMsg: FAILURE_TEXT,
      Status: 'FAILED',
      RefundAmount: 0,
      RefundText: '',
      RefundPaxWiseFare: [],
      QuoteID: '',
      ExpiresAt: '',
    });
  }
});

test('rendered items: one per result in order, and the failures of the failed ones only', () => {
  const other = { code: 'BOOKING_CANCELED' as const, message: 'Booking DEF456 is cancelled.' };
  const rendered = renderItems('refund', 'ORD-1', 'EUR', [
    { reference: 'ABC123', outcome: { ok: true, booking: confirmedBooking(), changed: true, refund: QUOTE } },
    { reference: 'XYZ999', outcome: { ok: false, code: 'BOOKING_NOT_FOUND', message: FAILURE.message } },
    { reference: 'DEF456', outcome: { ok: false, ...other } },
  ]);
  assert.deepEqual(rendered.items, [
    successItem('refund', 'ORD-1', 'ABC123', confirmedBooking(), 'EUR', QUOTE),
    failedItem('refund', 'ORD-1', 'XYZ999', FAILURE),
    failedItem('refund', 'ORD-1', 'DEF456', other),
  ]);
  assert.deepEqual(rendered.failures, [FAILURE, other]);
  const cancelled = renderItems('cancel', 'ORD-2', 'EUR', [
    { reference: 'ABC123', outcome: { ok: true, booking: confirmedBooking(), changed: false } },
  ]);
  assert.deepEqual(cancelled, {
    items: [
      { Status: 'SUCCESS', Msg: '', BookingStatus: 'CONFIRMED', OrderID: 'ORD-2', GdsBookingReference: 'ABC123' },
    ],
    failures: [],
  });
});
