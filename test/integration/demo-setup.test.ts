/**
 * The demo (src/demo/demo-setup.ts) set up in this process on the store this run is about: its
 * summary names an agency, a token and bookings that each example's operation can act on, and the
 * agency's API answers for them with that token. Set up again, it starts afresh.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setUpDemo } from '../../src/demo/demo-setup.js';
import { DEMO_AGENCY } from '../../src/demo/demo-data.js';
import { runSql } from '../../src/store/raw-sql.js';
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

/** What the demo agency's use left in the store: rows that only a request of its own writes. */
async function traces(): Promise<Record<string, number>> {
  const count = async (text: string) =>
    Number((await runSql<{ n: number | string }>(service.store.db, text, ['DEMO01']))[0]!.n);
  return {
    keptResponses: await count('select count(*) as n from idempotency_keys where agency_id = ?'),
    keptCount: await count('select coalesce(sum(kept), 0) as n from kept_response_counts where agency_id = ?'),
    cancelAudit: await count(
      "select count(*) as n from audit_log a join order_records r on r.order_id = a.order_id where r.agency_id = ? and a.operation = 'AirOrderCancel'",
    ),
    cancelEvents: await count(
      "select count(*) as n from event_log where agency_id = ? and entries like '%booking.canceled%'",
    ),
  };
}

async function pendingTally(): Promise<number> {
  return Number(
    (await runSql<{ n: number | string }>(service.store.db, 'select sum(pending) as n from change_tallies', []))[0]!.n,
  );
}

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
    { authorization: `Bearer ${first.token}`, 'idempotency-key': 'demo-cancel-1' },
  );
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.deepEqual(await traces(), { keptResponses: 1, keptCount: 1, cancelAudit: 1, cancelEvents: 1 });
  assert.equal(await pendingTally(), first.pendingChanges);

  const again = await setUpDemo(service.store, clock, 3);
  // The use is gone with the orders it was about: no kept response, trail or event of it is left,
  // and the tally of pending changes counts the new orders' once.
  assert.deepEqual(await traces(), { keptResponses: 0, keptCount: 0, cancelAudit: 0, cancelEvents: 0 });
  assert.equal(await pendingTally(), again.pendingChanges);
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
