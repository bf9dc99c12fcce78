import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  bearer,
  booking,
  cancelRQ,
  change,
  involuntaryCancelRQ,
  order,
  passenger,
  segment,
} from '../helpers/documents.js';
import { bookingState, changeStatuses, couponsOf, refundRows } from '../helpers/booking-state.js';
import { holdAfter, untilWaitingForLock } from '../helpers/store-hold.js';
import { testStoreKind } from '../helpers/test-database.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
});
after(() => service.close());

/** A booking with three ticketed passengers and one pending flight cancellation. */
async function importBookingWithPendingChange(orderId: string, reference: string) {
  const tkt = (ticketNumber: string, baseFare: string) => ({
    ticketNumber,
    baseFare,
    taxes: '10.01',
    coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
  });
  await service.importOrders([
    order(orderId, 'AG1', 'EUR', [
      booking(
        reference,
        [segment('S1', 1), segment('S2', 8)],
        [
          passenger('P1', tkt('2201234567890', '100.00')),
          passenger('P2', tkt('2201234567891', '80.00'), 'CHD'),
          passenger('P3', tkt('2201234567892', '0.00'), 'INF'),
        ],
      ),
    ]),
  ]);
  await service.importChanges([change(`${orderId}-C`, orderId, reference, ['S2'], [], 'FLIGHT_CANCELLATION')]);
}

const TICKETS = ['2201234567890', '2201234567891', '2201234567892'];

test('a dozen parallel AirOrderInvoluntaryCancel calls: all SUCCESS with the same refund, one refund row per ticket', async () => {
  await importBookingWithPendingChange('ORD-P1', 'ABC123');
  const responses = await Promise.all(
    Array.from({ length: 12 }, () =>
      service.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('ORD-P1', ['ABC123']), bearer(token)),
    ),
  );

  const expected = {
    OrderID: 'ORD-P1',
    GdsBookingReference: ['ABC123'],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: 210.03,
    RefundText:
      'TicketNumber:2201234567890 QuoteType:FULL RefundAmount:110.01 ' +
      'TicketNumber:2201234567891 QuoteType:FULL RefundAmount:90.01 ' +
      'TicketNumber:2201234567892 QuoteType:FULL RefundAmount:10.01',
    RefundPaxWiseFare: [
      { TicketNumber: '2201234567890', Amount: 110.01 },
      { TicketNumber: '2201234567891', Amount: 90.01 },
      { TicketNumber: '2201234567892', Amount: 10.01 },
    ],
  };
  for (const response of responses) {
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.OrderInvoluntaryCancelRS.Result, [expected]);
    assert.deepEqual(response.body.OrderInvoluntaryCancelRS.Success, {});
  }
  const ids = new Set(responses.map((response) => response.body.OrderInvoluntaryCancelRS.ShoppingResponseId));
  assert.equal(ids.size, 12, 'each response has its own ShoppingResponseId');

  const rows = await refundRows(service, 'ORD-P1');
  assert.deepEqual(
    rows.map((row) => [row.ticket_number, row.amount_minor]),
    [
      [TICKETS[0], 11001],
      [TICKETS[1], 9001],
      [TICKETS[2], 1001],
    ],
  );
  assert.deepEqual(await changeStatuses(service, 'ORD-P1', 'ABC123'), { 'ORD-P1-C': 'CANCELED' });
});

/** Either the voluntary cancel or the involuntary one won; the state and every answer must agree with that. */
async function assertConsistent(
  orderId: string,
  reference: string,
  responses: { kind: 'cancel' | 'involuntary'; response: any }[],
) {
  const state = await bookingState(service, orderId, reference);
  const refunds = await refundRows(service, orderId, reference);
  const changes = await changeStatuses(service, orderId, reference);
  assert.equal(state.status, 'CANCELED');
  for (const { response } of responses) assert.equal(response.status, 200, response.text);

  const cancels = responses.filter((r) => r.kind === 'cancel').map((r) => r.response.body.OrderViewRS.Response[0]);
  for (const item of cancels) {
    assert.deepEqual(item, {
      Status: 'SUCCESS',
      Msg: '',
      BookingStatus: 'CANCELED',
      OrderID: orderId,
      GdsBookingReference: reference,
    });
  }
  const involuntary = responses
    .filter((r) => r.kind === 'involuntary')
    .map((r) => r.response.body.OrderInvoluntaryCancelRS.Result[0]);

  if (state.cancellation === 'INVOLUNTARY') {
    assert.deepEqual(changes, { [`${orderId}-C`]: 'CANCELED' });
    assert.deepEqual(
      refunds.map((row) => row.ticket_number),
      TICKETS,
      'one refund row per ticket',
    );
    assert.deepEqual(
      couponsOf(state).map((coupons) => coupons.map(([, status]) => status)),
      [
        ['REFUNDED', 'REFUNDED'],
        ['REFUNDED', 'REFUNDED'],
        ['REFUNDED', 'REFUNDED'],
      ],
    );
    for (const item of involuntary) {
      assert.equal(item.Status, 'SUCCESS');
      assert.deepEqual(item, involuntary[0], 'every involuntary cancel answers with the same refund');
    }
    assert.equal(involuntary[0].RefundAmount, 210.03);
  } else {
    assert.equal(state.cancellation, 'VOLUNTARY');
    assert.deepEqual(changes, { [`${orderId}-C`]: 'CLOSED' });
    assert.deepEqual(refunds, [], 'a voluntary cancel refunds nothing');
    assert.deepEqual(
      couponsOf(state).map((coupons) => coupons.map(([, status]) => status)),
      [
        ['OPEN', 'OPEN'],
        ['OPEN', 'OPEN'],
        ['OPEN', 'OPEN'],
      ],
    );
    for (const item of involuntary) {
      assert.equal(item.Status, 'FAILED');
      assert.match(item.ErrorMsg, /^BOOKING_CANCELED: /);
      assert.deepEqual([item.RefundAmount, item.RefundText, item.RefundPaxWiseFare], [0, '', []]);
    }
  }
}

test('parallel voluntary and involuntary cancels on one booking end in a consistent state', async () => {
  for (let round = 0; round < 6; round += 1) {
    const orderId = `ORD-M${round}`;
    await importBookingWithPendingChange(orderId, 'ABC123');
    // Alternate which kind is sent first, so both winners are likely to be seen across rounds.
    const kinds = Array.from(
      { length: 12 },
      (_, i) => ((i + round) % 2 === 0 ? 'cancel' : 'involuntary') as 'cancel' | 'involuntary',
    );
    const responses = await Promise.all(
      kinds.map(async (kind) => ({
        kind,
        response:
          kind === 'cancel'
            ? await service.post('/AirOrderCancel', cancelRQ(orderId, ['ABC123']), bearer(token))
            : await service.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ(orderId, ['ABC123']), bearer(token)),
      })),
    );
    await assertConsistent(orderId, 'ABC123', responses);
  }
});

test('parallel involuntary cancels on different bookings of one order each refund exactly once', async () => {
  const tkt = (ticketNumber: string) => ({
    ticketNumber,
    baseFare: '50.00',
    taxes: '0.00',
    coupons: [{ segmentId: 'S1' }],
  });
  const references = ['AAA111', 'BBB222', 'CCC333', 'DDD444'];
  await service.importOrders([
    order(
      'ORD-P3',
      'AG1',
      'EUR',
      references.map((reference, i) => booking(reference, [segment('S1')], [passenger('P1', tkt(`220123456780${i}`))])),
    ),
  ]);
  await service.importChanges(
    references.map((reference) => change(`P3-${reference}`, 'ORD-P3', reference, ['S1'], [], 'FLIGHT_CANCELLATION')),
  );

  const requests = references.flatMap((reference) => [
    [reference],
    [reference.toLowerCase()],
    [...references].reverse(),
  ]);
  const responses = await Promise.all(
    requests.map((refs) =>
      service.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('ORD-P3', refs), bearer(token)),
    ),
  );
  for (const response of responses) {
    assert.equal(response.status, 200, response.text);
    const rs = response.body.OrderInvoluntaryCancelRS;
    assert.deepEqual(rs.Success, {});
    for (const item of rs.Result)
      assert.equal(
        item.RefundText,
        `TicketNumber:${'220123456780' + references.indexOf(item.GdsBookingReference[0])} QuoteType:FULL RefundAmount:50.00`,
      );
  }
  const rows = await refundRows(service, 'ORD-P3');
  assert.deepEqual(
    rows.map((row) => [row.reference, row.amount_minor]),
    references.map((reference) => [reference, 5000]),
  );
});

test('an order with refunds cannot be replaced by orders import --upsert: its tickets could be refunded again', async () => {
  await importBookingWithPendingChange('ORD-P4', 'UPS001');
  const cancelled = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('ORD-P4', ['UPS001']),
    bearer(token),
  );
  assert.equal(cancelled.status, 200, cancelled.text);
  const refunded = await refundRows(service, 'ORD-P4');
  assert.equal(refunded.length, 3);
  const again = order('ORD-P4', 'AG1', 'EUR', [booking('UPS001', [segment('S1', 1)], [passenger('P1', null)])]);
  await assert.rejects(
    service.importOrders([again], true),
    /record 1 \(order ORD-P4\): orderId ORD-P4 has refunds: replacing it would erase them/,
  );
  assert.deepEqual(await refundRows(service, 'ORD-P4'), refunded);
  assert.equal((await bookingState(service, 'ORD-P4', 'UPS001')).status, 'CANCELED');
});

const POSTGRES_ONLY =
  testStoreKind() === 'postgres'
    ? false
    : 'PostgreSQL only: SQLite runs one write transaction at a time, so nothing can interleave';

test(
  'PostgreSQL: a change import waits for a request holding the order, and checks the booking as that request left it',
  { skip: POSTGRES_ONLY },
  async () => {
    await service.importOrders([
      order('ORD-P5', 'AG1', 'EUR', [booking('CHG001', [segment('S1', 1)], [passenger('P1', null)])]),
    ]);
    // Another transaction holds the order and cancels the booking, as a request in flight would.
    const request = await holdAfter(service, [
      "select order_id from order_records where order_id = 'ORD-P5' for update",
      `update order_records set version = version + 1, record = jsonb_set(jsonb_set(record::jsonb, '{bookings,0,status}', '"CANCELED"'),
      '{bookings,0,cancellation}', '"VOLUNTARY"')::text where order_id = 'ORD-P5'`,
    ]);
    const importing = service.importChanges([change('P5-C', 'ORD-P5', 'CHG001', ['S1'], [segment('S1B', 1, 14)])]);
    try {
      await untilWaitingForLock(service);
    } finally {
      await request.release();
    }
    await importing;
    // Checked against the cancelled booking, the change awaits nothing: CLOSED, not PENDING.
    assert.deepEqual(await changeStatuses(service, 'ORD-P5', 'CHG001'), { 'P5-C': 'CLOSED' });
  },
);

test(
  'PostgreSQL: a request on an order being replaced (orders import --upsert) acts on the new order once it is in, not 404',
  { skip: POSTGRES_ONLY },
  async () => {
    await service.importOrders([
      order('ORD-P6', 'AG1', 'EUR', [booking('REP001', [segment('S1', 1)], [passenger('P1', null)])]),
    ]);
    // What an upsert does, held open: the order deleted and inserted anew in one transaction.
    const upsert = await holdAfter(service, [
      "create temp table saved_records as select * from order_records where order_id = 'ORD-P6'",
      "delete from order_records where order_id = 'ORD-P6'",
      'insert into order_records select * from saved_records',
    ]);
    const pending = service.post('/AirOrderCancel', cancelRQ('ORD-P6', ['REP001']), bearer(token));
    try {
      await untilWaitingForLock(service);
    } finally {
      await upsert.release();
    }
    const response = await pending;
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED');
    assert.equal((await bookingState(service, 'ORD-P6', 'REP001')).status, 'CANCELED');
  },
);
