/**
 * The demo (src/demo/demo-setup.ts) set up in this process on the store this run is about: its
 * summary names an agency, a token and bookings that each example's operation can act on, and the
 * agency's API answers for them with that token. Set up again, it starts afresh.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setUpDemo } from '../../src/demo/demo-setup.js';
import { DEMO_AGENCY } from '../../src/demo/demo-data.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const NOW = '2026-11-27T08:00:00.000Z';
const clock = () => NOW;

let service: TestService;
before(async () => {
  service = await startTestService({ clock });
});
after(() => service.close());

const retrieve = (token: string, example: { orderId: string; gdsBookingReference: string }) =>
  service.post(
    '/AirOrderRetrieve',
    { OrderRetrieveRQ: { Query: { OrderID: example.orderId, GdsBookingReference: [example.gdsBookingReference] } } },
    { authorization: `Bearer ${token}` },
  );

test('three demo orders: the agency, a working token, and the booking each example suits', async () => {
  const demo = await setUpDemo(service.store, clock, 3);
  const { token, ...rest } = demo;
  assert.deepEqual(rest, {
    agencyId: 'DEMO01',
    orders: 3,
    pendingChanges: 3,
    examples: {
      // The first booking no airline change touches; all its tickets unflown with fare rules, so also the refund's.
      cancel: { orderId: 'DEMO-000001', gdsBookingReference: 'A6TVR7' },
      // The first change that adds segments (a schedule change), and the first other one (a cancelled flight).
      involuntaryAccept: { orderId: 'DEMO-000002', gdsBookingReference: 'ERNTYN' },
      involuntaryCancel: { orderId: 'DEMO-000001', gdsBookingReference: '6XP2PZ' },
      voluntaryRefund: { orderId: 'DEMO-000001', gdsBookingReference: 'A6TVR7' },
    },
  });
  const agency = await service.store.read.findAgency('DEMO01');
  assert.equal(agency?.name, DEMO_AGENCY.name);
  assert.equal(agency?.iataNumber, DEMO_AGENCY.iataNumber);
  assert.equal(agency?.email, DEMO_AGENCY.email);

  for (const example of Object.values(demo.examples)) {
    const answer = await retrieve(token, example!);
    assert.equal(answer.status, 200, answer.text);
  }
  const changed = (await retrieve(token, demo.examples.involuntaryAccept!)).body;
  assert.match(JSON.stringify(changed), /SCHEDULE_CHANGE/);
  assert.match(JSON.stringify((await retrieve(token, demo.examples.involuntaryCancel!)).body), /FLIGHT_CANCELLATION/);
});

test('set up again after the demo was used: afresh, with a new token, the same examples', async () => {
  const first = await setUpDemo(service.store, clock, 3);
  const cancelled = await service.post(
    '/AirOrderCancel',
    {
      OrderCancelRQ: {
        Query: {
          OrderID: first.examples.cancel!.orderId,
          GdsBookingReference: [first.examples.cancel!.gdsBookingReference],
        },
      },
    },
    { authorization: `Bearer ${first.token}` },
  );
  assert.equal(cancelled.status, 200, cancelled.text);

  const again = await setUpDemo(service.store, clock, 3);
  assert.notEqual(again.token, first.token);
  assert.deepEqual({ ...again, token: '' }, { ...first, token: '' });
  const retrieved = await retrieve(again.token, again.examples.cancel!);
  assert.equal(retrieved.status, 200, retrieved.text);
  assert.doesNotMatch(retrieved.text, /CANCELLED/);
});

test('one demo order: its only airline change cancels a flight, so no example of accepting one', async () => {
  const demo = await setUpDemo(service.store, clock, 1);
  assert.equal(demo.orders, 1);
  assert.equal(demo.pendingChanges, 1);
  assert.deepEqual(demo.examples, {
    cancel: { orderId: 'DEMO-000001', gdsBookingReference: 'A6TVR7' },
    involuntaryAccept: null,
    involuntaryCancel: { orderId: 'DEMO-000001', gdsBookingReference: '6XP2PZ' },
    voluntaryRefund: { orderId: 'DEMO-000001', gdsBookingReference: 'A6TVR7' },
  });
});
