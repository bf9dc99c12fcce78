/**
 * Whatever changes an order moves its version and its update time on, on both stores: the console
 * lists orders by that time, and on PostgreSQL a change decided on an older version is refused
 * (docs/decisions.md, "Optimistic writes on PostgreSQL"). Each operation is made twice on one order,
 * on two of its bookings, at two instants of an injected clock; the order's row is read from SQL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { runSql } from '../../src/store/raw-sql.js';
import { ConsoleClient } from '../helpers/console-client.js';
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
} from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const EMAIL = 'versions@airline.example';
const PASSWORD = 'correct horse battery';
let instant = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;
let token: string;
let tickets = 0;

before(async () => {
  service = await startTestService({ clock: () => new Date(instant).toISOString() });
  token = await service.tokenFor('AGV');
  await addOperator(service.store, () => new Date(instant).toISOString(), {
    email: EMAIL,
    name: 'Versions Desk',
    password: PASSWORD,
  });
});
after(() => service?.close());

/** An order of two bookings, each with one ticket and, when asked, a pending airline change. */
async function twoBookingOrder(orderId: string, withChanges: boolean): Promise<[string, string]> {
  const references: [string, string] = [`${orderId.slice(-3)}A01`, `${orderId.slice(-3)}B02`];
  await service.importOrders([
    order(
      orderId,
      'AGV',
      'EUR',
      references.map((reference) =>
        booking(
          reference,
          [segment('S1')],
          [
            passenger('P1', {
              ticketNumber: String(2204440000000 + ++tickets),
              baseFare: '450.00',
              taxes: '120.50',
              coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
            }),
          ],
        ),
      ),
    ),
  ]);
  if (withChanges) {
    await service.importChanges(
      references.map((reference) => change(`CHG-${reference}`, orderId, reference, ['S1'], [segment('S1B', 1, 14)])),
    );
  }
  return references;
}

async function versionOf(orderId: string): Promise<{ version: number; updatedAt: string }> {
  const [row] = await runSql<{ version: number | string; updated_at: string }>(
    service.store.reader,
    'select version, updated_at from orders where order_id = ?',
    [orderId],
  );
  return { version: Number(row!.version), updatedAt: new Date(row!.updated_at).toISOString() };
}

async function consoleAct(orderId: string, reference: string, action: 'accept' | 'cancel'): Promise<void> {
  const browser = new ConsoleClient(service.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  const path = `/console/orders/${orderId}/bookings/${reference}/${action}`;
  const done = await browser.submit(path, path, { reason: 'Agency asked by phone' });
  assert.equal(done.status, 303, done.text.slice(0, 300));
}

/** An API operation on one booking; `items` names where its answer lists the items. */
async function api(path: string, body: object, root: string, items = 'Result'): Promise<void> {
  const response = await service.post(path, body, bearer(token));
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body[root][items][0].Status, 'SUCCESS', response.text);
}

const operations: {
  name: string;
  orderId: string;
  changes: boolean;
  make: (orderId: string, reference: string) => Promise<void>;
}[] = [
  {
    name: 'AirOrderCancel',
    orderId: 'VER-CAN',
    changes: false,
    make: (orderId, reference) => api('/AirOrderCancel', cancelRQ(orderId, [reference]), 'OrderViewRS', 'Response'),
  },
  {
    name: 'AirOrderInvoluntaryAccept',
    orderId: 'VER-ACC',
    changes: true,
    make: (orderId, reference) =>
      api('/AirOrderInvoluntaryAccept', acceptRQ(orderId, [reference]), 'OrderInvoluntaryAcceptRS'),
  },
  {
    name: 'AirOrderInvoluntaryCancel',
    orderId: 'VER-INV',
    changes: true,
    make: (orderId, reference) =>
      api('/AirOrderInvoluntaryCancel', involuntaryCancelRQ(orderId, [reference]), 'OrderInvoluntaryCancelRS'),
  },
  {
    name: "the console's accept",
    orderId: 'VER-CSA',
    changes: true,
    make: (orderId, reference) => consoleAct(orderId, reference, 'accept'),
  },
  {
    name: "the console's cancel with refund",
    orderId: 'VER-CSC',
    changes: true,
    make: (orderId, reference) => consoleAct(orderId, reference, 'cancel'),
  },
];

for (const { name, orderId, changes, make } of operations) {
  test(`${name} moves the order's version and update time on, and a second one moves them again`, async () => {
    const [first, second] = await twoBookingOrder(orderId, changes);
    const imported = await versionOf(orderId);
    assert.equal(imported.updatedAt, new Date(instant).toISOString());

    instant += 60_000;
    await make(orderId, first);
    assert.deepEqual(
      await versionOf(orderId),
      { version: imported.version + 1, updatedAt: new Date(instant).toISOString() },
      'after the first',
    );

    instant += 60_000;
    await make(orderId, second);
    assert.deepEqual(
      await versionOf(orderId),
      { version: imported.version + 2, updatedAt: new Date(instant).toISOString() },
      'after the second',
    );
  });
}

test('a cancel of a booking already cancelled, kept under its Idempotency-Key, changes nothing of the order: neither its version nor its update time', async () => {
  const [first] = await twoBookingOrder('VER-KEPT', false);
  instant += 60_000;
  await api('/AirOrderCancel', cancelRQ('VER-KEPT', [first]), 'OrderViewRS', 'Response');
  const cancelled = await versionOf('VER-KEPT');

  instant += 60_000;
  const key = { ...bearer(token), 'idempotency-key': 'ver-kept-refusal' };
  const again = await service.post('/AirOrderCancel', cancelRQ('VER-KEPT', [first]), key);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(
    [again.body.OrderViewRS.Response[0].Status, again.body.OrderViewRS.Response[0].BookingStatus],
    ['SUCCESS', 'CANCELED'],
  );
  const replayed = await service.post('/AirOrderCancel', cancelRQ('VER-KEPT', [first]), key);
  assert.equal(replayed.headers.get('idempotent-replayed'), 'true', 'the answer was kept');
  assert.deepEqual(await versionOf('VER-KEPT'), cancelled);
});
