/**
 * AirOrderRefundQuote and AirOrderRefund through HTTP, on the store the runner picks: the amounts the
 * fare rules give, in EUR, JPY and KWD; voids and their window; one passenger at a time; the quote's
 * expiry and binding to the booking; retries, races and tenancy (issue 20, "Done when").
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { auditTrail } from '../../src/store/repositories/audit-repository.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { bookingState, changeStatuses, couponsOf, refundRows } from '../helpers/booking-state.js';
import { bearer, booking, cancelRQ, change, order, passenger, segment, type TicketDoc } from '../helpers/documents.js';
import { settledFeed } from '../helpers/settled-feed.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const START = Date.parse('2026-11-21T09:00:00.000Z');
const HOUR = 3_600_000;
let now = START;
let service: TestService;
let token: string;
let otherToken: string;

before(async () => {
  service = await startTestService({ clock: () => new Date(now).toISOString() });
  token = await service.tokenFor('AG1');
  otherToken = await service.tokenFor('AG2');
});
after(() => service.close());

/** Issued ten days before the tests' start: out of the void window unless a test says otherwise. */
const ISSUED_LONG_AGO = new Date(START - 240 * HOUR).toISOString();

function ticket(ticketNumber: string, baseFare: string, taxes: string, extra: Partial<TicketDoc> = {}): TicketDoc {
  return { ticketNumber, baseFare, taxes, coupons: [{ segmentId: 'S1' }], issuedAt: ISSUED_LONG_AGO, ...extra };
}

async function importOne(
  orderId: string,
  currency: string,
  tickets: (TicketDoc | null)[],
  reference = 'ABC123',
  agencyId = 'AG1',
) {
  await service.importOrders([
    order(orderId, agencyId, currency, [
      booking(
        reference,
        [segment('S1')],
        tickets.map((t, index) => passenger(`P${index + 1}`, t)),
      ),
    ]),
  ]);
}

async function quote(
  orderId: string,
  references: string[],
  passengerIds?: string[],
  headers: Record<string, string> = {},
  as = token,
) {
  const query = {
    OrderID: orderId,
    GdsBookingReference: references,
    ...(passengerIds ? { PassengerID: passengerIds } : {}),
  };
  const response = await service.post(
    '/AirOrderRefundQuote',
    { OrderRefundQuoteRQ: { Query: query } },
    { ...bearer(as), ...headers },
  );
  return {
    status: response.status,
    rs: response.body.OrderRefundQuoteRS,
    headers: response.headers,
    text: response.text,
  };
}

async function refund(
  orderId: string,
  references: string[],
  quoteId: string,
  headers: Record<string, string> = {},
  as = token,
) {
  const response = await service.post(
    '/AirOrderRefund',
    { OrderRefundRQ: { Query: { OrderID: orderId, GdsBookingReference: references, QuoteID: quoteId } } },
    { ...bearer(as), ...headers },
  );
  return { status: response.status, rs: response.body.OrderRefundRS, headers: response.headers, text: response.text };
}

/** Quotes one booking and returns its item, which must succeed. */
async function quoted(orderId: string, reference = 'ABC123', passengerIds?: string[]) {
  const { status, rs, text } = await quote(orderId, [reference], passengerIds);
  assert.equal(status, 200, text);
  const [item] = rs.Result;
  assert.equal(item.Status, 'SUCCESS', text);
  return item;
}

function assertFailed(item: any, code: string) {
  assert.equal(item.Status, 'FAILED');
  assert.match(item.ErrorMsg, new RegExp(`^${code}: \\S`));
  assert.deepEqual(
    [item.RefundAmount, item.RefundText, item.RefundPaxWiseFare, item.QuoteID, item.ExpiresAt],
    [0, '', [], '', ''],
  );
}

/**
 * A one-booking answer that failed with this code and text, as an agency reads it (docs/errors.md,
 * "Item level"): the text after the code in the item's ErrorMsg, and the two in the response's Errors.
 */
function assertRefused(rs: any, code: string, message: string) {
  assertFailed(rs.Result[0], code);
  assert.equal(rs.Result[0].ErrorMsg, `${code}: ${message}`);
  assert.deepEqual(rs.Errors, [{ Code: code, Message: message }]);
}

/** The item without its quote id, which differs between a quote and another. */
function amountsOf(item: any) {
  const rest = { ...item };
  delete rest.QuoteID;
  delete rest.ExpiresAt;
  return rest;
}

test('EUR, refundable with a fixed penalty: the quote, then the refund that does exactly what it said', async () => {
  await importOne('VR-EUR', 'EUR', [
    ticket('2201234567890', '450.00', '120.50', {
      taxBreakdown: [
        { code: 'DE', amount: '40.50' },
        { code: 'YQ', amount: '80.00' },
      ],
      fareRules: { refundable: true, penalty: '100.00' },
    }),
  ]);
  const item = await quoted('VR-EUR');
  assert.match(item.QuoteID, /^rfq_[0-9a-f]{24}$/);
  assert.equal(item.ExpiresAt, new Date(START + 15 * 60_000).toISOString());
  assert.deepEqual(amountsOf(item), {
    OrderID: 'VR-EUR',
    GdsBookingReference: ['ABC123'],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: 470.5,
    RefundText: 'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:470.50',
    RefundPaxWiseFare: [
      {
        TicketNumber: '2201234567890',
        Amount: 470.5,
        Fare: 450,
        Taxes: 120.5,
        Penalty: 100,
        TaxBreakdown: [
          { TaxCode: 'DE', Amount: 40.5, Refundable: true },
          { TaxCode: 'YQ', Amount: 80, Refundable: true },
        ],
      },
    ],
  });
  // The quote changes no booking.
  assert.deepEqual(couponsOf(await bookingState(service, 'VR-EUR', 'ABC123')), [[['S1', 'OPEN', 57050]]]);
  assert.deepEqual(await refundRows(service, 'VR-EUR'), []);

  now += 60_000;
  const { status, rs, text } = await refund('VR-EUR', ['ABC123'], item.QuoteID);
  assert.equal(status, 200, text);
  assert.deepEqual(rs.Result, [item], 'the refund answers the quote, field for field');
  assert.deepEqual(rs.Success, {});
  const state = await bookingState(service, 'VR-EUR', 'ABC123');
  assert.deepEqual([state.status, state.cancellation], ['CANCELED', 'VOLUNTARY']);
  assert.deepEqual(couponsOf(state), [[['S1', 'REFUNDED', 57050]]]);
  assert.deepEqual(await refundRows(service, 'VR-EUR'), [
    {
      reference: 'ABC123',
      ticket_number: '2201234567890',
      position: 0,
      amount_minor: 47050,
      currency: 'EUR',
      quote_type: 'FULL',
    },
  ]);

  const trail = (await auditTrail(service.store.db, 'VR-EUR')).filter((entry) => entry.event !== 'ORDER_IMPORTED');
  assert.deepEqual(
    trail.map((entry) => entry.event),
    ['REFUND_QUOTED', 'BOOKING_STATUS', 'REFUND_CONFIRMED', 'TICKET_REFUNDED'],
  );
  assert.deepEqual(trail[0]!.detail, {
    quoteId: item.QuoteID,
    passengerIds: ['P1'],
    amountMinor: 47050,
    currency: 'EUR',
    expiresAt: item.ExpiresAt,
    tickets: [{ ticketNumber: '2201234567890', quoteType: 'FULL', amountMinor: 47050 }],
  });
  assert.deepEqual(
    trail.map((entry) => entry.operation),
    ['AirOrderRefundQuote', 'AirOrderRefund', 'AirOrderRefund', 'AirOrderRefund'],
  );
  assert.deepEqual(trail[1]!.detail, { from: 'CONFIRMED', to: 'CANCELED', cancellation: 'VOLUNTARY' });
  assert.deepEqual(trail[2]!.detail, { quoteId: item.QuoteID, passengerIds: ['P1'] });
  assert.deepEqual(trail[3]!.detail, {
    ticketNumber: '2201234567890',
    amountMinor: 47050,
    currency: 'EUR',
    quoteType: 'FULL',
    quoteId: item.QuoteID,
    fareMinor: 45000,
    taxesMinor: 12050,
    penaltyMinor: 10000,
  });

  const events = (await settledFeed(service, token, 'AG1')).filter((event) => event.Data.OrderID === 'VR-EUR');
  assert.deepEqual(
    events.map((event) => event.Type),
    ['booking.canceled', 'booking.refunded'],
  );
  assert.equal(events[0]!.Data.RefundAmount, 470.5);
  assert.deepEqual(events[1]!.Data.Tickets, [
    {
      TicketNumber: '2201234567890',
      Amount: 470.5,
      QuoteType: 'FULL',
      Fare: 450,
      Taxes: 120.5,
      Penalty: 100,
      QuoteID: item.QuoteID,
    },
  ]);
});

test('percentage penalties in integers, rounded half up: 33.33 at 12.5 % and 102.50 at 35 %, which floating point gets wrong', async () => {
  await importOne('VR-PCT', 'EUR', [
    ticket('2201234567891', '33.33', '10.00', { fareRules: { refundable: true, penaltyPercent: '12.5' } }),
    ticket('2201234567892', '102.50', '10.00', { fareRules: { refundable: true, penaltyPercent: 35 } }),
  ]);
  const item = await quoted('VR-PCT');
  assert.deepEqual(
    item.RefundPaxWiseFare.map((fare: any) => [fare.Penalty, fare.Amount]),
    [
      [4.17, 39.16],
      [35.88, 76.62],
    ],
  );
  assert.equal(item.RefundAmount, 115.78);
  assert.equal(
    item.RefundText,
    'TicketNumber:2201234567891 QuoteType:FULL RefundAmount:39.16 TicketNumber:2201234567892 QuoteType:FULL RefundAmount:76.62',
  );
  const done = await refund('VR-PCT', ['ABC123'], item.QuoteID);
  assert.equal(done.rs.Result[0].RefundAmount, 115.78);
  assert.deepEqual(
    (await refundRows(service, 'VR-PCT')).map((row) => row.amount_minor),
    [3916, 7662],
  );
});

test('JPY (no decimals) and KWD (three): exact amounts on the wire and in the store', async () => {
  await importOne('VR-JPY', 'JPY', [
    ticket('1311234567890', '12345', '2000', { fareRules: { refundable: true, penaltyPercent: '12.5' } }),
  ]);
  const jpy = await quoted('VR-JPY');
  assert.deepEqual(jpy.RefundPaxWiseFare[0], {
    TicketNumber: '1311234567890',
    Amount: 12802,
    Fare: 12345,
    Taxes: 2000,
    Penalty: 1543,
    TaxBreakdown: [],
  });
  assert.equal(jpy.RefundText, 'TicketNumber:1311234567890 QuoteType:FULL RefundAmount:12802');
  await refund('VR-JPY', ['ABC123'], jpy.QuoteID);
  assert.deepEqual(
    (await refundRows(service, 'VR-JPY')).map((row) => [row.amount_minor, row.currency]),
    [[12802, 'JPY']],
  );

  await importOne('VR-KWD', 'KWD', [
    ticket('2291234567890', '145.500', '22.125', { fareRules: { refundable: true, penaltyPercent: '12.5' } }),
  ]);
  const kwd = await quoted('VR-KWD');
  assert.deepEqual([kwd.RefundPaxWiseFare[0].Penalty, kwd.RefundAmount], [18.188, 149.437]);
  assert.equal(kwd.RefundText, 'TicketNumber:2291234567890 QuoteType:FULL RefundAmount:149.437');
  const { text } = await refund('VR-KWD', ['ABC123'], kwd.QuoteID);
  assert.match(text, /"RefundAmount":149\.437[,}]/);
  assert.deepEqual(
    (await refundRows(service, 'VR-KWD')).map((row) => row.amount_minor),
    [149437],
  );
});

test('a non-refundable fare gives back the government taxes, not YQ, nor a tax flagged not refundable', async () => {
  await importOne('VR-NR', 'EUR', [
    ticket('2201234567893', '300.00', '147.50', {
      taxBreakdown: [
        { code: 'DE', amount: '30.00' },
        { code: 'US', amount: '12.50' },
        { code: 'YQ', amount: '80.00' },
        { code: 'OY', amount: '25.00', refundable: false },
      ],
      fareRules: { refundable: false, penalty: '50.00' },
    }),
  ]);
  const item = await quoted('VR-NR');
  assert.deepEqual(item.RefundPaxWiseFare, [
    {
      TicketNumber: '2201234567893',
      Amount: 42.5,
      Fare: 0,
      Taxes: 42.5,
      Penalty: 0,
      TaxBreakdown: [
        { TaxCode: 'DE', Amount: 30, Refundable: true },
        { TaxCode: 'US', Amount: 12.5, Refundable: true },
        { TaxCode: 'YQ', Amount: 80, Refundable: false },
        { TaxCode: 'OY', Amount: 25, Refundable: false },
      ],
    },
  ]);
});

test('a penalty larger than the fare takes the whole fare and no tax', async () => {
  await importOne('VR-BIG', 'EUR', [
    ticket('2201234567894', '50.00', '20.00', { fareRules: { refundable: true, penalty: '80.00' } }),
  ]);
  const item = await quoted('VR-BIG');
  assert.deepEqual(
    [item.RefundPaxWiseFare[0].Fare, item.RefundPaxWiseFare[0].Penalty, item.RefundAmount],
    [50, 50, 20],
  );
});

test('a void inside the window gives everything back and voids the coupons; the same ticket one minute outside is refunded by its rules', async () => {
  const issuedAt = new Date(now - 23 * HOUR).toISOString();
  const windowEnd = Date.parse(issuedAt) + 24 * HOUR;
  const doc = ticket('2201234567895', '450.00', '120.50', {
    issuedAt,
    fareRules: { refundable: true, penalty: '100.00' },
  });
  await importOne('VR-VOID', 'EUR', [doc]);
  await importOne('VR-LATE', 'EUR', [{ ...doc, ticketNumber: '2201234567896' }]);

  const inside = await quoted('VR-VOID');
  assert.equal(inside.RefundText, 'TicketNumber:2201234567895 QuoteType:VOID RefundAmount:570.50');
  assert.deepEqual(
    [inside.RefundPaxWiseFare[0].Fare, inside.RefundPaxWiseFare[0].Taxes, inside.RefundPaxWiseFare[0].Penalty],
    [450, 120.5, 0],
  );
  assert.equal(inside.ExpiresAt, new Date(now + 15 * 60_000).toISOString());
  const voided = await refund('VR-VOID', ['ABC123'], inside.QuoteID);
  assert.equal(voided.rs.Result[0].RefundAmount, 570.5);
  assert.deepEqual(couponsOf(await bookingState(service, 'VR-VOID', 'ABC123')), [[['S1', 'VOIDED', 57050]]]);
  assert.deepEqual(
    (await refundRows(service, 'VR-VOID')).map((row) => row.quote_type),
    ['VOID'],
  );

  // Five minutes before the window ends, the quote ends with the window: no void after it.
  now = windowEnd - 5 * 60_000;
  const last = await quoted('VR-LATE');
  assert.equal(last.ExpiresAt, new Date(windowEnd).toISOString());
  now = windowEnd + 60_000;
  assertFailed((await refund('VR-LATE', ['ABC123'], last.QuoteID)).rs.Result[0], 'QUOTE_EXPIRED');
  assert.deepEqual(couponsOf(await bookingState(service, 'VR-LATE', 'ABC123')), [[['S1', 'OPEN', 57050]]]);
  const outside = await quoted('VR-LATE');
  assert.equal(outside.RefundText, 'TicketNumber:2201234567896 QuoteType:FULL RefundAmount:470.50');
  now = START;
});

test('a ticket issued after the import is refused; one the clock has not reached yet (stored by a clock ahead) is refunded by its rules, never voided', async () => {
  const future = ticket('2201234567897', '100.00', '20.00', {
    issuedAt: '2099-01-01T00:00:00Z',
    fareRules: { refundable: false },
  });
  await assert.rejects(importOne('VR-FUTURE', 'EUR', [future]), /ticket\.issuedAt is later than the import/);
  assertFailed((await quote('VR-FUTURE', ['ABC123'])).rs.Result[0], 'ORDER_NOT_FOUND');

  // An order stored while the clock was ahead: at our time its ticket is not issued yet.
  now = Date.parse('2099-01-01T00:00:00Z');
  await importOne('VR-AHEAD', 'EUR', [{ ...future, ticketNumber: '2201234567898' }]);
  now = START;
  const ahead = await quoted('VR-AHEAD');
  assert.equal(ahead.RefundText, 'TicketNumber:2201234567898 QuoteType:FULL RefundAmount:20.00');
  // Within the clocks' five minutes it is issued, and in its void window.
  await importOne('VR-SKEW', 'EUR', [
    { ...future, ticketNumber: '2201234567899', issuedAt: new Date(now + 4 * 60_000).toISOString() },
  ]);
  assert.equal((await quoted('VR-SKEW')).RefundText, 'TicketNumber:2201234567899 QuoteType:VOID RefundAmount:120.00');
});

test('one passenger of three, then the other two: the booking is CANCELED only then', async () => {
  const rules = { fareRules: { refundable: true, penalty: '10.00' } };
  await importOne('VR-PAX', 'EUR', [
    ticket('2201234567901', '100.00', '20.00', rules),
    ticket('2201234567902', '100.00', '20.00', rules),
    ticket('2201234567903', '50.00', '10.00', rules),
  ]);
  const second = await quoted('VR-PAX', 'ABC123', ['P2']);
  assert.deepEqual(
    second.RefundPaxWiseFare.map((fare: any) => fare.TicketNumber),
    ['2201234567902'],
  );
  await refund('VR-PAX', ['ABC123'], second.QuoteID);
  let state = await bookingState(service, 'VR-PAX', 'ABC123');
  assert.equal(state.status, 'CONFIRMED');
  assert.deepEqual(
    couponsOf(state).map((coupons) => coupons[0]![1]),
    ['OPEN', 'REFUNDED', 'OPEN'],
  );
  const left = (await quote('VR-PAX', ['ABC123'], ['P2'])).rs;
  assertRefused(left, 'ALREADY_REFUNDED', 'Passenger P2 left booking ABC123 with a refund already.');
  const unknown = (await quote('VR-PAX', ['ABC123'], ['P9'])).rs;
  assertRefused(unknown, 'PASSENGER_NOT_FOUND', 'Passenger P9 is not part of booking ABC123.');
  // Only the passengers the booking lacks are named, in the order asked.
  const unknowns = (await quote('VR-PAX', ['ABC123'], ['P9', 'P1', 'P8'])).rs;
  assertRefused(unknowns, 'PASSENGER_NOT_FOUND', 'Passenger P9, P8 are not part of booking ABC123.');

  const rest = await quoted('VR-PAX');
  assert.deepEqual(
    rest.RefundPaxWiseFare.map((fare: any) => [fare.TicketNumber, fare.Amount]),
    [
      ['2201234567901', 110],
      ['2201234567903', 50],
    ],
  );
  await refund('VR-PAX', ['ABC123'], rest.QuoteID);
  state = await bookingState(service, 'VR-PAX', 'ABC123');
  assert.deepEqual([state.status, state.cancellation], ['CANCELED', 'VOLUNTARY']);
  assert.deepEqual(
    (await refundRows(service, 'VR-PAX')).map((row) => [row.ticket_number, row.amount_minor]),
    [
      ['2201234567902', 11000],
      ['2201234567901', 11000],
      ['2201234567903', 5000],
    ],
  );
  const everyone = (await quote('VR-PAX', ['ABC123'])).rs;
  assertRefused(everyone, 'ALREADY_REFUNDED', 'Every passenger of booking ABC123 left it with a refund already.');
  // Each confirmation names who left by it, and the tickets it refunded: none refunded before.
  const trail = await auditTrail(service.store.db, 'VR-PAX');
  assert.deepEqual(
    trail.filter((entry) => entry.event === 'TICKET_REFUNDED').map((entry) => entry.detail.ticketNumber),
    ['2201234567902', '2201234567901', '2201234567903'],
  );
  const confirmed = trail.filter((entry) => entry.event === 'REFUND_CONFIRMED');
  assert.deepEqual(
    confirmed.map((entry) => entry.detail),
    [
      { quoteId: second.QuoteID, passengerIds: ['P2'] },
      { quoteId: rest.QuoteID, passengerIds: ['P1', 'P3'] },
    ],
  );
});

test('expiry: QUOTE_EXPIRED and nothing changes; a confirmed quote answers its refund again after its expiry', async () => {
  const rules = { fareRules: { refundable: true, penalty: '10.00' } };
  await importOne('VR-EXP', 'EUR', [ticket('2201234567911', '100.00', '20.00', rules)]);
  await importOne('VR-AGAIN', 'EUR', [ticket('2201234567912', '100.00', '20.00', rules)]);
  const stale = await quoted('VR-EXP');
  const confirmed = await quoted('VR-AGAIN');
  const first = await refund('VR-AGAIN', ['ABC123'], confirmed.QuoteID);
  now += 15 * 60_000;
  assertFailed((await refund('VR-EXP', ['ABC123'], stale.QuoteID)).rs.Result[0], 'QUOTE_EXPIRED');
  assert.deepEqual(await refundRows(service, 'VR-EXP'), []);
  assert.equal((await bookingState(service, 'VR-EXP', 'ABC123')).status, 'CONFIRMED');
  const again = await refund('VR-AGAIN', ['ABC123'], confirmed.QuoteID);
  assert.deepEqual(again.rs.Result, first.rs.Result);
  assert.equal((await refundRows(service, 'VR-AGAIN')).length, 1);
  now = START;
});

test('an airline change between quote and confirmation: QUOTE_OUTDATED, nothing refunded; a new quote then works', async () => {
  await importOne('VR-OUT', 'EUR', [ticket('2201234567921', '100.00', '20.00', { fareRules: { refundable: true } })]);
  const item = await quoted('VR-OUT');
  await service.importChanges([change('VR-OUT-1', 'VR-OUT', 'ABC123', ['S1'], [segment('S1B', 2)])]);
  assertFailed((await refund('VR-OUT', ['ABC123'], item.QuoteID)).rs.Result[0], 'QUOTE_OUTDATED');
  assert.deepEqual(await refundRows(service, 'VR-OUT'), []);
  const fresh = await quoted('VR-OUT');
  assert.equal((await refund('VR-OUT', ['ABC123'], fresh.QuoteID)).rs.Result[0].Status, 'SUCCESS');
  assert.deepEqual(
    await changeStatuses(service, 'VR-OUT', 'ABC123'),
    { 'VR-OUT-1': 'CLOSED' },
    'the booking ended, its pending change closed',
  );
});

test('ten concurrent confirmations of one quote make one refund, and all ten answer it', async () => {
  await importOne('VR-RACE', 'EUR', [
    ticket('2201234567931', '100.00', '20.00', { fareRules: { refundable: true, penalty: '5.00' } }),
  ]);
  const item = await quoted('VR-RACE');
  const answers = await Promise.all(Array.from({ length: 10 }, () => refund('VR-RACE', ['ABC123'], item.QuoteID)));
  for (const answer of answers) assert.deepEqual(answer.rs.Result, [item], answer.text);
  assert.deepEqual(
    (await refundRows(service, 'VR-RACE')).map((row) => row.amount_minor),
    [11500],
  );
  const events = await settledFeed(service, token, 'AG1');
  assert.equal(
    events.filter((event) => event.Type === 'booking.refunded' && event.Data.OrderID === 'VR-RACE').length,
    1,
  );
});

test('a retry with the same Idempotency-Key answers the first response again, for the quote and the refund', async () => {
  await importOne('VR-IDEM', 'EUR', [ticket('2201234567941', '100.00', '20.00', { fareRules: { refundable: true } })]);
  const first = await quote('VR-IDEM', ['ABC123'], undefined, { 'idempotency-key': 'quote-1' });
  const replay = await quote('VR-IDEM', ['ABC123'], undefined, { 'idempotency-key': 'quote-1' });
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(replay.text, first.text, 'the same quote, not a second one');
  const quoteId = first.rs.Result[0].QuoteID;
  const done = await refund('VR-IDEM', ['ABC123'], quoteId, { 'idempotency-key': 'refund-1' });
  const again = await refund('VR-IDEM', ['ABC123'], quoteId, { 'idempotency-key': 'refund-1' });
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.text, done.text);
  assert.equal((await refundRows(service, 'VR-IDEM')).length, 1);
  const reused = await refund('VR-IDEM', ['ABC123'], 'rfq_000000000000000000000000', { 'idempotency-key': 'refund-1' });
  assert.equal(reused.status, 422);
});

test("another agency's quote is QUOTE_NOT_FOUND, as is an unknown one; another agency's order is ORDER_NOT_FOUND", async () => {
  const rules = { fareRules: { refundable: true } };
  await importOne('VR-MINE', 'EUR', [ticket('2201234567951', '100.00', '20.00', rules)]);
  await importOne('VR-THEIRS', 'EUR', [ticket('2201234567952', '100.00', '20.00', rules)], 'ABC123', 'AG2');
  const mine = await quoted('VR-MINE');
  const theirs = (await quote('VR-THEIRS', ['ABC123'], undefined, {}, otherToken)).rs.Result[0];
  assertFailed((await refund('VR-MINE', ['ABC123'], theirs.QuoteID)).rs.Result[0], 'QUOTE_NOT_FOUND');
  assertFailed((await refund('VR-THEIRS', ['ABC123'], mine.QuoteID, {}, otherToken)).rs.Result[0], 'QUOTE_NOT_FOUND');
  assertFailed((await refund('VR-MINE', ['ABC123'], 'rfq_0123456789abcdef01234567')).rs.Result[0], 'QUOTE_NOT_FOUND');
  assert.equal((await refund('VR-THEIRS', ['ABC123'], theirs.QuoteID)).status, 404);
  assert.equal((await quote('VR-THEIRS', ['ABC123'])).status, 404);
  assert.deepEqual(await refundRows(service, 'VR-MINE'), []);
  assert.deepEqual(await refundRows(service, 'VR-THEIRS'), []);
  const malformed = await refund('VR-MINE', ['ABC123'], 'not-a-quote');
  assert.equal(malformed.status, 400);
  assert.match(malformed.rs.Errors[0].Message, /OrderRefundRQ\.Query\.QuoteID/);
});

test('a booking cancelled first by AirOrderCancel is quoted and refunded after', async () => {
  await importOne('VR-CXL', 'EUR', [
    ticket('2201234567961', '200.00', '30.00', { fareRules: { refundable: true, penaltyPercent: '10' } }),
  ]);
  const cancelled = await service.post('/AirOrderCancel', cancelRQ('VR-CXL', ['ABC123']), bearer(token));
  assert.equal(cancelled.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED');
  const item = await quoted('VR-CXL');
  assert.equal(item.RefundAmount, 210);
  assert.equal((await refund('VR-CXL', ['ABC123'], item.QuoteID)).rs.Result[0].Status, 'SUCCESS');
  const state = await bookingState(service, 'VR-CXL', 'ABC123');
  assert.deepEqual([state.status, couponsOf(state)], ['CANCELED', [[['S1', 'REFUNDED', 23000]]]]);
});

test('tickets the rules do not refund here: NO_FARE_RULES, PARTLY_FLOWN, ALREADY_REFUNDED after an involuntary cancel', async () => {
  await importOne('VR-NORULES', 'EUR', [ticket('2201234567971', '100.00', '20.00')]);
  assertFailed((await quote('VR-NORULES', ['ABC123'])).rs.Result[0], 'NO_FARE_RULES');
  await service.importOrders([
    order('VR-FLOWN', 'AG1', 'EUR', [
      booking(
        'ABC123',
        [segment('S1'), segment('S2', 2)],
        [
          passenger('P1', {
            ticketNumber: '2201234567972',
            baseFare: '100.00',
            taxes: '20.00',
            issuedAt: ISSUED_LONG_AGO,
            fareRules: { refundable: true },
            coupons: [{ segmentId: 'S1', status: 'USED' }, { segmentId: 'S2' }],
          }),
        ],
      ),
    ]),
  ]);
  const { rs } = await quote('VR-FLOWN', ['ABC123', 'NOPE12']);
  assertFailed(rs.Result[0], 'PARTLY_FLOWN');
  assertFailed(rs.Result[1], 'BOOKING_NOT_FOUND');
  assert.deepEqual(
    rs.Errors.map((error: any) => error.Code),
    ['PARTLY_FLOWN', 'BOOKING_NOT_FOUND'],
  );
  await importOne('VR-INV', 'EUR', [ticket('2201234567973', '100.00', '20.00', { fareRules: { refundable: true } })]);
  await service.importChanges([change('VR-INV-1', 'VR-INV', 'ABC123', ['S1'], [], 'FLIGHT_CANCELLATION')]);
  await service.post(
    '/AirOrderInvoluntaryCancel',
    { OrderInvoluntaryCancelRQ: { Query: { OrderID: 'VR-INV', GdsBookingReference: ['ABC123'] } } },
    bearer(token),
  );
  // The passenger did not leave with a voluntary refund: the ticket is what was refunded.
  assertRefused(
    (await quote('VR-INV', ['ABC123'])).rs,
    'ALREADY_REFUNDED',
    'Ticket 2201234567973 has no OPEN coupon left: it was refunded or voided already.',
  );
});

test("AirOrderRetrieve shows voided coupons, the passengers who left and each refund's breakdown", async () => {
  const issuedAt = new Date(now - HOUR).toISOString();
  await importOne('VR-SHOW', 'EUR', [
    ticket('2201234567981', '100.00', '20.00', { issuedAt }),
    ticket('2201234567982', '200.00', '50.00', {
      taxBreakdown: [
        { code: 'DE', amount: '10.00' },
        { code: 'YQ', amount: '40.00' },
      ],
      fareRules: { refundable: false },
    }),
  ]);
  const voided = await quoted('VR-SHOW', 'ABC123', ['P1']);
  await refund('VR-SHOW', ['ABC123'], voided.QuoteID);
  now += 60_000;
  const refunded = await quoted('VR-SHOW', 'ABC123', ['P2']);
  await refund('VR-SHOW', ['ABC123'], refunded.QuoteID);
  const response = await service.post(
    '/AirOrderRetrieve',
    { OrderRetrieveRQ: { Query: { OrderID: 'VR-SHOW', GdsBookingReference: ['ABC123'] } } },
    bearer(token),
  );
  const [shown] = response.body.OrderViewRS.Order.Bookings;
  assert.equal(shown.BookingStatus, 'CANCELED');
  assert.deepEqual(
    shown.Passengers.map((p: any) => [p.Ticket.Coupons[0].Status, p.CanceledAt]),
    [
      ['VOIDED', new Date(now - 60_000).toISOString()],
      ['REFUNDED', new Date(now).toISOString()],
    ],
  );
  assert.deepEqual(shown.Refunds, [
    {
      TicketNumber: '2201234567981',
      Amount: 120,
      QuoteType: 'VOID',
      CreatedAt: new Date(now - 60_000).toISOString(),
      Fare: 100,
      Taxes: 20,
      Penalty: 0,
      TaxBreakdown: [],
      QuoteID: voided.QuoteID,
    },
    {
      TicketNumber: '2201234567982',
      Amount: 10,
      QuoteType: 'FULL',
      CreatedAt: new Date(now).toISOString(),
      Fare: 0,
      Taxes: 10,
      Penalty: 0,
      TaxBreakdown: [
        { TaxCode: 'DE', Amount: 10, Refundable: true },
        { TaxCode: 'YQ', Amount: 40, Refundable: false },
      ],
      QuoteID: refunded.QuoteID,
    },
  ]);

  // The console's order page shows the same refunds with their breakdown.
  await addOperator(service.store, () => new Date(now).toISOString(), {
    email: 'desk@airline.example',
    name: 'Desk',
    password: 'correct horse battery',
  });
  const desk = new ConsoleClient(service.baseUrl);
  await desk.signIn('desk@airline.example', 'correct horse battery');
  const page = await desk.request('/console/orders/VR-SHOW');
  assert.equal(page.status, 200);
  assert.match(page.text, new RegExp(`2201234567981</td><td>120.00 EUR</td><td>VOID \\(${voided.QuoteID}\\)`));
  assert.match(page.text, /100\.00 EUR − 0\.00 EUR \+ 20\.00 EUR/);
  assert.match(page.text, /0\.00 EUR − 0\.00 EUR \+ 10\.00 EUR<\/td>\s*<td>DE 10\.00 EUR, YQ 40\.00 EUR \(kept\)/);
  assert.match(page.text, /S1: VOIDED 120\.00 EUR/);
  now = START;
});

test('one passenger refunded voluntarily, then an airline change: AirOrderInvoluntaryCancel refunds the others only, and both refunds stay', async () => {
  const rules = { fareRules: { refundable: true, penalty: '10.00' } };
  await importOne('VR-BOTH', 'EUR', [
    ticket('2201234567991', '100.00', '20.00', rules),
    ticket('2201234567992', '200.00', '30.00', rules),
  ]);
  const first = await quoted('VR-BOTH', 'ABC123', ['P1']);
  await refund('VR-BOTH', ['ABC123'], first.QuoteID);
  await service.importChanges([change('VR-BOTH-1', 'VR-BOTH', 'ABC123', ['S1'], [], 'FLIGHT_CANCELLATION')]);
  const response = await service.post(
    '/AirOrderInvoluntaryCancel',
    { OrderInvoluntaryCancelRQ: { Query: { OrderID: 'VR-BOTH', GdsBookingReference: ['ABC123'] } } },
    bearer(token),
  );
  assert.deepEqual(response.body.OrderInvoluntaryCancelRS.Result[0].RefundPaxWiseFare, [
    { TicketNumber: '2201234567992', Amount: 230 },
  ]);
  assert.equal(response.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 230);
  assert.deepEqual(
    (await refundRows(service, 'VR-BOTH')).map((row) => [row.ticket_number, row.amount_minor, row.quote_type]),
    [
      ['2201234567991', 11000, 'FULL'],
      ['2201234567992', 23000, 'FULL'],
    ],
  );
});

test('a quote made on another order of the agency, for a booking of the same reference, is QUOTE_NOT_FOUND and refunds nothing', async () => {
  const rules = { fareRules: { refundable: true } };
  await importOne('VR-QO-A', 'EUR', [ticket('2201234567991', '100.00', '20.00', rules)]);
  await importOne('VR-QO-B', 'EUR', [ticket('2201234567992', '100.00', '20.00', rules)]);
  const onA = await quoted('VR-QO-A');
  const onB = await quoted('VR-QO-B');
  assertFailed((await refund('VR-QO-B', ['ABC123'], onA.QuoteID)).rs.Result[0], 'QUOTE_NOT_FOUND');
  assert.deepEqual(await refundRows(service, 'VR-QO-B'), []);
  // The order's own quote, of the same agency and reference, is confirmed.
  assert.equal((await refund('VR-QO-B', ['ABC123'], onB.QuoteID)).rs.Result[0].Status, 'SUCCESS');
});

test("another agency's quote on the very order, since replaced under this agency, is QUOTE_NOT_FOUND and refunds nothing", async () => {
  const rules = { fareRules: { refundable: true } };
  const tickets = [ticket('2201234567993', '100.00', '20.00', rules)];
  await importOne('VR-MOVED', 'EUR', tickets, 'ABC123', 'AG2');
  const theirs = (await quote('VR-MOVED', ['ABC123'], undefined, {}, otherToken)).rs.Result[0];
  assert.equal(theirs.Status, 'SUCCESS');
  // The same order, booking and ticket, now the agency's own (a second later): only the quote's agency differs.
  now += 1000;
  await service.importOrders(
    [order('VR-MOVED', 'AG1', 'EUR', [booking('ABC123', [segment('S1')], [passenger('P1', tickets[0]!)])])],
    true,
  );
  assertFailed((await refund('VR-MOVED', ['ABC123'], theirs.QuoteID)).rs.Result[0], 'QUOTE_NOT_FOUND');
  assert.deepEqual(await refundRows(service, 'VR-MOVED'), []);
  const mine = await quoted('VR-MOVED');
  assert.equal((await refund('VR-MOVED', ['ABC123'], mine.QuoteID)).rs.Result[0].Status, 'SUCCESS');
});

test('the refund metrics count each voluntary refund once, with its own amount: not the refunds the booking had, nor a retry', async () => {
  const rules = { fareRules: { refundable: true } };
  await importOne('VR-MET', 'CHF', [
    ticket('2201234567994', '100.00', '20.00', rules),
    ticket('2201234567995', '200.00', '30.00', rules),
  ]);
  const metric = async (series: string) => {
    const response = await service.request('/metrics', { method: 'GET' });
    assert.equal(response.status, 200);
    const line = response.text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
  const counts = async () => [
    await metric('airorder_refunds_total{currency="CHF"}'),
    await metric('airorder_refunded_minor_units_total{currency="CHF"}'),
  ];
  assert.deepEqual(await counts(), [0, 0]);
  const first = await quoted('VR-MET', 'ABC123', ['P1']);
  assert.equal((await refund('VR-MET', ['ABC123'], first.QuoteID)).rs.Result[0].Status, 'SUCCESS');
  assert.deepEqual(await counts(), [1, 12000]);
  const second = await quoted('VR-MET', 'ABC123', ['P2']);
  assert.equal((await refund('VR-MET', ['ABC123'], second.QuoteID)).rs.Result[0].Status, 'SUCCESS');
  assert.deepEqual(await counts(), [2, 35000], 'the second refund adds its own 230.00, not the first one again');
  assert.equal((await refund('VR-MET', ['ABC123'], second.QuoteID)).rs.Result[0].Status, 'SUCCESS');
  assert.deepEqual(await counts(), [2, 35000], 'a quote confirmed again refunds nothing more');
});
