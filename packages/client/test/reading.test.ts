/**
 * The client's reading rules, on documented wire examples (docs/errors.md, docs/contract.md §4) that the
 * service itself never sends: the FAILURE variant, 409 IDEMPOTENCY_KEY_IN_USE (only reachable on
 * PostgreSQL), Retry-After as a date, money edge cases, the backoff's bounds.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { errorFromResponse } from '../src/errors.js';
import {
  AirOrderConnectionError,
  AirOrderIdempotencyError,
  AirOrderInvalidResponseError,
  AirOrderUnavailableError,
  OPERATIONS,
  VERSION,
  decimalToMinor,
  isRetryable,
  minorToDecimal,
  parseFailureText,
  parseRefundText,
  parseRetryAfter,
  retryDelayMs,
} from '../src/index.js';
import { readInvoluntaryAcceptResult, readInvoluntaryCancelResult, type ResponseContext } from '../src/results.js';

const CONTEXT: ResponseContext = {
  status: 200,
  headers: new Headers(),
  requestId: 'req-1',
  idempotencyKey: 'key-1',
  replayed: false,
  attempts: 1,
};

const PARTY = {
  Sender: { TravelAgencySender: { Name: '', IATA_Number: '', AgencyID: 'A1', Contacts: { Contact: [] } } },
};

test('FAILURE, the documented variant, reads as FAILED with the parsed failure', () => {
  const body = {
    OrderInvoluntaryAcceptRS: {
      Document: { Name: 'airorder', ReferenceVersion: '1.0' },
      Party: PARTY,
      ShoppingResponseId: 'req-1',
      Result: [
        {
          OrderID: 'ORD-1001',
          GdsBookingReference: ['ABC123'],
          ErrorMsg: 'NO_PENDING_CHANGE: Booking ABC123 has no airline-initiated change awaiting action.',
          Status: 'FAILURE',
        },
        {
          OrderID: 'ORD-1001',
          GdsBookingReference: ['DEF456'],
          ErrorMsg: 'BOOKING_CANCELED: Booking DEF456 is cancelled.',
          Status: 'FAILED',
        },
        { OrderID: 'ORD-1001', GdsBookingReference: ['GHI789'], ErrorMsg: '', Status: 'SUCCESS' },
      ],
      Errors: [
        { Code: 'NO_PENDING_CHANGE', Message: 'Booking ABC123 has no airline-initiated change awaiting action.' },
      ],
    },
  };
  const result = readInvoluntaryAcceptResult(body, CONTEXT, OPERATIONS.involuntaryAccept);
  assert.deepEqual(
    result.items.map((item) => [item.status, item.failure]),
    [
      [
        'FAILED',
        { code: 'NO_PENDING_CHANGE', message: 'Booking ABC123 has no airline-initiated change awaiting action.' },
      ],
      ['FAILED', { code: 'BOOKING_CANCELED', message: 'Booking DEF456 is cancelled.' }],
      ['SUCCESS', undefined],
    ],
  );
  assert.equal(result.success, false);
});

test('failure texts without a code, and statuses the contract does not name, are failures too', () => {
  assert.deepEqual(parseFailureText('BOOKING_NOT_FOUND: Booking NOPE12 is not part of order ORD-1001.'), {
    code: 'BOOKING_NOT_FOUND',
    message: 'Booking NOPE12 is not part of order ORD-1001.',
  });
  assert.deepEqual(parseFailureText('something went wrong'), { code: 'UNKNOWN', message: 'something went wrong' });
  assert.deepEqual(parseFailureText(''), { code: 'UNKNOWN', message: '' });
  const body = {
    OrderInvoluntaryAcceptRS: {
      Document: { Name: 'airorder', ReferenceVersion: '1.0' },
      Party: PARTY,
      ShoppingResponseId: 'req-1',
      Result: [{ OrderID: 'O', GdsBookingReference: ['ABC123'], ErrorMsg: '', Status: 'PENDING' }],
      Success: {},
    },
  };
  const result = readInvoluntaryAcceptResult(body, CONTEXT, OPERATIONS.involuntaryAccept);
  assert.equal(result.items[0]!.status, 'FAILED', 'never claims a success the service did not state');
  assert.equal(result.success, false);
});

test('a response that breaks the contract is AirOrderInvalidResponseError, with the request id and key', () => {
  const item = {
    OrderID: 'ORD-1',
    GdsBookingReference: ['ABC123'],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: 570.5,
    RefundText: 'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:570.50',
    RefundPaxWiseFare: [{ TicketNumber: '2201234567890', Amount: 570.5 }],
  };
  const envelope = (items: object[]) => ({
    OrderInvoluntaryCancelRS: {
      Document: { Name: 'airorder', ReferenceVersion: '1.0' },
      Party: PARTY,
      ShoppingResponseId: 'req-1',
      Result: items,
      Success: {},
    },
  });
  const read = (body: unknown, currency?: string) =>
    readInvoluntaryCancelResult(body, CONTEXT, OPERATIONS.involuntaryCancel, currency);
  assert.equal(read(envelope([item]), 'EUR').items[0]!.refund.amountMinor, 57050);

  const broken: [string, unknown][] = [
    ['another root key', { OrderViewRS: {} }],
    [
      'amounts disagree',
      envelope([{ ...item, RefundPaxWiseFare: [{ TicketNumber: '2201234567890', Amount: 570.49 }] }]),
    ],
    [
      'tickets disagree',
      envelope([{ ...item, RefundPaxWiseFare: [{ TicketNumber: '2201234567891', Amount: 570.5 }] }]),
    ],
    ['total is not the sum', envelope([{ ...item, RefundAmount: 570.51 }])],
    ['unreadable text', envelope([{ ...item, RefundText: 'garbage' }])],
    ['amount not a number', envelope([{ ...item, RefundAmount: '570.50' }])],
  ];
  for (const [what, body] of broken) {
    assert.throws(
      () => read(body, 'EUR'),
      (error: unknown) => {
        assert.ok(error instanceof AirOrderInvalidResponseError, what);
        assert.equal(error.requestId, 'req-1');
        assert.equal(error.idempotencyKey, 'key-1');
        return true;
      },
      what,
    );
  }
});

test('RefundText: one entry per ticket; keys this client does not know are skipped', () => {
  assert.deepEqual(parseRefundText(''), []);
  assert.deepEqual(
    parseRefundText(
      'TicketNumber:1 QuoteType:FULL RefundAmount:1.00 TicketNumber:2 Penalty:0.00 QuoteType:PARTIAL RefundAmount:2.50',
    ),
    [
      { ticketNumber: '1', quoteType: 'FULL', amountText: '1.00' },
      { ticketNumber: '2', quoteType: 'PARTIAL', amountText: '2.50' },
    ],
  );
  assert.equal(parseRefundText('QuoteType:FULL RefundAmount:1.00'), null);
  assert.equal(parseRefundText('TicketNumber:1 QuoteType:FULL'), null);
});

test("money: decimal text to minor units and back, by string only; the decimals must be the currency's", () => {
  assert.equal(decimalToMinor('570.50', 2), 57050);
  assert.equal(decimalToMinor('0.10', 2), 10);
  assert.equal(decimalToMinor('12345', 0), 12345);
  assert.equal(decimalToMinor('160.627', 3), 160627);
  assert.equal(decimalToMinor('0.00', 2), 0);
  assert.equal(decimalToMinor('90071992547409.91', 2), 9007199254740991);
  assert.throws(() => decimalToMinor('90071992547409.92', 2), RangeError);
  assert.throws(() => decimalToMinor('570.5', 2), /has 1 decimals, the currency has 2/);
  assert.throws(() => decimalToMinor('570.500', 2), RangeError);
  assert.throws(() => decimalToMinor('1e3', 0), RangeError);
  assert.equal(minorToDecimal(57050, 2), '570.50');
  assert.equal(minorToDecimal(5, 3), '0.005');
  assert.equal(minorToDecimal(12345, 0), '12345');
});

test('409 IDEMPOTENCY_KEY_IN_USE is retried, 422 IDEMPOTENCY_KEY_REUSED and 500 are not', () => {
  const envelope = (code: string, message: string) =>
    JSON.stringify({
      OrderViewRS: {
        Document: { Name: 'airorder', ReferenceVersion: '1.0' },
        Party: PARTY,
        ShoppingResponseId: 'req-9',
        Response: [
          {
            Status: 'FAILED',
            Msg: `${code}: ${message}`,
            BookingStatus: '',
            OrderID: 'O',
            GdsBookingReference: 'ABC123',
          },
        ],
        Errors: [{ Code: code, Message: message }],
      },
    });
  const inUse = errorFromResponse(
    {
      status: 409,
      headers: new Headers({ 'retry-after': '1', 'x-request-id': 'req-9' }),
      text: envelope('IDEMPOTENCY_KEY_IN_USE', 'busy'),
    },
    'k',
  );
  assert.ok(inUse instanceof AirOrderIdempotencyError);
  assert.equal(inUse.code, 'IDEMPOTENCY_KEY_IN_USE');
  assert.equal(inUse.retryAfter, 1);
  assert.equal(inUse.requestId, 'req-9');
  assert.equal(isRetryable(inUse), true);
  const reused = errorFromResponse(
    { status: 422, headers: new Headers(), text: envelope('IDEMPOTENCY_KEY_REUSED', 'other body') },
    'k',
  );
  assert.equal(reused.requestId, 'req-9', 'from ShoppingResponseId when the header is missing');
  assert.equal(isRetryable(reused), false);
  assert.equal(
    isRetryable(
      errorFromResponse({ status: 500, headers: new Headers(), text: envelope('INTERNAL_ERROR', 'bug') }, 'k'),
    ),
    false,
  );

  const stalled = errorFromResponse(
    {
      status: 408,
      headers: new Headers({ 'x-request-id': 'req-8' }),
      text: JSON.stringify({
        Errors: [{ Code: 'REQUEST_TIMEOUT', Message: 'The request was not received in full in time.' }],
      }),
    },
    'k',
  );
  assert.ok(stalled instanceof AirOrderConnectionError, '408: the request never arrived whole');
  assert.equal(stalled.code, 'REQUEST_TIMEOUT');
  assert.equal(isRetryable(stalled), true);

  const gateway = errorFromResponse(
    { status: 503, headers: new Headers({ 'retry-after': '2' }), text: '<html>Service Unavailable</html>' },
    'k',
  );
  assert.ok(gateway instanceof AirOrderUnavailableError, 'a proxy 503 without the catalogue body');
  assert.equal(gateway.code, 'HTTP_ERROR');
  assert.equal(isRetryable(gateway), true);
});

test('Retry-After: seconds or an HTTP date', () => {
  assert.equal(parseRetryAfter('3'), 3);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('soon'), undefined);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5);
  assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now), 0);
});

test('backoff: exponential, capped, jittered, and never shorter than Retry-After', () => {
  const settings = { initialRetryDelayMs: 500, maxRetryDelayMs: 8000 };
  assert.equal(
    retryDelayMs(1, undefined, settings, () => 0),
    250,
  );
  assert.equal(
    retryDelayMs(1, undefined, settings, () => 1),
    500,
  );
  assert.equal(
    retryDelayMs(3, undefined, settings, () => 1),
    2000,
  );
  assert.equal(
    retryDelayMs(10, undefined, settings, () => 1),
    8000,
  );
  assert.equal(
    retryDelayMs(10, undefined, settings, () => 0),
    4000,
  );
  assert.equal(
    retryDelayMs(1, 2, settings, () => 0),
    2000,
  );
  assert.ok(retryDelayMs(1, 2, settings, () => 1) <= 2250);
});

test("VERSION is package.json's version", () => {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
    name: string;
    dependencies?: object;
  };
  assert.equal(VERSION, pkg.version);
  assert.equal(pkg.name, '@airorder/client');
  assert.equal(pkg.dependencies, undefined, 'no runtime dependencies');
});
