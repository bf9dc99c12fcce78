import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditTrail } from '../../src/store/repositories/audit-repository.js';
import { runSql } from '../../src/store/raw-sql.js';
import { DeadlineScheduler } from '../../src/service/deadline-scheduler.js';
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
import { startTestService, type TestService } from '../helpers/test-service.js';

/**
 * Deadlines on a controlled clock: no test waits for real time. The scheduler is driven by its
 * tick(), as `serve` drives it every second; requests see the same clock.
 */
let now = '2026-11-21T09:00:00.000Z';
const clock = () => now;
const HOUR = 3_600_000;
const at = (base: string, hours: number) => new Date(Date.parse(base) + hours * HOUR).toISOString();

let service: TestService;
let token: string;
let scheduler: DeadlineScheduler;
const quiet = { info: () => {}, warn: () => {} };

before(async () => {
  service = await startTestService({ clock });
  token = await service.tokenFor('AG1');
  scheduler = new DeadlineScheduler(service.store, clock, 24 * HOUR, quiet);
});
after(() => service.close());

async function eventsOf(orderId: string) {
  const rows = await runSql<{ type: string; data: string }>(
    service.store.reader,
    'select type, data from events where agency_id = ? order by tx, position',
    ['AG1'],
  );
  return rows
    .map((row) => ({ type: row.type, data: JSON.parse(row.data) }))
    .filter((event) => event.data.OrderID === orderId);
}

async function retrieve(orderId: string, reference: string) {
  const response = await service.post(
    '/AirOrderRetrieve',
    { OrderRetrieveRQ: { Query: { OrderID: orderId, GdsBookingReference: [reference] } } },
    bearer(token),
  );
  assert.equal(response.status, 200, response.text);
  return response.body.OrderViewRS.Order.Bookings[0];
}

async function refundCount(orderId: string): Promise<number> {
  const [row] = await runSql<{ n: number | string }>(
    service.store.reader,
    'select count(*) as n from refunds where order_id = ?',
    [orderId],
  );
  return Number(row!.n);
}

test('an ACCEPT deadline: warned once a day ahead, then accepted by the scheduler as the agency would, by system/deadline', async () => {
  now = '2026-11-21T09:00:00.000Z';
  const deadline = at(now, 48);
  await service.importOrders([simpleOrder('DL-1', 'AG1', 'DLA001', '2201234560001')]);
  await service.importChanges([
    { ...change('DLC-1', 'DL-1', 'DLA001', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: deadline },
  ]);
  assert.deepEqual((await retrieve('DL-1', 'DLA001')).AirlineChanges[0].ActionDeadline, deadline);

  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 0 }, '48 h ahead: nothing yet');
  now = at(deadline, -23);
  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 1 });
  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 0 }, 'warned once');
  const warned = (await eventsOf('DL-1')).filter((event) => event.type === 'airline_change.deadline_approaching');
  assert.equal(warned.length, 1);
  assert.deepEqual(warned[0]!.data.AvailableActions, ['ACCEPT', 'CANCEL']);
  assert.equal(warned[0]!.data.Change.ActionDeadline, deadline);
  assert.equal(warned[0]!.data.RefundQuote.Amount, 570.5);

  now = at(deadline, -0.001);
  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 0 }, 'not before the deadline');
  now = deadline;
  assert.deepEqual(await scheduler.tick(), { applied: 1, warned: 0 });
  const shown = await retrieve('DL-1', 'DLA001');
  assert.deepEqual(
    shown.Segments.map((s: any) => s.SegmentID),
    ['S1B'],
  );
  assert.equal(shown.AirlineChanges[0].Status, 'ACCEPTED');
  assert.equal(shown.RefundQuote, undefined, 'nothing pending: no quote');

  const trail = await auditTrail(service.store.reader, 'DL-1');
  const byDeadline = trail.filter((event) => event.operation === 'deadline');
  assert.ok(byDeadline.length >= 2);
  assert.ok(
    byDeadline.every((event) => event.actor === 'system' && event.agencyId === null && event.occurredAt === deadline),
  );
  assert.deepEqual(byDeadline[0]!.detail, { consequence: 'ACCEPT', changeIds: ['DLC-1'] });
  assert.equal(byDeadline[0]!.event, 'DEADLINE_PASSED');
  const resolved = (await eventsOf('DL-1')).filter((event) => event.type === 'airline_change.resolved');
  assert.deepEqual(
    resolved.map((event) => [event.data.Change.Status, event.data.ResolvedBy]),
    [['ACCEPTED', 'DEADLINE']],
  );

  // The agency's accept afterwards is a retry of what the deadline did.
  const accept = await service.post('/AirOrderInvoluntaryAccept', acceptRQ('DL-1', ['DLA001']), bearer(token));
  assert.equal(accept.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'SUCCESS');
  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 0 });
});

test('a CANCEL deadline (nothing replaces the flight): cancelled and refunded with events, as AirOrderInvoluntaryCancel would', async () => {
  now = '2026-11-21T09:00:00.000Z';
  await service.importOrders([
    order('DL-2', 'AG1', 'JPY', [
      booking(
        'DLA002',
        [segment('S1'), segment('S2', 3)],
        [
          passenger('P1', {
            ticketNumber: '2201234560002',
            baseFare: '30000',
            taxes: '1001',
            coupons: [
              { segmentId: 'S1', status: 'USED', value: '15000' },
              { segmentId: 'S2', status: 'OPEN', value: '16001' },
            ],
          }),
        ],
      ),
    ]),
  ]);
  await service.importChanges([
    { ...change('DLC-2', 'DL-2', 'DLA002', ['S2'], [], 'FLIGHT_CANCELLATION'), actionDeadline: at(now, 1) },
  ]);
  now = at(now, 2);
  assert.deepEqual(await scheduler.tick(), { applied: 1, warned: 0 });
  const shown = await retrieve('DL-2', 'DLA002');
  assert.equal(shown.BookingStatus, 'CANCELED');
  assert.deepEqual(shown.Refunds, [
    { TicketNumber: '2201234560002', Amount: 16001, QuoteType: 'PARTIAL', CreatedAt: now },
  ]);
  assert.deepEqual(
    (await eventsOf('DL-2')).map((event) => event.type),
    ['airline_change.detected', 'airline_change.resolved', 'booking.canceled', 'booking.refunded'],
  );
  const refunded = (await eventsOf('DL-2')).at(-1)!;
  assert.deepEqual(refunded.data, {
    OrderID: 'DL-2',
    GdsBookingReference: 'DLA002',
    Currency: 'JPY',
    RefundAmount: 16001,
    Tickets: [{ TicketNumber: '2201234560002', Amount: 16001, QuoteType: 'PARTIAL' }],
    RefundedBy: 'DEADLINE',
  });

  // The agency's involuntary cancel afterwards answers with the stored refund and refunds nothing again.
  const again = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('DL-2', ['DLA002']),
    bearer(token),
  );
  assert.equal(again.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 16001);
  assert.equal(await refundCount('DL-2'), 1);
});

test('a request on a booking whose deadline has passed gets the consequence first, without the scheduler', async () => {
  now = '2026-11-21T09:00:00.000Z';
  await service.importOrders([
    simpleOrder('DL-3', 'AG1', 'DLA003', '2201234560003'),
    simpleOrder('DL-4', 'AG1', 'DLA004', '2201234560004'),
  ]);
  await service.importChanges([
    {
      ...change('DLC-3', 'DL-3', 'DLA003', ['S1'], [segment('S1B', 1, 14)]),
      actionDeadline: at(now, 1),
      consequenceOfInaction: 'CANCEL',
    },
    { ...change('DLC-4', 'DL-4', 'DLA004', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: at(now, 1) },
  ]);
  now = at(now, 1);
  // CANCEL was the airline's default: the accept comes too late.
  const accept = await service.post('/AirOrderInvoluntaryAccept', acceptRQ('DL-3', ['DLA003']), bearer(token));
  assert.equal(accept.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'FAILED');
  assert.match(accept.body.OrderInvoluntaryAcceptRS.Result[0].ErrorMsg, /^BOOKING_CANCELED: /);
  assert.equal(await refundCount('DL-3'), 1);
  // ACCEPT was the default: reading shows the accepted itinerary, and the agency's cancel then cancels it voluntarily.
  assert.equal((await retrieve('DL-4', 'DLA004')).AirlineChanges[0].Status, 'ACCEPTED');
  const cancel = await service.post('/AirOrderCancel', cancelRQ('DL-4', ['DLA004']), bearer(token));
  assert.equal(cancel.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED');
  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 0 }, 'nothing left for the scheduler');
});

test('the scheduler and requests racing on one booking past its deadline: one outcome, one refund, one set of events', async () => {
  now = '2026-11-21T09:00:00.000Z';
  const referenceOf = (index: number) => `DLR00${index}`;
  const orders = Array.from({ length: 6 }, (_, index) =>
    simpleOrder(`DLR-${index}`, 'AG1', referenceOf(index), `220123457000${index}`),
  );
  await service.importOrders(orders);
  await service.importChanges(
    orders.map((document, index) => ({
      ...change(`DLRC-${index}`, document.orderId, referenceOf(index), ['S1'], [], 'FLIGHT_CANCELLATION'),
      actionDeadline: at(now, 1),
    })),
  );
  now = at(now, 1);
  const requests = orders.flatMap((document, index) =>
    [0, 1, 2].map(() =>
      service.post(
        '/AirOrderInvoluntaryCancel',
        involuntaryCancelRQ(document.orderId, [referenceOf(index)]),
        bearer(token),
      ),
    ),
  );
  const [round, ...responses] = await Promise.all([scheduler.tick(), ...requests]);
  assert.ok(round !== null && round.applied <= orders.length);
  for (const response of responses) {
    const item = response.body.OrderInvoluntaryCancelRS.Result[0];
    assert.deepEqual([item.Status, item.RefundAmount], ['SUCCESS', 570.5], response.text);
  }
  for (const document of orders) {
    assert.equal(await refundCount(document.orderId), 1, document.orderId);
    const types = (await eventsOf(document.orderId)).map((event) => event.type);
    assert.deepEqual(
      types,
      ['airline_change.detected', 'airline_change.resolved', 'booking.canceled', 'booking.refunded'],
      document.orderId,
    );
  }
});

test('a second process does not run deadlines while the first holds the lease', async () => {
  const other = new DeadlineScheduler(service.store, clock, 24 * HOUR, quiet);
  assert.notEqual(await scheduler.tick(), null);
  assert.equal(await other.tick(), null);
  await scheduler.stop();
  assert.notEqual(await other.tick(), null, 'released at stop: the other takes over at once');
  await other.stop();
});

test('the change document: a bad actionDeadline or consequence is refused with its field; ACCEPT needs a replacement', async () => {
  await service.importOrders([simpleOrder('DL-5', 'AG1', 'DLA005', '2201234560005')]);
  const base = change('DLC-5', 'DL-5', 'DLA005', ['S1'], []);
  await assert.rejects(
    service.importChanges([{ ...base, actionDeadline: 'tomorrow' }]),
    /record 1 \(order DL-5\): actionDeadline must be an ISO-8601 date-time/,
  );
  await assert.rejects(
    service.importChanges([{ ...base, consequenceOfInaction: 'WAIT' }]),
    /record 1 \(order DL-5\): consequenceOfInaction must be one of ACCEPT, CANCEL/,
  );
  await assert.rejects(
    service.importChanges([{ ...base, consequenceOfInaction: 'ACCEPT' }]),
    /record 1 \(order DL-5\): consequenceOfInaction is ACCEPT, but the change adds no flight/,
  );
});

test('a deadline is a timer: an agency resolving the change leaves it alone; when it falls due the scheduler finds the change resolved, applies nothing and stops it', async () => {
  now = '2026-11-21T09:00:00.000Z';
  const deadline = at(now, 48);
  await service.importOrders([simpleOrder('DL-T', 'AG1', 'DLT001', '2201234560091')]);
  await service.importChanges([
    { ...change('DLC-T', 'DL-T', 'DLT001', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: deadline },
  ]);
  const timer = async () =>
    (
      await runSql<{ due_at: string | null; warned_at: string | null }>(
        service.store.reader,
        'select due_at, warned_at from airline_change_timers where change_id = ?',
        ['DLC-T'],
      )
    )[0];
  assert.deepEqual(await timer(), { due_at: deadline, warned_at: null }, 'written with the change');

  const accepted = await service.post('/AirOrderInvoluntaryAccept', acceptRQ('DL-T', ['DLT001']), bearer(token));
  assert.equal(accepted.status, 200, accepted.text);
  assert.deepEqual(await timer(), { due_at: deadline, warned_at: null }, 'the accept left the timer as it was');

  now = at(deadline, -23);
  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 0 }, 'a resolved change is not announced');
  assert.deepEqual(await timer(), { due_at: null, warned_at: null }, 'its timer stopped instead');
  now = at(deadline, 1);
  assert.deepEqual(await scheduler.tick(), { applied: 0, warned: 0 });
  const trail = await auditTrail(service.store.reader, 'DL-T');
  assert.deepEqual(
    trail.filter((event) => event.operation === 'deadline'),
    [],
    'nothing was done by the deadline',
  );
  assert.equal((await retrieve('DL-T', 'DLT001')).AirlineChanges[0].Status, 'ACCEPTED');
});

test('a timer that falls due on a change the agency resolved is stopped by the scheduler, and the next due timers are reached', async () => {
  now = '2026-11-21T09:00:00.000Z';
  const deadline = at(now, 2);
  await service.importOrders([
    simpleOrder('DL-U', 'AG1', 'DLU001', '2201234560092'),
    simpleOrder('DL-V', 'AG1', 'DLV001', '2201234560093'),
  ]);
  await service.importChanges([
    { ...change('DLC-U', 'DL-U', 'DLU001', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: deadline },
    { ...change('DLC-V', 'DL-V', 'DLV001', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: at(deadline, 0.5) },
  ]);
  const accepted = await service.post('/AirOrderInvoluntaryAccept', acceptRQ('DL-U', ['DLU001']), bearer(token));
  assert.equal(accepted.status, 200, accepted.text);
  now = at(deadline, 1);
  assert.deepEqual(await scheduler.tick(), { applied: 1, warned: 0 }, 'DL-V applied; DL-U only stopped');
  const due = await runSql<{ change_id: string }>(
    service.store.reader,
    "select change_id from airline_change_timers where change_id in ('DLC-U', 'DLC-V') and due_at is not null",
    [],
  );
  assert.deepEqual(due, []);
  assert.equal((await retrieve('DL-V', 'DLV001')).AirlineChanges[0].Status, 'ACCEPTED');
});

test('a lease not renewed is taken over once its 4 s have passed, not before', async () => {
  now = '2026-11-21T09:00:00.000Z';
  await scheduler.stop();
  const first = new DeadlineScheduler(service.store, clock, 24 * HOUR, quiet);
  const second = new DeadlineScheduler(service.store, clock, 24 * HOUR, quiet);
  assert.notEqual(await first.tick(), null);
  now = '2026-11-21T09:00:03.999Z';
  assert.equal(await second.tick(), null, 'still held');
  now = '2026-11-21T09:00:04.000Z';
  assert.notEqual(await second.tick(), null, 'expired: taken over');
  assert.equal(await first.tick(), null, 'the first no longer holds it');
  await second.stop();
  await first.stop();
});

test('a round that applied or warned is logged with its counts; an empty round is not', async () => {
  now = '2026-11-21T09:00:00.000Z';
  const lines: [object, string][] = [];
  const logged = new DeadlineScheduler(service.store, clock, 24 * HOUR, {
    info: (detail, message) => lines.push([detail, message]),
    warn: (detail, message) => lines.push([detail, message]),
  });
  await service.importOrders([simpleOrder('DL-L', 'AG1', 'DLL001', '2201234560094')]);
  await service.importChanges([
    { ...change('DLC-L', 'DL-L', 'DLL001', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: at(now, 30) },
  ]);
  assert.deepEqual(await logged.tick(), { applied: 0, warned: 0 });
  assert.deepEqual(lines, []);
  now = at(now, 10);
  assert.deepEqual(await logged.tick(), { applied: 0, warned: 1 });
  now = at(now, 21);
  assert.deepEqual(await logged.tick(), { applied: 1, warned: 0 });
  assert.deepEqual(lines, [
    [{ applied: 0, warned: 1 }, 'deadlines'],
    [{ applied: 1, warned: 0 }, 'deadlines'],
  ]);
  await logged.stop();
});

test('started, a round that fails is logged as a warning and tried again; stop ends even when the store is down', async () => {
  const down = {
    write: async () => {
      throw new Error('store down');
    },
  } as unknown as typeof service.store;
  const warnings: [object, string][] = [];
  let seen: () => void;
  const twice = new Promise<void>((resolve) => (seen = resolve));
  const failing = new DeadlineScheduler(down, clock, 24 * HOUR, {
    info: () => {},
    warn: (detail, message) => {
      warnings.push([detail, message]);
      if (warnings.length === 2) seen();
    },
  });
  failing.start();
  await twice;
  await failing.stop();
  assert.deepEqual(warnings[0], [{ cause: 'store down' }, 'deadline round failed; trying again']);
  assert.equal(warnings.length, 2);
});

test('more passed deadlines than one batch of 200: all applied in one round', async () => {
  now = '2026-11-21T09:00:00.000Z';
  const count = 201;
  const reference = (index: number) => `DB${String(index).padStart(4, '0')}`;
  const orders = Array.from({ length: count }, (_, index) =>
    simpleOrder(`DLB-${index}`, 'AG1', reference(index), `22012346${String(index).padStart(5, '0')}`),
  );
  await service.importOrders(orders);
  await service.importChanges(
    orders.map((document, index) => ({
      ...change(`DLBC-${index}`, document.orderId, reference(index), ['S1'], [segment('S1B', 1, 14)]),
      actionDeadline: at(now, 1),
    })),
  );
  now = at(now, 2);
  const batch = new DeadlineScheduler(service.store, clock, 24 * HOUR, quiet);
  assert.deepEqual(await batch.tick(), { applied: count, warned: 0 });
  await batch.stop();
});

test('two changes on one booking, one of them approaching: only that one is announced', async () => {
  now = '2026-11-21T09:00:00.000Z';
  await service.importOrders([
    order('DL-W', 'AG1', 'EUR', [
      booking(
        'DLW001',
        [segment('S1'), segment('S2', 3)],
        [
          passenger('P1', {
            ticketNumber: '2201234560095',
            baseFare: '300',
            taxes: '10',
            coupons: [
              { segmentId: 'S1', status: 'OPEN', value: '150' },
              { segmentId: 'S2', status: 'OPEN', value: '160' },
            ],
          }),
        ],
      ),
    ]),
  ]);
  await service.importChanges([
    { ...change('DLC-W1', 'DL-W', 'DLW001', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: at(now, 10) },
    { ...change('DLC-W2', 'DL-W', 'DLW001', ['S2'], [segment('S2B', 3, 16)]), actionDeadline: at(now, 48) },
  ]);
  const warning = new DeadlineScheduler(service.store, clock, 24 * HOUR, quiet);
  assert.deepEqual(await warning.tick(), { applied: 0, warned: 1 });
  await warning.stop();
  const warned = (await eventsOf('DL-W')).filter((event) => event.type === 'airline_change.deadline_approaching');
  assert.deepEqual(
    warned.map((event) => event.data.Change.ChangeID),
    ['DLC-W1'],
  );
});
