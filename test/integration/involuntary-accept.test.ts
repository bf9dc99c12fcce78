import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadOrder } from '../../src/store/repositories/orders-repository.js';
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
import { bookingState, changeStatuses, couponsOf, orderSnapshot } from '../helpers/booking-state.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
});
after(() => service.close());

async function accept(orderId: string, references: string[]) {
  const response = await service.post('/AirOrderInvoluntaryAccept', acceptRQ(orderId, references), bearer(token));
  assert.equal(response.status, 200, response.text);
  return response.body.OrderInvoluntaryAcceptRS;
}

const success = (orderId: string, reference: string) => ({
  OrderID: orderId,
  GdsBookingReference: [reference],
  ErrorMsg: '',
  Status: 'SUCCESS',
});

function assertFailed(rs: any, code: string) {
  assert.equal(rs.Result.length, 1);
  const [item] = rs.Result;
  assert.equal(item.Status, 'FAILED');
  assert.match(item.ErrorMsg, new RegExp(`^${code}: \\S`));
  assert.equal('Success' in rs, false);
  assert.deepEqual(
    rs.Errors.map((error: any) => error.Code),
    [code],
  );
}

/** EUR, one booking ABC123 over S1 (1 Dec) and S2 (5 Dec); two passengers, the second's S1 already flown. */
async function importTwoSegmentOrder(orderId: string) {
  await service.importOrders([
    order(orderId, 'AG1', 'EUR', [
      booking(
        'ABC123',
        [segment('S1', 1), segment('S2', 5)],
        [
          passenger('P1', {
            ticketNumber: '2201234567890',
            baseFare: '450.00',
            taxes: '120.50',
            coupons: [
              { segmentId: 'S1', status: 'OPEN', value: '300.00' },
              { segmentId: 'S2', status: 'OPEN', value: '270.50' },
            ],
          }),
          passenger(
            'P2',
            {
              ticketNumber: '2201234567891',
              baseFare: '100.00',
              taxes: '0.01',
              coupons: [
                { segmentId: 'S1', status: 'USED', value: '50.00' },
                { segmentId: 'S2', status: 'OPEN', value: '50.01' },
              ],
            },
            'CHD',
          ),
        ],
      ),
    ]),
  ]);
}

test('one-to-one: the itinerary becomes the changed one, coupons move with value and status, change ACCEPTED', async () => {
  await importTwoSegmentOrder('ORD-A1');
  await service.importChanges([change('A1-1', 'ORD-A1', 'ABC123', ['S2'], [segment('S2B', 6, 9)])]);
  const rs = await accept('ORD-A1', ['ABC123']);
  assert.deepEqual(rs.Result, [success('ORD-A1', 'ABC123')]);
  assert.deepEqual(rs.Success, {});
  assert.equal(rs.Errors, undefined);

  const state = await bookingState(service, 'ORD-A1', 'ABC123');
  assert.equal(state.status, 'CONFIRMED');
  assert.deepEqual(state.segments, [segment('S1', 1), segment('S2B', 6, 9)]);
  assert.deepEqual(couponsOf(state), [
    [
      ['S1', 'OPEN', 30000],
      ['S2B', 'OPEN', 27050],
    ],
    [
      ['S1', 'USED', 5000],
      ['S2B', 'OPEN', 5001],
    ],
  ]);
  assert.deepEqual(await changeStatuses(service, 'ORD-A1', 'ABC123'), { 'A1-1': 'ACCEPTED' });
});

test('counts differ: the removed value is split across the added segments, remainder to the first', async () => {
  await importTwoSegmentOrder('ORD-A2');
  await service.importChanges([
    change(
      'A2-1',
      'ORD-A2',
      'ABC123',
      ['S2'],
      [
        segment('S2X', 5, 8, ['JFK', 'ORD']),
        segment('S2Y', 5, 12, ['ORD', 'SFO']),
        segment('S2Z', 5, 16, ['SFO', 'LAX']),
      ],
      'ROUTING_CHANGE',
    ),
  ]);
  assert.deepEqual((await accept('ORD-A2', ['ABC123'])).Result, [success('ORD-A2', 'ABC123')]);

  // The domain view, as the service itself loads it.
  const loaded = await loadOrder(service.store.db, 'ORD-A2');
  const stored = loaded!.bookings[0]!;
  assert.deepEqual(
    stored.segments.map((s) => s.segmentId),
    ['S1', 'S2X', 'S2Y', 'S2Z'],
  );
  // 270.50 / 3 = 90.16 r 2; 50.01 / 3 = 16.67 r 0.
  assert.deepEqual(
    stored.passengers.map((p) => p.ticket!.coupons.map((c) => [c.segmentId, c.status, c.value])),
    [
      [
        ['S1', 'OPEN', 30000],
        ['S2X', 'OPEN', 9018],
        ['S2Y', 'OPEN', 9016],
        ['S2Z', 'OPEN', 9016],
      ],
      [
        ['S1', 'USED', 5000],
        ['S2X', 'OPEN', 1667],
        ['S2Y', 'OPEN', 1667],
        ['S2Z', 'OPEN', 1667],
      ],
    ],
  );
  assert.deepEqual(
    stored.changes.map((c) => [c.changeId, c.status]),
    [['A2-1', 'ACCEPTED']],
  );
  for (const p of stored.passengers) {
    const t = p.ticket!;
    assert.equal(
      t.coupons.reduce((sum, c) => sum + c.value, 0),
      t.baseFare + t.taxes,
      'value is conserved',
    );
  }
});

test('two removed, one added: the coupons merge into one', async () => {
  await service.importOrders([
    order('ORD-A3', 'AG1', 'JPY', [
      booking(
        'ABC123',
        [segment('S1', 1), segment('S2', 2)],
        [
          passenger('P1', {
            ticketNumber: '2201234567890',
            baseFare: '100000',
            taxes: '20001',
            coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
          }),
        ],
      ),
    ]),
  ]);
  assert.deepEqual(couponsOf(await bookingState(service, 'ORD-A3', 'ABC123')), [
    [
      ['S1', 'OPEN', 60001],
      ['S2', 'OPEN', 60000],
    ],
  ]);
  await service.importChanges([change('A3-1', 'ORD-A3', 'ABC123', ['S1', 'S2'], [segment('NX', 1, 20)])]);
  assert.deepEqual((await accept('ORD-A3', ['ABC123'])).Result, [success('ORD-A3', 'ABC123')]);
  const state = await bookingState(service, 'ORD-A3', 'ABC123');
  assert.deepEqual(
    state.segments.map((s) => s.segmentId),
    ['NX'],
  );
  assert.deepEqual(couponsOf(state), [[['NX', 'OPEN', 120001]]]);
});

test('several pending changes are accepted in detection order, not in id order', async () => {
  await service.importOrders([simpleOrder('ORD-A4', 'AG1', 'ABC123')]);
  // Z-FIRST was detected first; A-SECOND replaces the flight Z-FIRST added, so the order matters.
  await service.importChanges([
    change('Z-FIRST', 'ORD-A4', 'ABC123', ['S1'], [segment('N1', 1, 14)], 'SCHEDULE_CHANGE', '2026-11-20T08:00:00Z'),
    change(
      'A-SECOND',
      'ORD-A4',
      'ABC123',
      ['N1'],
      [segment('N2', 2, 6), segment('N3', 2, 11)],
      'FLIGHT_CANCELLATION',
      '2026-11-21T08:00:00Z',
    ),
  ]);
  assert.deepEqual((await accept('ORD-A4', ['ABC123'])).Result, [success('ORD-A4', 'ABC123')]);
  const state = await bookingState(service, 'ORD-A4', 'ABC123');
  assert.deepEqual(
    state.segments.map((s) => s.segmentId),
    ['N2', 'N3'],
  );
  assert.deepEqual(couponsOf(state), [
    [
      ['N2', 'OPEN', 28525],
      ['N3', 'OPEN', 28525],
    ],
  ]);
  assert.deepEqual(await changeStatuses(service, 'ORD-A4', 'ABC123'), {
    'Z-FIRST': 'ACCEPTED',
    'A-SECOND': 'ACCEPTED',
  });
});

test('retry after ACCEPTED: SUCCESS again and nothing changes', async () => {
  await service.importOrders([simpleOrder('ORD-A5', 'AG1', 'ABC123')]);
  await service.importChanges([change('A5-1', 'ORD-A5', 'ABC123', ['S1'], [segment('S1B', 1, 14)])]);
  const first = await accept('ORD-A5', ['ABC123']);
  const afterFirst = await orderSnapshot(service, 'ORD-A5');
  const second = await accept('ORD-A5', ['abc123']);
  assert.deepEqual(second.Result, first.Result);
  assert.deepEqual(second.Success, {});
  assert.deepEqual(await orderSnapshot(service, 'ORD-A5'), afterFirst);
});

/** EUR, one booking ABC123 over S1 (1 Dec) and S2 (5 Dec), one passenger, nothing flown. */
async function importOpenOrder(orderId: string) {
  await service.importOrders([
    order(orderId, 'AG1', 'EUR', [
      booking(
        'ABC123',
        [segment('S1', 1), segment('S2', 5)],
        [
          passenger('P1', {
            ticketNumber: '2201234567890',
            baseFare: '450.00',
            taxes: '120.50',
            coupons: [
              { segmentId: 'S1', value: '300.00' },
              { segmentId: 'S2', value: '270.50' },
            ],
          }),
        ],
      ),
    ]),
  ]);
}

test('a pending change that adds no segments: NO_REPLACEMENT_OFFERED, nothing changes', async () => {
  await importOpenOrder('ORD-A6');
  await service.importChanges([change('A6-1', 'ORD-A6', 'ABC123', ['S2'], [], 'FLIGHT_CANCELLATION')]);
  const before = await orderSnapshot(service, 'ORD-A6');
  assertFailed(await accept('ORD-A6', ['ABC123']), 'NO_REPLACEMENT_OFFERED');
  assert.deepEqual(await orderSnapshot(service, 'ORD-A6'), before);
  assert.deepEqual(await changeStatuses(service, 'ORD-A6', 'ABC123'), { 'A6-1': 'PENDING' });
});

test('with another, acceptable pending change: still NO_REPLACEMENT_OFFERED and neither is accepted', async () => {
  await importOpenOrder('ORD-A7');
  await service.importChanges([
    change('A7-1', 'ORD-A7', 'ABC123', ['S1'], [segment('S1B', 1, 14)], 'SCHEDULE_CHANGE', '2026-11-20T08:00:00Z'),
    change('A7-2', 'ORD-A7', 'ABC123', ['S2'], [], 'FLIGHT_CANCELLATION', '2026-11-21T08:00:00Z'),
  ]);
  const before = await orderSnapshot(service, 'ORD-A7');
  assertFailed(await accept('ORD-A7', ['ABC123']), 'NO_REPLACEMENT_OFFERED');
  assert.deepEqual(await orderSnapshot(service, 'ORD-A7'), before);
  assert.deepEqual(await changeStatuses(service, 'ORD-A7', 'ABC123'), { 'A7-1': 'PENDING', 'A7-2': 'PENDING' });
});

test('no change at all: NO_PENDING_CHANGE, nothing changes', async () => {
  await importOpenOrder('ORD-A8');
  const before = await orderSnapshot(service, 'ORD-A8');
  assertFailed(await accept('ORD-A8', ['ABC123']), 'NO_PENDING_CHANGE');
  assert.deepEqual(await orderSnapshot(service, 'ORD-A8'), before);
});

test('voluntarily cancelled with a change that was pending: BOOKING_CANCELED, the change stays CLOSED', async () => {
  await importOpenOrder('ORD-A9');
  await service.importChanges([change('A9-1', 'ORD-A9', 'ABC123', ['S1'], [segment('S1B', 1, 14)])]);
  const cancel = await service.post('/AirOrderCancel', cancelRQ('ORD-A9', ['ABC123']), bearer(token));
  assert.equal(cancel.body.OrderViewRS.Response[0].Status, 'SUCCESS');
  const before = await orderSnapshot(service, 'ORD-A9');
  assertFailed(await accept('ORD-A9', ['ABC123']), 'BOOKING_CANCELED');
  assert.deepEqual(await orderSnapshot(service, 'ORD-A9'), before);
  assert.deepEqual(await changeStatuses(service, 'ORD-A9', 'ABC123'), { 'A9-1': 'CLOSED' });
});

test('cancelled because of the change: BOOKING_CANCELED', async () => {
  await importOpenOrder('ORD-A10');
  await service.importChanges([change('A10-1', 'ORD-A10', 'ABC123', ['S1'], [segment('S1B', 1, 14)])]);
  const cancel = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('ORD-A10', ['ABC123']),
    bearer(token),
  );
  assert.equal(cancel.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS');
  assertFailed(await accept('ORD-A10', ['ABC123']), 'BOOKING_CANCELED');
  assert.deepEqual(await changeStatuses(service, 'ORD-A10', 'ABC123'), { 'A10-1': 'CANCELED' });
});

test('mixed outcomes: HTTP 200, Errors, the accepted booking committed, the failed ones untouched, request order kept', async () => {
  const open = (reference: string, ticketNumber: string) =>
    booking(
      reference,
      [segment('S1', 1), segment('S2', 5)],
      [
        passenger('P1', {
          ticketNumber,
          baseFare: '100.00',
          taxes: '0.00',
          coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
        }),
      ],
    );
  await service.importOrders([
    order('ORD-A11', 'AG1', 'EUR', [
      open('AAA111', '2201234567890'),
      open('BBB222', '2201234567891'),
      open('CCC333', '2201234567892'),
    ]),
  ]);
  await service.importChanges([
    change('A11-A', 'ORD-A11', 'AAA111', ['S2'], [segment('S2B', 6)]),
    change('A11-C', 'ORD-A11', 'CCC333', ['S2'], []),
  ]);
  const beforeB = await bookingState(service, 'ORD-A11', 'BBB222');
  const beforeC = await bookingState(service, 'ORD-A11', 'CCC333');
  const rs = await accept('ORD-A11', ['CCC333', 'AAA111', 'BBB222']);
  assert.deepEqual(
    rs.Result.map((item: any) => [item.GdsBookingReference, item.Status, item.ErrorMsg.split(':')[0]]),
    [
      [['CCC333'], 'FAILED', 'NO_REPLACEMENT_OFFERED'],
      [['AAA111'], 'SUCCESS', ''],
      [['BBB222'], 'FAILED', 'NO_PENDING_CHANGE'],
    ],
  );
  assert.equal('Success' in rs, false);
  assert.deepEqual(rs.Errors.map((error: any) => error.Code).sort(), ['NO_PENDING_CHANGE', 'NO_REPLACEMENT_OFFERED']);
  assert.deepEqual(
    (await bookingState(service, 'ORD-A11', 'AAA111')).segments.map((s) => s.segmentId),
    ['S1', 'S2B'],
  );
  assert.deepEqual(await changeStatuses(service, 'ORD-A11', 'AAA111'), { 'A11-A': 'ACCEPTED' });
  assert.deepEqual(await bookingState(service, 'ORD-A11', 'BBB222'), beforeB);
  assert.deepEqual(await bookingState(service, 'ORD-A11', 'CCC333'), beforeC);
  assert.deepEqual(await changeStatuses(service, 'ORD-A11', 'CCC333'), { 'A11-C': 'PENDING' });
});

test("coupons move in the change's order, whatever order the ticket lists them in", async () => {
  await service.importOrders([
    order('ORD-CPO', 'AG1', 'EUR', [
      booking(
        'CPO001',
        [segment('S1', 1), segment('S2', 5)],
        [
          passenger('P1', {
            ticketNumber: '2201234567801',
            baseFare: '400.00',
            taxes: '0.00',
            coupons: [
              { segmentId: 'S2', value: '300.00' },
              { segmentId: 'S1', value: '100.00' },
            ],
          }),
        ],
      ),
    ]),
  ]);
  await service.importChanges([
    change('CPO-C', 'ORD-CPO', 'CPO001', ['S1', 'S2'], [segment('A', 1, 14), segment('B', 5, 14)]),
  ]);
  assert.equal((await accept('ORD-CPO', ['CPO001'])).Result[0].Status, 'SUCCESS');
  assert.deepEqual(couponsOf(await bookingState(service, 'ORD-CPO', 'CPO001')), [
    [
      ['A', 'OPEN', 10000],
      ['B', 'OPEN', 30000],
    ],
  ]);
});

test('a refunded coupon split by a change is not refunded again by an involuntary cancel', async () => {
  await service.importOrders([
    order('ORD-RFS', 'AG1', 'EUR', [
      booking(
        'RFS001',
        [segment('S1', 1), segment('S2', 5)],
        [
          passenger('P1', {
            ticketNumber: '2201234567802',
            baseFare: '200.00',
            taxes: '0.00',
            coupons: [
              { segmentId: 'S1', status: 'REFUNDED', value: '100.00' },
              { segmentId: 'S2', value: '100.00' },
            ],
          }),
        ],
      ),
    ]),
  ]);
  await service.importChanges([
    change('RFS-C1', 'ORD-RFS', 'RFS001', ['S1'], [segment('A1', 1, 12), segment('A2', 1, 16)]),
  ]);
  assert.equal((await accept('ORD-RFS', ['RFS001'])).Result[0].Status, 'SUCCESS');
  await service.importChanges([
    change('RFS-C2', 'ORD-RFS', 'RFS001', ['S2'], [], 'FLIGHT_CANCELLATION', '2026-11-21T08:00:00Z'),
  ]);
  const response = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('ORD-RFS', ['RFS001']),
    bearer(token),
  );
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(response.body.OrderInvoluntaryCancelRS.Result[0].RefundPaxWiseFare, [
    { TicketNumber: '2201234567802', Amount: 100 },
  ]);
});
