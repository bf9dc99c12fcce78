import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseAmount } from '../../src/domain/money.js';
import {
  acceptRQ,
  bearer,
  booking,
  cancelRQ,
  change,
  involuntaryCancelRQ,
  order,
  passenger,
  segment,
  simpleOrder,
} from '../helpers/documents.js';
import { bookingState, changeStatuses, couponsOf, orderSnapshot, refundRows } from '../helpers/booking-state.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
});
after(() => service.close());

async function involuntaryCancel(orderId: string, references: string[]) {
  const response = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ(orderId, references),
    bearer(token),
  );
  assert.equal(response.status, 200, response.text);
  return { rs: response.body.OrderInvoluntaryCancelRS, text: response.text };
}

/** A JSON number back into minor units, exactly (no float arithmetic). */
function minor(amount: number, currency: string): number {
  const value = parseAmount(String(amount), currency);
  assert.notEqual(value, null, `${amount} is not a valid ${currency} amount`);
  return value!;
}

/** The money rules every successful item obeys, whatever its content. */
function assertConsistent(item: any, currency: string) {
  const amounts = item.RefundPaxWiseFare.map((fare: any) => minor(fare.Amount, currency));
  assert.equal(
    minor(item.RefundAmount, currency),
    amounts.reduce((sum: number, a: number) => sum + a, 0),
    'Amounts sum to RefundAmount',
  );
  const fromText = [
    ...item.RefundText.matchAll(/TicketNumber:(\d{13}) QuoteType:(FULL|PARTIAL) RefundAmount:([\d.]+)/g),
  ];
  assert.deepEqual(
    fromText.map((m) => m[1]),
    item.RefundPaxWiseFare.map((fare: any) => fare.TicketNumber),
    'RefundText lists the same tickets in the same order',
  );
  assert.deepEqual(
    fromText.map((m) => parseAmount(m[3]!, currency)),
    amounts,
    'RefundText amounts match RefundPaxWiseFare',
  );
}

const failedItem = (orderId: string, reference: string) => ({
  OrderID: orderId,
  GdsBookingReference: [reference],
  Status: 'FAILED',
  RefundAmount: 0,
  RefundText: '',
  RefundPaxWiseFare: [],
});

function assertFailedItem(item: any, orderId: string, reference: string, code: string) {
  const { ErrorMsg, ...rest } = item;
  assert.deepEqual(rest, failedItem(orderId, reference));
  assert.match(ErrorMsg, new RegExp(`^${code}: \\S`));
}

const cancelChange = (id: string, orderId: string, reference = 'ABC123', removed = ['S1']) =>
  change(id, orderId, reference, removed, [], 'FLIGHT_CANCELLATION');

test('EUR: full refund with the exact RefundText; booking, coupons and change updated in SQL', async () => {
  await service.importOrders([simpleOrder('ORD-I1', 'AG1', 'ABC123')]);
  await service.importChanges([cancelChange('I1-1', 'ORD-I1')]);
  const { rs, text } = await involuntaryCancel('ORD-I1', ['ABC123']);
  assert.deepEqual(rs.Result, [
    {
      OrderID: 'ORD-I1',
      GdsBookingReference: ['ABC123'],
      ErrorMsg: '',
      Status: 'SUCCESS',
      RefundAmount: 570.5,
      RefundText: 'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:570.50',
      RefundPaxWiseFare: [{ TicketNumber: '2201234567890', Amount: 570.5 }],
    },
  ]);
  assert.match(text, /"RefundAmount":570\.5[,}]/);
  assert.deepEqual(rs.Success, {});
  assert.equal(rs.Errors, undefined);

  const state = await bookingState(service, 'ORD-I1', 'ABC123');
  assert.deepEqual([state.status, state.cancellation], ['CANCELED', 'INVOLUNTARY']);
  assert.deepEqual(couponsOf(state), [[['S1', 'REFUNDED', 57050]]]);
  assert.deepEqual(await changeStatuses(service, 'ORD-I1', 'ABC123'), { 'I1-1': 'CANCELED' });
  assert.deepEqual(await refundRows(service, 'ORD-I1'), [
    {
      reference: 'ABC123',
      ticket_number: '2201234567890',
      position: 0,
      amount_minor: 57050,
      currency: 'EUR',
      quote_type: 'FULL',
    },
  ]);
});

test('JPY: no decimals, two passengers in passenger order, Amounts sum to RefundAmount', async () => {
  await service.importOrders([
    order('ORD-I2', 'AG1', 'JPY', [
      booking(
        'JAL001',
        [segment('S1'), segment('S2', 8)],
        [
          passenger('P1', {
            ticketNumber: '1311234567899',
            baseFare: '98000',
            taxes: '12345',
            coupons: [
              { segmentId: 'S1', value: '60000' },
              { segmentId: 'S2', value: '50345' },
            ],
          }),
          passenger(
            'P2',
            {
              ticketNumber: '1311234567801',
              baseFare: '49000',
              taxes: '6173',
              coupons: [
                { segmentId: 'S1', value: '27587' },
                { segmentId: 'S2', value: '27586' },
              ],
            },
            'CHD',
          ),
        ],
      ),
    ]),
  ]);
  await service.importChanges([change('I2-1', 'ORD-I2', 'JAL001', ['S2'], [segment('S2B', 9)])]);
  const { rs, text } = await involuntaryCancel('ORD-I2', ['JAL001']);
  const [item] = rs.Result;
  assert.equal(item.Status, 'SUCCESS');
  assert.equal(item.RefundAmount, 165518);
  assert.deepEqual(item.RefundPaxWiseFare, [
    { TicketNumber: '1311234567899', Amount: 110345 },
    { TicketNumber: '1311234567801', Amount: 55173 },
  ]);
  assert.equal(
    item.RefundText,
    'TicketNumber:1311234567899 QuoteType:FULL RefundAmount:110345 TicketNumber:1311234567801 QuoteType:FULL RefundAmount:55173',
  );
  assert.match(text, /"RefundAmount":165518[,}]/);
  assertConsistent(item, 'JPY');
});

test('KWD: three decimals in RefundText, exact JSON numbers, trailing zero kept in the text only', async () => {
  await service.importOrders([
    order('ORD-I3', 'AG1', 'KWD', [
      booking(
        'KUW001',
        [segment('S1')],
        [
          passenger('P1', {
            ticketNumber: '2291234567890',
            baseFare: '120.125',
            taxes: '15.250',
            coupons: [{ segmentId: 'S1', value: '135.375' }],
          }),
          passenger('P2', {
            ticketNumber: '2291234567891',
            baseFare: '100.000',
            taxes: '20.500',
            coupons: [{ segmentId: 'S1' }],
          }),
          passenger(
            'P3',
            { ticketNumber: '2291234567892', baseFare: '0.001', taxes: '0.000', coupons: [{ segmentId: 'S1' }] },
            'INF',
          ),
        ],
      ),
    ]),
  ]);
  await service.importChanges([cancelChange('I3-1', 'ORD-I3', 'KUW001')]);
  const { rs, text } = await involuntaryCancel('ORD-I3', ['KUW001']);
  const [item] = rs.Result;
  assert.equal(
    item.RefundText,
    'TicketNumber:2291234567890 QuoteType:FULL RefundAmount:135.375 ' +
      'TicketNumber:2291234567891 QuoteType:FULL RefundAmount:120.500 ' +
      'TicketNumber:2291234567892 QuoteType:FULL RefundAmount:0.001',
  );
  assert.deepEqual(item.RefundPaxWiseFare, [
    { TicketNumber: '2291234567890', Amount: 135.375 },
    { TicketNumber: '2291234567891', Amount: 120.5 },
    { TicketNumber: '2291234567892', Amount: 0.001 },
  ]);
  assert.equal(item.RefundAmount, 255.876);
  assert.match(text, /"RefundAmount":255\.876[,}]/);
  assert.match(text, /"Amount":0\.001[,}]/);
  assertConsistent(item, 'KWD');
  assert.deepEqual(
    (await refundRows(service, 'ORD-I3')).map((row) => [row.ticket_number, row.amount_minor, row.currency]),
    [
      ['2291234567890', 135375, 'KWD'],
      ['2291234567891', 120500, 'KWD'],
      ['2291234567892', 1, 'KWD'],
    ],
  );
});

test('the largest refund a booking can have, in EUR, JPY and KWD: RefundAmount and RefundPaxWiseFare are the decimals imported, on the wire', async () => {
  // Two tickets adding up to the import's bound, 999999999999999 minor units, each its own decimal.
  const cases = [
    {
      currency: 'EUR',
      first: '5000000000000.00',
      second: '4999999999999.99',
      firstWire: '5000000000000',
      total: '9999999999999.99',
    },
    {
      currency: 'JPY',
      first: '500000000000000',
      second: '499999999999999',
      firstWire: '500000000000000',
      total: '999999999999999',
    },
    {
      currency: 'KWD',
      first: '500000000000.000',
      second: '499999999999.999',
      firstWire: '500000000000',
      total: '999999999999.999',
    },
  ];
  for (const { currency, first, second, firstWire, total } of cases) {
    const zero = currency === 'JPY' ? '0' : currency === 'EUR' ? '0.00' : '0.000';
    await service.importOrders([
      order(`ORD-MAX-${currency}`, 'AG1', currency, [
        booking(
          'MAX001',
          [segment('S1')],
          [
            passenger('P1', {
              ticketNumber: '2291234567900',
              baseFare: first,
              taxes: zero,
              coupons: [{ segmentId: 'S1' }],
            }),
            passenger('P2', {
              ticketNumber: '2291234567901',
              baseFare: second,
              taxes: zero,
              coupons: [{ segmentId: 'S1', value: second }],
            }),
          ],
        ),
      ]),
    ]);
    await service.importChanges([cancelChange(`MAX-${currency}`, `ORD-MAX-${currency}`, 'MAX001')]);
    const { rs, text } = await involuntaryCancel(`ORD-MAX-${currency}`, ['MAX001']);
    const [item] = rs.Result;
    assert.equal(item.Status, 'SUCCESS', text);
    assert.equal(
      item.RefundText,
      `TicketNumber:2291234567900 QuoteType:FULL RefundAmount:${first} TicketNumber:2291234567901 QuoteType:FULL RefundAmount:${second}`,
    );
    // The JSON text itself: each number as an agency's parser reads it.
    assert.ok(text.includes(`"RefundAmount":${total},`), text);
    assert.ok(
      text.includes(
        `"RefundPaxWiseFare":[{"TicketNumber":"2291234567900","Amount":${firstWire}},{"TicketNumber":"2291234567901","Amount":${second}}]`,
      ),
      text,
    );
    assert.equal(String(item.RefundAmount), total);
    assertConsistent(item, currency);
    assert.deepEqual(
      (await refundRows(service, `ORD-MAX-${currency}`)).map((row) => [row.ticket_number, row.amount_minor]),
      [
        ['2291234567900', 500_000_000_000_000],
        ['2291234567901', 499_999_999_999_999],
      ],
    );
  }
});

test('a USED coupon: PARTIAL, only the OPEN coupons refunded, the used one stays USED', async () => {
  await service.importOrders([
    order('ORD-I4', 'AG1', 'EUR', [
      booking(
        'ABC123',
        [segment('S1', 1), segment('S2', 8)],
        [
          passenger('P1', {
            ticketNumber: '2201234567890',
            baseFare: '450.00',
            taxes: '120.50',
            coupons: [
              { segmentId: 'S1', status: 'USED', value: '300.00' },
              { segmentId: 'S2', status: 'OPEN', value: '270.50' },
            ],
          }),
          passenger('P2', {
            ticketNumber: '2201234567891',
            baseFare: '200.00',
            taxes: '0.00',
            coupons: [
              { segmentId: 'S1', status: 'OPEN', value: '100.00' },
              { segmentId: 'S2', status: 'OPEN', value: '100.00' },
            ],
          }),
        ],
      ),
    ]),
  ]);
  await service.importChanges([cancelChange('I4-1', 'ORD-I4', 'ABC123', ['S2'])]);
  const [item] = (await involuntaryCancel('ORD-I4', ['ABC123'])).rs.Result;
  assert.equal(
    item.RefundText,
    'TicketNumber:2201234567890 QuoteType:PARTIAL RefundAmount:270.50 ' +
      'TicketNumber:2201234567891 QuoteType:FULL RefundAmount:200.00',
  );
  assert.equal(item.RefundAmount, 470.5);
  assertConsistent(item, 'EUR');
  assert.deepEqual(couponsOf(await bookingState(service, 'ORD-I4', 'ABC123')), [
    [
      ['S1', 'USED', 30000],
      ['S2', 'REFUNDED', 27050],
    ],
    [
      ['S1', 'REFUNDED', 10000],
      ['S2', 'REFUNDED', 10000],
    ],
  ]);
  assert.deepEqual(
    (await refundRows(service, 'ORD-I4')).map((row) => row.quote_type),
    ['PARTIAL', 'FULL'],
  );
});

test('several passengers: refunds in passenger order (not ticket order), unticketed passengers skipped', async () => {
  const tkt = (ticketNumber: string, value: string) => ({
    ticketNumber,
    baseFare: value,
    taxes: '0.00',
    coupons: [{ segmentId: 'S1' }],
  });
  await service.importOrders([
    order('ORD-I5', 'AG1', 'EUR', [
      booking(
        'ABC123',
        [segment('S1')],
        [
          passenger('P1', tkt('2201234567893', '300.00')),
          passenger('P2', null),
          passenger('P3', tkt('2201234567891', '150.25'), 'CHD'),
          passenger('P4', tkt('2201234567892', '30.01'), 'INF'),
        ],
      ),
    ]),
  ]);
  await service.importChanges([cancelChange('I5-1', 'ORD-I5')]);
  const [item] = (await involuntaryCancel('ORD-I5', ['ABC123'])).rs.Result;
  assert.deepEqual(item.RefundPaxWiseFare, [
    { TicketNumber: '2201234567893', Amount: 300 },
    { TicketNumber: '2201234567891', Amount: 150.25 },
    { TicketNumber: '2201234567892', Amount: 30.01 },
  ]);
  assert.equal(
    item.RefundText,
    'TicketNumber:2201234567893 QuoteType:FULL RefundAmount:300.00 ' +
      'TicketNumber:2201234567891 QuoteType:FULL RefundAmount:150.25 ' +
      'TicketNumber:2201234567892 QuoteType:FULL RefundAmount:30.01',
  );
  assert.equal(item.RefundAmount, 480.26);
  assertConsistent(item, 'EUR');
  assert.deepEqual(
    (await refundRows(service, 'ORD-I5')).map((row) => [row.position, row.ticket_number]),
    [
      [0, '2201234567893'],
      [1, '2201234567891'],
      [2, '2201234567892'],
    ],
  );
});

test('a booking without tickets: SUCCESS with 0, [] and "", booking cancelled, no refund rows', async () => {
  await service.importOrders([
    order('ORD-I6', 'AG1', 'EUR', [booking('ABC123', [segment('S1')], [passenger('P1', null), passenger('P2', null)])]),
  ]);
  await service.importChanges([cancelChange('I6-1', 'ORD-I6')]);
  const { rs, text } = await involuntaryCancel('ORD-I6', ['ABC123']);
  assert.deepEqual(rs.Result, [
    {
      OrderID: 'ORD-I6',
      GdsBookingReference: ['ABC123'],
      ErrorMsg: '',
      Status: 'SUCCESS',
      RefundAmount: 0,
      RefundText: '',
      RefundPaxWiseFare: [],
    },
  ]);
  assert.match(text, /"RefundAmount":0[,}]/);
  assert.deepEqual(rs.Success, {});
  assert.equal((await bookingState(service, 'ORD-I6', 'ABC123')).status, 'CANCELED');
  assert.deepEqual(await changeStatuses(service, 'ORD-I6', 'ABC123'), { 'I6-1': 'CANCELED' });
  assert.deepEqual(await refundRows(service, 'ORD-I6'), []);
});

test('documents without coupon values: even splits, remainder to the first coupon, refunds follow', async () => {
  await service.importOrders([
    order('ORD-I7E', 'AG1', 'EUR', [
      booking(
        'ABC123',
        [segment('S1', 1), segment('S2', 2), segment('S3', 3)],
        [
          // 100.01 over 3 coupons: 33.35 + 33.33 + 33.33; the first one (with the remainder) was flown.
          passenger('P1', {
            ticketNumber: '2201234567890',
            baseFare: '100.00',
            taxes: '0.01',
            coupons: [{ segmentId: 'S1', status: 'USED' }, { segmentId: 'S2' }, { segmentId: 'S3' }],
          }),
        ],
      ),
    ]),
    order('ORD-I7K', 'AG1', 'KWD', [
      booking(
        'ABC123',
        [segment('S1', 1), segment('S2', 2), segment('S3', 3)],
        [
          // 1.000 over 3 coupons: 0.334 + 0.333 + 0.333; all open.
          passenger('P1', {
            ticketNumber: '2291234567890',
            baseFare: '1.000',
            taxes: '0.000',
            coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }, { segmentId: 'S3' }],
          }),
        ],
      ),
    ]),
    order('ORD-I7J', 'AG1', 'JPY', [
      booking(
        'ABC123',
        [segment('S1', 1), segment('S2', 2), segment('S3', 3)],
        [
          // 10000 over 3 coupons: 3334 + 3333 + 3333; the last was flown.
          passenger('P1', {
            ticketNumber: '1311234567890',
            baseFare: '9000',
            taxes: '1000',
            coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }, { segmentId: 'S3', status: 'USED' }],
          }),
        ],
      ),
    ]),
  ]);
  assert.deepEqual(couponsOf(await bookingState(service, 'ORD-I7E', 'ABC123')), [
    [
      ['S1', 'USED', 3335],
      ['S2', 'OPEN', 3333],
      ['S3', 'OPEN', 3333],
    ],
  ]);
  await service.importChanges([
    cancelChange('I7E-1', 'ORD-I7E', 'ABC123', ['S3']),
    cancelChange('I7K-1', 'ORD-I7K', 'ABC123', ['S3']),
    cancelChange('I7J-1', 'ORD-I7J', 'ABC123', ['S1']),
  ]);
  const eur = (await involuntaryCancel('ORD-I7E', ['ABC123'])).rs.Result[0];
  assert.equal(eur.RefundText, 'TicketNumber:2201234567890 QuoteType:PARTIAL RefundAmount:66.66');
  assert.equal(eur.RefundAmount, 66.66);
  const kwd = (await involuntaryCancel('ORD-I7K', ['ABC123'])).rs.Result[0];
  assert.equal(kwd.RefundText, 'TicketNumber:2291234567890 QuoteType:FULL RefundAmount:1.000');
  assert.equal(kwd.RefundAmount, 1);
  const jpy = (await involuntaryCancel('ORD-I7J', ['ABC123'])).rs.Result[0];
  assert.equal(jpy.RefundText, 'TicketNumber:1311234567890 QuoteType:PARTIAL RefundAmount:6667');
  assert.deepEqual(couponsOf(await bookingState(service, 'ORD-I7J', 'ABC123')), [
    [
      ['S1', 'REFUNDED', 3334],
      ['S2', 'REFUNDED', 3333],
      ['S3', 'USED', 3333],
    ],
  ]);
  for (const [item, currency] of [
    [eur, 'EUR'],
    [kwd, 'KWD'],
    [jpy, 'JPY'],
  ] as const)
    assertConsistent(item, currency);
});

test('after an accepted change moved coupons, the refund is of the moved coupons', async () => {
  await service.importOrders([simpleOrder('ORD-I8', 'AG1', 'ABC123')]);
  await service.importChanges([
    change(
      'I8-1',
      'ORD-I8',
      'ABC123',
      ['S1'],
      [segment('S1X', 1, 8), segment('S1Y', 1, 14), segment('S1Z', 1, 18)],
      'ROUTING_CHANGE',
      '2026-11-01T00:00:00Z',
    ),
  ]);
  const accepted = await service.post('/AirOrderInvoluntaryAccept', acceptRQ('ORD-I8', ['ABC123']), bearer(token));
  assert.equal(accepted.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'SUCCESS');
  await service.importChanges([cancelChange('I8-2', 'ORD-I8', 'ABC123', ['S1Z'])]);
  const [item] = (await involuntaryCancel('ORD-I8', ['ABC123'])).rs.Result;
  assert.equal(item.RefundText, 'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:570.50');
  assert.deepEqual(couponsOf(await bookingState(service, 'ORD-I8', 'ABC123')), [
    [
      ['S1X', 'REFUNDED', 19018],
      ['S1Y', 'REFUNDED', 19016],
      ['S1Z', 'REFUNDED', 19016],
    ],
  ]);
  assert.deepEqual(await changeStatuses(service, 'ORD-I8', 'ABC123'), { 'I8-1': 'ACCEPTED', 'I8-2': 'CANCELED' });
});

test('retry: the stored refund again, nothing written, still one refund row per ticket', async () => {
  await service.importOrders([
    order('ORD-I9', 'AG1', 'EUR', [
      booking(
        'ABC123',
        [segment('S1')],
        [
          passenger('P1', {
            ticketNumber: '2201234567890',
            baseFare: '450.00',
            taxes: '120.50',
            coupons: [{ segmentId: 'S1' }],
          }),
          passenger('P2', {
            ticketNumber: '2201234567891',
            baseFare: '99.99',
            taxes: '0.00',
            coupons: [{ segmentId: 'S1' }],
          }),
        ],
      ),
    ]),
  ]);
  await service.importChanges([cancelChange('I9-1', 'ORD-I9')]);
  const first = (await involuntaryCancel('ORD-I9', ['ABC123'])).rs;
  const afterFirst = await orderSnapshot(service, 'ORD-I9');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const again = (await involuntaryCancel('ORD-I9', ['abc123'])).rs;
    assert.deepEqual(again.Result, first.Result);
    assert.deepEqual(again.Success, {});
  }
  assert.deepEqual(await orderSnapshot(service, 'ORD-I9'), afterFirst);
  assert.deepEqual(
    (await refundRows(service, 'ORD-I9')).map((row) => row.ticket_number),
    ['2201234567890', '2201234567891'],
  );
  assert.equal(first.Result[0].RefundAmount, 670.49);
});

test('no pending change: FAILED NO_PENDING_CHANGE with 0, "" and [], nothing changes', async () => {
  await service.importOrders([simpleOrder('ORD-I10', 'AG1', 'ABC123')]);
  const before = await orderSnapshot(service, 'ORD-I10');
  const { rs } = await involuntaryCancel('ORD-I10', ['ABC123']);
  assert.equal(rs.Result.length, 1);
  assertFailedItem(rs.Result[0], 'ORD-I10', 'ABC123', 'NO_PENDING_CHANGE');
  assert.equal('Success' in rs, false);
  assert.deepEqual(
    rs.Errors.map((error: any) => error.Code),
    ['NO_PENDING_CHANGE'],
  );
  assert.deepEqual(await orderSnapshot(service, 'ORD-I10'), before);
});

test('the only change already accepted: NO_PENDING_CHANGE', async () => {
  await service.importOrders([simpleOrder('ORD-I11', 'AG1', 'ABC123')]);
  await service.importChanges([change('I11-1', 'ORD-I11', 'ABC123', ['S1'], [segment('S1B', 1, 14)])]);
  await service.post('/AirOrderInvoluntaryAccept', acceptRQ('ORD-I11', ['ABC123']), bearer(token));
  const before = await orderSnapshot(service, 'ORD-I11');
  assertFailedItem(
    (await involuntaryCancel('ORD-I11', ['ABC123'])).rs.Result[0],
    'ORD-I11',
    'ABC123',
    'NO_PENDING_CHANGE',
  );
  assert.deepEqual(await orderSnapshot(service, 'ORD-I11'), before);
});

test('after a voluntary cancel: FAILED BOOKING_CANCELED, nothing refunded', async () => {
  await service.importOrders([simpleOrder('ORD-I12', 'AG1', 'ABC123')]);
  await service.importChanges([cancelChange('I12-1', 'ORD-I12')]);
  const cancelled = await service.post('/AirOrderCancel', cancelRQ('ORD-I12', ['ABC123']), bearer(token));
  assert.equal(cancelled.body.OrderViewRS.Response[0].Status, 'SUCCESS');
  const before = await orderSnapshot(service, 'ORD-I12');
  const { rs } = await involuntaryCancel('ORD-I12', ['ABC123']);
  assertFailedItem(rs.Result[0], 'ORD-I12', 'ABC123', 'BOOKING_CANCELED');
  assert.deepEqual(
    rs.Errors.map((error: any) => error.Code),
    ['BOOKING_CANCELED'],
  );
  assert.deepEqual(await orderSnapshot(service, 'ORD-I12'), before);
  assert.deepEqual(await refundRows(service, 'ORD-I12'), []);
  assert.deepEqual(couponsOf(await bookingState(service, 'ORD-I12', 'ABC123')), [[['S1', 'OPEN', 57050]]]);
});

test('a booking imported as cancelled: BOOKING_CANCELED', async () => {
  await service.importOrders([
    order('ORD-I13', 'AG1', 'EUR', [booking('ABC123', [segment('S1')], [passenger('P1', null)], 'CANCELED')]),
  ]);
  assertFailedItem(
    (await involuntaryCancel('ORD-I13', ['ABC123'])).rs.Result[0],
    'ORD-I13',
    'ABC123',
    'BOOKING_CANCELED',
  );
});

test('mixed outcomes: HTTP 200, Errors, the refund committed, failed bookings untouched, request order kept', async () => {
  const tkt = (ticketNumber: string) => ({
    ticketNumber,
    baseFare: '10.00',
    taxes: '0.05',
    coupons: [{ segmentId: 'S1' }],
  });
  await service.importOrders([
    order('ORD-I14', 'AG1', 'EUR', [
      booking('AAA111', [segment('S1')], [passenger('P1', tkt('2201234567890'))]),
      booking('BBB222', [segment('S1')], [passenger('P1', tkt('2201234567891'))]),
    ]),
  ]);
  await service.importChanges([cancelChange('I14-B', 'ORD-I14', 'BBB222')]);
  const beforeA = await bookingState(service, 'ORD-I14', 'AAA111');
  const { rs } = await involuntaryCancel('ORD-I14', ['ZZZ999', 'bbb222', 'AAA111']);
  assert.equal(rs.Result.length, 3);
  assertFailedItem(rs.Result[0], 'ORD-I14', 'ZZZ999', 'BOOKING_NOT_FOUND');
  assert.deepEqual(rs.Result[1], {
    OrderID: 'ORD-I14',
    GdsBookingReference: ['BBB222'],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: 10.05,
    RefundText: 'TicketNumber:2201234567891 QuoteType:FULL RefundAmount:10.05',
    RefundPaxWiseFare: [{ TicketNumber: '2201234567891', Amount: 10.05 }],
  });
  assertFailedItem(rs.Result[2], 'ORD-I14', 'AAA111', 'NO_PENDING_CHANGE');
  assert.equal('Success' in rs, false);
  assert.deepEqual(rs.Errors.map((error: any) => error.Code).sort(), ['BOOKING_NOT_FOUND', 'NO_PENDING_CHANGE']);
  assert.deepEqual(await refundRows(service, 'ORD-I14'), [
    {
      reference: 'BBB222',
      ticket_number: '2201234567891',
      position: 0,
      amount_minor: 1005,
      currency: 'EUR',
      quote_type: 'FULL',
    },
  ]);
  assert.equal((await bookingState(service, 'ORD-I14', 'BBB222')).status, 'CANCELED');
  assert.deepEqual(await bookingState(service, 'ORD-I14', 'AAA111'), beforeA);
});
