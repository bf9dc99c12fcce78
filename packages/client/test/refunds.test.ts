/**
 * Refunds of AirOrderInvoluntaryCancel in integer minor units, read from RefundText's decimals,
 * for currencies with 2 (EUR), 0 (JPY) and 3 (KWD) decimals, checked against the refunds the
 * service stored. No floating-point arithmetic on money.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { refundRows } from '../../../test/helpers/booking-state.js';
import { AirOrderClient, AirOrderInvalidResponseError, type InvoluntaryCancelItem } from '../src/index.js';
import { cancellationOf, clientFor, orderDoc, startTestService, type TestService } from './support.js';

let service: TestService;
let client: AirOrderClient;
before(async () => {
  service = await startTestService();
  client = await clientFor(service, 'RF1');
  await service.importOrders([
    orderDoc('RF-EUR', 'RF1', 'EUR', 'RFEUR1', [
      {
        ticketNumber: '2201234590001',
        baseFare: '250.00',
        taxes: '50.30',
        coupons: [
          ['OPEN', '100.10'],
          ['OPEN', '200.20'],
        ],
      },
      {
        ticketNumber: '2201234590002',
        baseFare: '150.00',
        taxes: '50.00',
        coupons: [
          ['USED', '100.10'],
          ['OPEN', '99.90'],
        ],
      },
    ]),
    orderDoc('RF-JPY', 'RF1', 'JPY', 'RFJPY1', [
      {
        ticketNumber: '2201234590011',
        baseFare: '98000',
        taxes: '2500',
        coupons: [
          ['USED', '50250'],
          ['OPEN', '50250'],
        ],
      },
      {
        ticketNumber: '2201234590012',
        baseFare: '90000',
        taxes: '10500',
        coupons: [
          ['OPEN', '60000'],
          ['OPEN', '40500'],
        ],
      },
    ]),
    orderDoc('RF-KWD', 'RF1', 'KWD', 'RFKWD1', [
      {
        ticketNumber: '2201234590021',
        baseFare: '120.125',
        taxes: '10.500',
        coupons: [
          ['OPEN', '65.312'],
          ['OPEN', '65.313'],
        ],
      },
      {
        ticketNumber: '2201234590022',
        baseFare: '45.000',
        taxes: '5.003',
        coupons: [
          ['USED', '20.001'],
          ['OPEN', '30.002'],
        ],
      },
    ]),
    orderDoc('RF-JPY2', 'RF1', 'JPY', 'RFJPY2', [
      { ticketNumber: '2201234590031', baseFare: '12000', taxes: '345', coupons: [['OPEN', '12345']] },
    ]),
    orderDoc('RF-NOTKT', 'RF1', 'EUR', 'RFNOT1', []),
  ]);
  await service.importChanges([
    // The second segment is cancelled: the first one was already flown on some tickets.
    cancellationOf('RF-EUR', 'RFEUR1', ['S2']),
    cancellationOf('RF-JPY', 'RFJPY1', ['S2']),
    cancellationOf('RF-KWD', 'RFKWD1', ['S2']),
    cancellationOf('RF-JPY2', 'RFJPY2'),
    cancellationOf('RF-NOTKT', 'RFNOT1'),
  ]);
});
after(() => service.close());

/** The refunds the service stored for the order: [ticket, minor units, quote type]. */
async function storedRefunds(orderId: string): Promise<[string, number, string][]> {
  return (await refundRows(service, orderId)).map((row) => [row.ticket_number, row.amount_minor, row.quote_type]);
}

function ticketsOf(item: InvoluntaryCancelItem) {
  return item.refund.tickets.map((ticket) => [ticket.ticketNumber, ticket.amountMinor, ticket.quoteType]);
}

test('EUR (2 decimals): minor units per ticket and an exact total where adding the JSON numbers would not be', async () => {
  const result = await client.cancelInvoluntarily({
    orderId: 'RF-EUR',
    bookingReferences: ['RFEUR1'],
    currency: 'EUR',
  });
  const item = result.items[0]!;
  assert.equal(item.status, 'SUCCESS');
  assert.deepEqual(item.refund.tickets, [
    { ticketNumber: '2201234590001', quoteType: 'FULL', amount: 300.3, amountText: '300.30', amountMinor: 30030 },
    { ticketNumber: '2201234590002', quoteType: 'PARTIAL', amount: 99.9, amountText: '99.90', amountMinor: 9990 },
  ]);
  assert.equal(item.refund.amountMinor, 40020);
  assert.equal(item.refund.amount, 400.2);
  assert.equal(item.refund.currency, 'EUR');
  assert.deepEqual(ticketsOf(item), await storedRefunds('RF-EUR'));
  // The coupons of the first ticket, as numbers, do not add up exactly: minor units do.
  assert.notEqual(100.1 + 200.2, 300.3);
});

test('JPY (0 decimals): amounts are whole yen', async () => {
  const result = await client.cancelInvoluntarily({
    orderId: 'RF-JPY',
    bookingReferences: ['RFJPY1'],
    currency: 'JPY',
  });
  const item = result.items[0]!;
  assert.equal(
    item.raw.RefundText,
    'TicketNumber:2201234590011 QuoteType:PARTIAL RefundAmount:50250 TicketNumber:2201234590012 QuoteType:FULL RefundAmount:100500',
  );
  assert.deepEqual(item.refund, {
    amount: 150750,
    amountMinor: 150750,
    currency: 'JPY',
    tickets: [
      { ticketNumber: '2201234590011', quoteType: 'PARTIAL', amount: 50250, amountText: '50250', amountMinor: 50250 },
      { ticketNumber: '2201234590012', quoteType: 'FULL', amount: 100500, amountText: '100500', amountMinor: 100500 },
    ],
  });
  assert.deepEqual(ticketsOf(item), await storedRefunds('RF-JPY'));
});

test('KWD (3 decimals): amounts in fils', async () => {
  const result = await client.cancelInvoluntarily({
    orderId: 'RF-KWD',
    bookingReferences: ['RFKWD1'],
    currency: 'KWD',
  });
  const item = result.items[0]!;
  assert.deepEqual(
    item.refund.tickets.map((ticket) => [ticket.amountText, ticket.amount, ticket.amountMinor, ticket.quoteType]),
    [
      ['130.625', 130.625, 130625, 'FULL'],
      ['30.002', 30.002, 30002, 'PARTIAL'],
    ],
  );
  assert.equal(item.refund.amountMinor, 160627);
  assert.equal(item.refund.amount, 160.627);
  assert.deepEqual(ticketsOf(item), await storedRefunds('RF-KWD'));
});

test('a booking without tickets refunds 0; without a currency there are no minor units, the exact text still is', async () => {
  const none = await client.cancelInvoluntarily({
    orderId: 'RF-NOTKT',
    bookingReferences: ['RFNOT1'],
    currency: 'EUR',
  });
  assert.equal(none.items[0]!.status, 'SUCCESS');
  assert.deepEqual(none.items[0]!.refund, { amount: 0, amountMinor: 0, currency: 'EUR', tickets: [] });

  const again = await client.cancelInvoluntarily({ orderId: 'RF-EUR', bookingReferences: ['RFEUR1'] });
  assert.deepEqual(
    again.items[0]!.refund.tickets.map((ticket) => [ticket.amountText, ticket.amountMinor]),
    [
      ['300.30', undefined],
      ['99.90', undefined],
    ],
  );
  assert.equal(again.items[0]!.refund.amountMinor, undefined);
});

test('the wrong currency is detected from the decimals, not guessed; the call repeated with its key and the right currency replays', async () => {
  let key: string | undefined;
  await assert.rejects(
    client.cancelInvoluntarily({ orderId: 'RF-JPY2', bookingReferences: ['RFJPY2'], currency: 'EUR' }),
    (error: unknown) => {
      assert.ok(error instanceof AirOrderInvalidResponseError);
      assert.equal(error.code, 'INVALID_RESPONSE');
      assert.equal(error.status, 200);
      assert.match(error.message, /"12345" has 0 decimals, the currency has 2/);
      assert.ok(error.requestId);
      key = error.idempotencyKey;
      return true;
    },
  );
  assert.ok(key);
  const retry = await client.cancelInvoluntarily({
    orderId: 'RF-JPY2',
    bookingReferences: ['RFJPY2'],
    currency: 'JPY',
    idempotencyKey: key,
  });
  assert.equal(retry.replayed, true);
  assert.equal(retry.items[0]!.refund.amountMinor, 12345);
  assert.deepEqual(await storedRefunds('RF-JPY2'), [['2201234590031', 12345, 'FULL']]);
});

test('a currency that is not an ISO 4217 code is refused before anything is sent', async () => {
  const before = service.logs.filter((line) => line.msg === 'request').length;
  await assert.rejects(
    client.cancelInvoluntarily({ orderId: 'RF-EUR', bookingReferences: ['RFEUR1'], currency: 'eur' }),
    TypeError,
  );
  assert.equal(service.logs.filter((line) => line.msg === 'request').length, before);
});
