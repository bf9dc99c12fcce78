/**
 * A change of an order is decided on the order as it is when it is written, on both stores
 * (docs/decisions.md, "Optimistic writes on PostgreSQL"). Another writer cancels a booking while an
 * AirOrderInvoluntaryCancel on it is in flight: on PostgreSQL the request has already read the
 * booking and decided, and its write, refused because the order's version moved on meanwhile, is
 * decided again on the cancelled booking; on SQLite the request reads only once the other writer
 * is done. Either way it answers BOOKING_CANCELED and stores nothing: no refund, no version.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { runSql } from '../../src/store/raw-sql.js';
import { bookingState, refundRows } from '../helpers/booking-state.js';
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
import { holdAfter, untilWaitingForLock, type StoreHold } from '../helpers/store-hold.js';
import { testStoreKind } from '../helpers/test-database.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
});
after(() => service.close());

async function importBooking(orderId: string, reference: string, ticketNumber: string): Promise<void> {
  await service.importOrders([
    order(orderId, 'AG1', 'EUR', [
      booking(
        reference,
        [segment('S1', 1), segment('S2', 8)],
        [
          passenger('P1', {
            ticketNumber,
            baseFare: '100.00',
            taxes: '10.00',
            coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
          }),
        ],
      ),
    ]),
  ]);
  await service.importChanges([change(`${orderId}-C`, orderId, reference, ['S2'], [], 'FLIGHT_CANCELLATION')]);
}

async function versionOf(orderId: string): Promise<number> {
  const [row] = await runSql<{ version: number | string }>(
    service.store.db,
    'select version from order_records where order_id = ?',
    [orderId],
  );
  assert.ok(row, orderId);
  return Number(row.version);
}

/**
 * Another client's open transaction that has cancelled the order's first booking voluntarily and
 * moved the order's version on, as a request of another process would; committed on release.
 */
async function cancelElsewhere(orderId: string): Promise<StoreHold> {
  if (testStoreKind() === 'postgres') {
    return holdAfter(service, [
      `select order_id from order_records where order_id = '${orderId}' for update`,
      `update order_records set version = version + 1, record = jsonb_set(jsonb_set(record::jsonb,
        '{bookings,0,status}', '"CANCELED"'), '{bookings,0,cancellation}', '"VOLUNTARY"')::text
        where order_id = '${orderId}'`,
    ]);
  }
  const db = new Database(service.databaseUrl.slice('sqlite:'.length));
  db.exec('begin immediate');
  db.prepare(
    `update order_records set version = version + 1, record = jsonb(json_set(json(record),
      '$.bookings[0].status', 'CANCELED', '$.bookings[0].cancellation', 'VOLUNTARY')) where order_id = ?`,
  ).run(orderId);
  return {
    release: async () => {
      db.exec('commit');
      db.close();
    },
  };
}

test('a booking cancelled by another writer while an involuntary cancel is in flight: BOOKING_CANCELED, nothing stored', async () => {
  await importBooking('ORD-VR1', 'VRC001', '2209999000001');
  const before = await versionOf('ORD-VR1');
  const hold = await cancelElsewhere('ORD-VR1');
  let pending;
  try {
    pending = service.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('ORD-VR1', ['VRC001']), bearer(token));
    await untilWaitingForLock(service);
  } finally {
    await hold.release();
  }
  const response = await pending;
  assert.equal(response.status, 200, response.text);
  const root = response.body.OrderInvoluntaryCancelRS;
  assert.deepEqual(
    root.Errors.map((error: { Code: string }) => error.Code),
    ['BOOKING_CANCELED'],
  );
  assert.deepEqual(await refundRows(service, 'ORD-VR1'), []);
  const state = await bookingState(service, 'ORD-VR1', 'VRC001');
  assert.equal(state.status, 'CANCELED');
  assert.equal(state.cancellation, 'VOLUNTARY');
  assert.equal(await versionOf('ORD-VR1'), before + 1, "only the other writer's change moved the version on");
});

test('a change on another booking of the order, made meanwhile, is kept: the request is decided again on top of it', async () => {
  await service.importOrders([
    order('ORD-VR2', 'AG1', 'EUR', [
      booking('VRC002', [segment('S1', 1)], [passenger('P1', null)]),
      booking('VRC003', [segment('S1', 1)], [passenger('P1', null)]),
    ]),
  ]);
  const before = await versionOf('ORD-VR2');
  // The other writer cancels the first booking (VRC002); the request cancels the second.
  const hold = await cancelElsewhere('ORD-VR2');
  let pending;
  try {
    pending = service.post('/AirOrderCancel', cancelRQ('ORD-VR2', ['VRC003']), bearer(token));
    await untilWaitingForLock(service);
  } finally {
    await hold.release();
  }
  const response = await pending;
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED');
  assert.equal((await bookingState(service, 'ORD-VR2', 'VRC002')).status, 'CANCELED', "the other writer's change");
  assert.equal((await bookingState(service, 'ORD-VR2', 'VRC003')).status, 'CANCELED', "the request's change");
  assert.equal(await versionOf('ORD-VR2'), before + 2, 'each write moved the version on once');
});
