import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engineSql } from '../../src/store/engine-sql.js';
import { runSql } from '../../src/store/raw-sql.js';
import { purgeEvents } from '../../src/store/repositories/events-repository.js';
import type { Executor } from '../../src/store/executor.js';
import { eventIdAt } from '../../src/store/sortable-id.js';
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
  type TicketDoc,
} from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { logLinesOf } from '../helpers/wire-checks.js';
import { storedEventCount as storedCount, untilFeedSettled } from '../helpers/settled-feed.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * Events are written with the change they report (the outbox), and AirOrderEventList pages through
 * an agency's events: oldest first, each exactly once, never another agency's.
 */
let service: TestService;
let token: string;
let otherToken: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
  otherToken = await service.tokenFor('AG2');
});
after(() => service.close());

function listRQ(query?: object) {
  return { OrderEventListRQ: query === undefined ? {} : { Query: query } };
}

async function page(query?: object, as = token) {
  const response = await service.post('/AirOrderEventList', listRQ(query), bearer(as));
  assert.equal(response.status, 200, response.text);
  const rs = response.body.OrderEventListRS;
  assert.deepEqual(rs.Success, {});
  assert.equal(response.headers.get('x-request-id'), rs.ShoppingResponseId);
  return rs as { Events: { EventID: string; Type: string; Timestamp: string; Data: any }[]; NextAfter: string };
}

/** Every event of the agency, paged with NextAfter from `after`. */
async function readAll(after?: string, limit = 100, as = token) {
  const events: { EventID: string; Type: string; Data: any }[] = [];
  let cursor = after;
  for (;;) {
    const rs = await page(
      cursor === undefined || cursor === '' ? { Limit: limit } : { After: cursor, Limit: limit },
      as,
    );
    assert.ok(rs.Events.length <= limit, `a page of ${rs.Events.length} events for Limit ${limit}`);
    events.push(...rs.Events);
    if (rs.Events.length === 0) return { events, next: rs.NextAfter };
    cursor = rs.NextAfter;
  }
}

/** A row of the event log as the service writes one: its events' ids, each a booking.canceled with no data. */
function plantLogRow(db: Executor, agencyId: string, occurredAt: string, ids: readonly string[]) {
  const entries = ids.map((id) => ({ id, type: 'booking.canceled', data: {} }));
  return runSql(db, 'insert into event_log (first_id, agency_id, occurred_at, entries) values (?, ?, ?, ?)', [
    ids[0],
    agencyId,
    occurredAt,
    JSON.stringify(entries),
  ]);
}

/** An event as one row of the table of before the log (migration 013). */
function plantEventBefore(db: Executor, eventId: string, agencyId: string, occurredAt: string) {
  return runSql(
    db,
    'insert into events_before_013 (event_id, agency_id, type, occurred_at, data) values (?, ?, ?, ?, ?)',
    [
      eventId,
      agencyId,
      'booking.canceled',
      occurredAt,
      JSON.stringify({ OrderID: 'BEFORE', GdsBookingReference: eventId.slice(-6) }),
    ],
  );
}

/** A webhook endpoint of the agency's, as the service stores one. */
function plantEndpoint(db: Executor, endpointId: string, agencyId: string) {
  return runSql(
    db,
    `insert into webhook_endpoints (endpoint_id, agency_id, url, events, status, secret, created_at)
     values (?, ?, 'https://hooks.example/in', '*', 'ENABLED', ?, '2026-01-01T00:00:00.000Z')`,
    [endpointId, agencyId, 'a'.repeat(64)],
  );
}

/** A delivery of the event to the endpoint, delivered when the event occurred. */
function plantDelivery(db: Executor, eventId: string, endpointId: string, agencyId: string, at: string) {
  return runSql(
    db,
    `insert into webhook_deliveries (event_id, endpoint_id, agency_id, status, attempts, next_attempt_at, created_at, finished_at)
     values (?, ?, ?, 'DELIVERED', 1, ?, ?, ?)`,
    [eventId, endpointId, agencyId, at, at, at],
  );
}

/** The events of the agency that have a delivery, by id. */
async function deliveredEvents(agencyId: string): Promise<string[]> {
  const rows = await runSql<{ event_id: string }>(
    service.store.reader,
    'select event_id from webhook_deliveries where agency_id = ? order by event_id',
    [agencyId],
  );
  return rows.map((row) => row.event_id);
}

/** Every event of the agency, once the feed lists all the store holds (settled-feed.ts). */
function settled(as = token, agencyId = 'AG1') {
  return untilFeedSettled(
    () => storedEventCount(agencyId),
    () => readAll(undefined, 500, as),
  );
}

const storedEventCount = (agencyId: string) => storedCount(service.store.reader, agencyId);

/** The events listed after `cursor`, once every stored event is listed. */
async function settledAfter(cursor: string, as = token, agencyId = 'AG1') {
  await settled(as, agencyId);
  return readAll(cursor, 100, as);
}

describe('events of the operations', () => {
  test('an airline change imported: airline_change.detected with the change, what can be done and the refund quote', async () => {
    await service.importOrders([simpleOrder('EV-1', 'AG1', 'EVA001')]);
    const before = (await settled()).next;
    await service.importChanges([
      {
        ...change('EVC-1', 'EV-1', 'EVA001', ['S1'], [segment('S1B', 1, 14)]),
        actionDeadline: '2026-11-25T08:00:00+01:00',
      },
    ]);
    const { events } = await settledAfter(before);
    const detected = events.filter((event) => event.Type === 'airline_change.detected');
    assert.equal(detected.length, 1);
    assert.match(detected[0]!.EventID, /^evt_[0-9a-f]{28}$/);
    assert.deepEqual(detected[0]!.Data, {
      OrderID: 'EV-1',
      GdsBookingReference: 'EVA001',
      Currency: 'EUR',
      Change: {
        ChangeID: 'EVC-1',
        Kind: 'SCHEDULE_CHANGE',
        Status: 'PENDING',
        DetectedAt: '2026-11-20T08:00:00.000Z',
        RemovedSegments: ['S1'],
        AddedSegments: [
          {
            SegmentID: 'S1B',
            Carrier: 'LH',
            FlightNumber: '400',
            Origin: 'FRA',
            Destination: 'JFK',
            Departure: '2026-12-01T14:00:00Z',
            Arrival: '2026-12-01T16:00:00Z',
          },
        ],
        // Normalised to UTC, as every instant the service writes.
        ActionDeadline: '2026-11-25T07:00:00.000Z',
        ConsequenceOfInaction: 'ACCEPT',
      },
      AvailableActions: ['ACCEPT', 'CANCEL'],
      RefundQuote: { Amount: 570.5, QuoteType: 'FULL', Tickets: [{ TicketNumber: '2201234567890', Amount: 570.5 }] },
    });
  });

  test('a change that only removes flights can only be cancelled: AvailableActions is CANCEL alone, the consequence CANCEL', async () => {
    await service.importOrders([simpleOrder('EV-2', 'AG1', 'EVA002', '2201234567892')]);
    const before = (await settled()).next;
    await service.importChanges([change('EVC-2', 'EV-2', 'EVA002', ['S1'], [], 'FLIGHT_CANCELLATION')]);
    const [detected] = (await settledAfter(before)).events;
    assert.equal(detected!.Type, 'airline_change.detected');
    assert.deepEqual(detected!.Data.AvailableActions, ['CANCEL']);
    assert.equal(detected!.Data.Change.ConsequenceOfInaction, 'CANCEL');
    assert.equal(detected!.Data.Change.ActionDeadline, undefined, 'no deadline given, none shown');
  });

  test('AirOrderInvoluntaryCancel: the change resolved, the booking cancelled and refunded, amounts as AirOrderRetrieve writes them', async () => {
    await service.importOrders([
      order('EV-3', 'AG1', 'KWD', [
        booking(
          'EVA003',
          [segment('S1'), segment('S2', 3)],
          [
            passenger('P1', {
              ticketNumber: '2201234567893',
              baseFare: '100.000',
              taxes: '0.125',
              coupons: [
                { segmentId: 'S1', status: 'USED', value: '50.000' },
                { segmentId: 'S2', status: 'OPEN', value: '50.125' },
              ],
            }),
          ],
        ),
      ]),
    ]);
    await service.importChanges([change('EVC-3', 'EV-3', 'EVA003', ['S2'], [segment('S2B', 3, 15)])]);
    const before = (await settled()).next;
    const response = await service.post(
      '/AirOrderInvoluntaryCancel',
      involuntaryCancelRQ('EV-3', ['EVA003']),
      bearer(token),
    );
    assert.equal(response.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 50.125);
    const { events } = await settledAfter(before);
    assert.deepEqual(
      events.map((event) => event.Type),
      ['airline_change.resolved', 'booking.canceled', 'booking.refunded'],
    );
    assert.equal(events[0]!.Data.Change.Status, 'CANCELED');
    assert.equal(events[0]!.Data.ResolvedBy, 'AGENCY');
    assert.deepEqual(events[1]!.Data, {
      OrderID: 'EV-3',
      GdsBookingReference: 'EVA003',
      Cancellation: 'INVOLUNTARY',
      CanceledBy: 'AGENCY',
    });
    assert.deepEqual(events[2]!.Data, {
      OrderID: 'EV-3',
      GdsBookingReference: 'EVA003',
      Currency: 'KWD',
      RefundAmount: 50.125,
      Tickets: [{ TicketNumber: '2201234567893', Amount: 50.125, QuoteType: 'PARTIAL' }],
      RefundedBy: 'AGENCY',
    });

    // A retry refunds nothing and announces nothing.
    await service.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('EV-3', ['EVA003']), bearer(token));
    assert.deepEqual((await settledAfter(events.at(-1)!.EventID)).events, []);
  });

  test('AirOrderCancel with a pending change: booking.canceled and the change CLOSED; a failed item announces nothing', async () => {
    await service.importOrders([simpleOrder('EV-4', 'AG1', 'EVA004', '2201234567894')]);
    await service.importChanges([change('EVC-4', 'EV-4', 'EVA004', ['S1'], [segment('S1B', 1, 14)])]);
    const before = (await settled()).next;
    const count = await storedEventCount('AG1');
    const response = await service.post('/AirOrderCancel', cancelRQ('EV-4', ['EVA004', 'NOPE99']), bearer(token));
    assert.equal(response.body.OrderViewRS.Response[1].Status, 'FAILED');
    const { events } = await settledAfter(before);
    assert.deepEqual(
      events.map((event) => [event.Type, event.Data.GdsBookingReference]),
      [
        ['airline_change.resolved', 'EVA004'],
        ['booking.canceled', 'EVA004'],
      ],
    );
    assert.equal(events[0]!.Data.Change.Status, 'CLOSED');
    assert.equal(events[1]!.Data.Cancellation, 'VOLUNTARY');
    assert.equal(await storedEventCount('AG1'), count + 2);
  });

  test("a request that is refused stores no event (another agency's order, a bad body)", async () => {
    await service.importOrders([simpleOrder('EV-5', 'AG1', 'EVA005', '2201234567895')]);
    const count = (await storedEventCount('AG1')) + (await storedEventCount('AG2'));
    assert.equal((await service.post('/AirOrderCancel', cancelRQ('EV-5', ['EVA005']), bearer(otherToken))).status, 404);
    assert.equal((await service.post('/AirOrderCancel', cancelRQ('EV-5', ['!']), bearer(token))).status, 400);
    assert.equal((await storedEventCount('AG1')) + (await storedEventCount('AG2')), count);
  });
});

/** The types of the events listed after `cursor`, with the booking each names. */
async function typesAfter(cursor: string) {
  const { events } = await settledAfter(cursor);
  return { events, types: events.map((event) => [event.Type, event.Data.GdsBookingReference]) };
}

/** A ticket of 100.00 + 20.00 on S1 that the fare refunds voluntarily, less 10.00. */
function refundable(ticketNumber: string): TicketDoc {
  return {
    ticketNumber,
    baseFare: '100.00',
    taxes: '20.00',
    coupons: [{ segmentId: 'S1', value: '120.00' }],
    fareRules: { refundable: true, penalty: '10.00' },
  };
}

/** AirOrderRefundQuote on one booking (its passengers given or all), then AirOrderRefund of that quote; its QuoteID. */
async function refundVoluntarily(orderId: string, reference: string, passengerIds?: string[]): Promise<string> {
  const query = {
    OrderID: orderId,
    GdsBookingReference: [reference],
    ...(passengerIds ? { PassengerID: passengerIds } : {}),
  };
  const quoted = await service.post('/AirOrderRefundQuote', { OrderRefundQuoteRQ: { Query: query } }, bearer(token));
  assert.equal(quoted.status, 200, quoted.text);
  const [item] = quoted.body.OrderRefundQuoteRS.Result;
  assert.equal(item.Status, 'SUCCESS', quoted.text);
  const refunded = await service.post(
    '/AirOrderRefund',
    { OrderRefundRQ: { Query: { OrderID: orderId, GdsBookingReference: [reference], QuoteID: item.QuoteID } } },
    bearer(token),
  );
  assert.equal(refunded.status, 200, refunded.text);
  assert.equal(refunded.body.OrderRefundRS.Result[0].Status, 'SUCCESS', refunded.text);
  return item.QuoteID;
}

describe('which events an operation emits: only what it changed', () => {
  test('AirOrderInvoluntaryAccept resolves the change alone; a later AirOrderCancel cancels the booking and resolves nothing again', async () => {
    await service.importOrders([simpleOrder('EVO-1', 'AG1', 'EVO001', '2205550000001')]);
    await service.importChanges([change('EVOC-1', 'EVO-1', 'EVO001', ['S1'], [segment('S1B', 1, 14)])]);
    let cursor = (await settled()).next;
    const accepted = await service.post('/AirOrderInvoluntaryAccept', acceptRQ('EVO-1', ['EVO001']), bearer(token));
    assert.equal(accepted.status, 200, accepted.text);
    let listed = await typesAfter(cursor);
    assert.deepEqual(listed.types, [['airline_change.resolved', 'EVO001']], 'the booking is not cancelled');
    assert.deepEqual(
      [listed.events[0]!.Data.Change.ChangeID, listed.events[0]!.Data.Change.Status, listed.events[0]!.Data.ResolvedBy],
      ['EVOC-1', 'ACCEPTED', 'AGENCY'],
    );

    cursor = listed.events.at(-1)!.EventID;
    const cancelled = await service.post('/AirOrderCancel', cancelRQ('EVO-1', ['EVO001']), bearer(token));
    assert.equal(cancelled.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED', cancelled.text);
    listed = await typesAfter(cursor);
    assert.deepEqual(
      listed.types,
      [['booking.canceled', 'EVO001']],
      'the change accepted before is no news: no second airline_change.resolved',
    );
  });

  test('a change recorded on a cancelled booking: detected as CLOSED, with nothing to do and no refund quote', async () => {
    await service.importOrders([simpleOrder('EVO-2', 'AG1', 'EVO002', '2205550000002')]);
    await service.post('/AirOrderCancel', cancelRQ('EVO-2', ['EVO002']), bearer(token));
    const cursor = (await settled()).next;
    await service.importChanges([change('EVOC-2', 'EVO-2', 'EVO002', ['S1'], [segment('S1B', 1, 14)])]);
    const { events, types } = await typesAfter(cursor);
    assert.deepEqual(types, [['airline_change.detected', 'EVO002']]);
    const { Change, ...rest } = events[0]!.Data;
    assert.equal(Change.Status, 'CLOSED');
    assert.deepEqual(rest, { OrderID: 'EVO-2', GdsBookingReference: 'EVO002', Currency: 'EUR', AvailableActions: [] });
  });

  test('two pending changes, the second without a replacement: it can then only be cancelled', async () => {
    await service.importOrders([
      order('EVO-3', 'AG1', 'EUR', [
        booking(
          'EVO003',
          [segment('S1'), segment('S2', 8)],
          [
            passenger('P1', {
              ticketNumber: '2205550000003',
              baseFare: '100.00',
              taxes: '20.00',
              coupons: [
                { segmentId: 'S1', value: '60.00' },
                { segmentId: 'S2', value: '60.00' },
              ],
            }),
          ],
        ),
      ]),
    ]);
    const cursor = (await settled()).next;
    await service.importChanges([change('EVOC-3A', 'EVO-3', 'EVO003', ['S1'], [segment('S1B', 1, 14)])]);
    await service.importChanges([
      change('EVOC-3B', 'EVO-3', 'EVO003', ['S2'], [], 'FLIGHT_CANCELLATION', '2026-11-20T09:00:00Z'),
    ]);
    const { events } = await settledAfter(cursor);
    assert.deepEqual(
      events.map((event) => [event.Type, event.Data.Change.ChangeID, event.Data.AvailableActions]),
      [
        ['airline_change.detected', 'EVOC-3A', ['ACCEPT', 'CANCEL']],
        ['airline_change.detected', 'EVOC-3B', ['CANCEL']],
      ],
    );
    assert.deepEqual(events[1]!.Data.RefundQuote, {
      Amount: 120,
      QuoteType: 'FULL',
      Tickets: [{ TicketNumber: '2205550000003', Amount: 120 }],
    });
  });

  test('voluntary refunds one passenger at a time: each lists its own tickets; the pending change is resolved by the last only', async () => {
    await service.importOrders([
      order('EVO-4', 'AG1', 'EUR', [
        booking(
          'EVO004',
          [segment('S1')],
          [passenger('P1', refundable('2205550000041')), passenger('P2', refundable('2205550000042'))],
        ),
      ]),
    ]);
    await service.importChanges([change('EVOC-4', 'EVO-4', 'EVO004', ['S1'], [segment('S1B', 1, 14)])]);
    let cursor = (await settled()).next;
    await refundVoluntarily('EVO-4', 'EVO004', ['P1']);
    let listed = await typesAfter(cursor);
    assert.deepEqual(
      listed.types,
      [['booking.refunded', 'EVO004']],
      'the booking stays confirmed and its change pending: neither is announced',
    );
    assert.deepEqual(
      listed.events[0]!.Data.Tickets.map((ticket: any) => [ticket.TicketNumber, ticket.Amount]),
      [['2205550000041', 110]],
    );

    cursor = listed.events.at(-1)!.EventID;
    const quoteId = await refundVoluntarily('EVO-4', 'EVO004');
    listed = await typesAfter(cursor);
    assert.deepEqual(listed.types, [
      ['airline_change.resolved', 'EVO004'],
      ['booking.canceled', 'EVO004'],
      ['booking.refunded', 'EVO004'],
    ]);
    assert.deepEqual(
      [listed.events[0]!.Data.Change.ChangeID, listed.events[0]!.Data.Change.Status],
      ['EVOC-4', 'CLOSED'],
    );
    assert.deepEqual(
      listed.events[1]!.Data,
      {
        OrderID: 'EVO-4',
        GdsBookingReference: 'EVO004',
        Cancellation: 'VOLUNTARY',
        CanceledBy: 'AGENCY',
        Currency: 'EUR',
        RefundAmount: 220,
      },
      'ended by a voluntary refund: what all its refunds came to',
    );
    assert.deepEqual(
      listed.events[2]!.Data,
      {
        OrderID: 'EVO-4',
        GdsBookingReference: 'EVO004',
        Currency: 'EUR',
        RefundAmount: 110,
        Tickets: [
          {
            TicketNumber: '2205550000042',
            Amount: 110,
            QuoteType: 'FULL',
            Fare: 100,
            Taxes: 20,
            Penalty: 10,
            QuoteID: quoteId,
          },
        ],
        RefundedBy: 'AGENCY',
      },
      "this refund's ticket only, not the earlier one's",
    );
  });

  test('a booking cancelled by AirOrderCancel, then refunded: booking.refunded alone, no second booking.canceled', async () => {
    await service.importOrders([
      order('EVO-5', 'AG1', 'EUR', [
        booking('EVO005', [segment('S1')], [passenger('P1', refundable('2205550000005'))]),
      ]),
    ]);
    await service.post('/AirOrderCancel', cancelRQ('EVO-5', ['EVO005']), bearer(token));
    const cursor = (await settled()).next;
    await refundVoluntarily('EVO-5', 'EVO005');
    const { events, types } = await typesAfter(cursor);
    assert.deepEqual(types, [['booking.refunded', 'EVO005']]);
    assert.deepEqual(
      events[0]!.Data.Tickets.map((ticket: any) => [ticket.TicketNumber, ticket.Amount]),
      [['2205550000005', 110]],
    );
  });
});

describe('AirOrderEventList', () => {
  test("another agency's events never appear", async () => {
    await service.importOrders([simpleOrder('EV-6', 'AG2', 'EVA006', '2201234567896')]);
    await service.post('/AirOrderCancel', cancelRQ('EV-6', ['EVA006']), bearer(otherToken));
    const mine = (await settled()).events;
    const theirs = (await settled(otherToken, 'AG2')).events;
    assert.ok(mine.length > 0 && theirs.length > 0);
    assert.ok(mine.every((event) => !event.Data.OrderID.startsWith('EV-6')));
    assert.deepEqual(
      theirs.map((event) => event.Data.OrderID),
      ['EV-6'],
    );
    // An id of another agency's event is no cursor for this one.
    const response = await service.post('/AirOrderEventList', listRQ({ After: theirs[0]!.EventID }), bearer(token));
    assert.equal(response.status, 400);
    assert.equal(response.body.OrderEventListRS.Errors[0].Code, 'INVALID_REQUEST');
    assert.match(
      response.body.OrderEventListRS.Errors[0].Message,
      /OrderEventListRQ\.Query\.After names no event of this agency/,
    );
    assert.deepEqual(response.body.OrderEventListRS.Events, []);
  });

  test('a page served is logged once, as AirOrderEventList with code OK', async () => {
    const response = await service.post('/AirOrderEventList', listRQ(), bearer(token));
    assert.equal(response.status, 200, response.text);
    const lines = await logLinesOf(service, response.headers.get('x-request-id')!);
    assert.deepEqual(
      lines.map((line) => [line.operation, line.code]),
      [['AirOrderEventList', 'OK']],
    );
  });

  test('the envelope: no Query is the first page; an empty page keeps After as NextAfter; bad Limit and After name the field', async () => {
    const first = await page();
    assert.ok(first.Events.length > 0);
    const last = (await settled()).next;
    const empty = await page({ After: last });
    assert.deepEqual(empty.Events, []);
    assert.equal(empty.NextAfter, last);
    const none = await page(undefined, await service.tokenFor('AG3'));
    assert.deepEqual([none.Events, none.NextAfter], [[], '']);

    for (const [query, field] of [
      [{ Limit: 0 }, 'Limit'],
      [{ Limit: 501 }, 'Limit'],
      [{ Limit: 2.5 }, 'Limit'],
      [{ After: 'evt_x' }, 'After'],
      [{ After: 7 }, 'After'],
    ] as const) {
      const response = await service.post('/AirOrderEventList', listRQ(query), bearer(token));
      assert.equal(response.status, 400, JSON.stringify(query));
      assert.match(
        response.body.OrderEventListRS.Errors[0].Message,
        new RegExp(`^OrderEventListRQ\\.Query\\.${field} `),
      );
    }
    assert.equal((await service.post('/AirOrderEventList', listRQ(), {})).status, 401);
  });

  test('paged with NextAfter while events arrive, every event is seen exactly once, in the order the store lists them', async () => {
    const orders = Array.from({ length: 30 }, (_, index) =>
      simpleOrder(
        `EVP-${index}`,
        'AG1',
        `EVP${String(index).padStart(3, '0')}`,
        `22099${String(index).padStart(8, '0')}`,
      ),
    );
    await service.importOrders(orders);
    const start = (await settled()).next;
    const seen: string[] = [];
    let cursor = start;
    let writing = true;
    const writes = (async () => {
      for (const [index, document] of orders.entries()) {
        await service.post(
          '/AirOrderCancel',
          cancelRQ(document.orderId, [`EVP${String(index).padStart(3, '0')}`]),
          bearer(token),
        );
      }
      writing = false;
    })();
    // Small pages, read as fast as the cancels land, then on until all are listed: on PostgreSQL an
    // event is listed once every older transaction of the server has ended, which may take a moment.
    const give = Date.now() + scaled(15_000);
    while (writing || (seen.length < 30 && Date.now() < give)) {
      const rs = await page({ After: cursor, Limit: 3 });
      seen.push(...rs.Events.map((event) => event.EventID));
      cursor = rs.NextAfter;
      if (rs.Events.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await writes;
    seen.push(...(await readAll(cursor)).events.map((event) => event.EventID));
    assert.equal(new Set(seen).size, seen.length, 'no event twice');
    assert.equal(seen.length, 30, 'one booking.canceled per cancel, none missed');
    const [row] = await runSql<{ n: number | string }>(
      service.store.reader,
      "select count(*) as n from events where agency_id = 'AG1' and type = 'booking.canceled' and data like '%EVP-%'",
      [],
    );
    assert.equal(Number(row!.n), 30);
  });

  test('events older than 30 days are removed, with their deliveries; a cursor on one is then refused', async () => {
    const day = 86_400_000;
    // Each the first of its block (sortable-id.ts): a row of the log of its own, as the service writes one.
    const oldId = `${eventIdAt(Date.now() - 31 * day)}0000001000000000`;
    const keptId = `${eventIdAt(Date.now() - 29 * day)}0000001000000000`;
    const agencyToken = await service.tokenFor('AG9');
    await plantEndpoint(service.store.db, 'wh_purge', 'AG9');
    for (const [id, age] of [
      [oldId, 31],
      [keptId, 29],
    ] as const) {
      const at = new Date(Date.now() - age * day).toISOString();
      await service.store.transaction(async (tx) => {
        await plantLogRow(tx, 'AG9', at, [id]);
        await plantDelivery(tx, id, 'wh_purge', 'AG9', at);
      });
    }
    assert.deepEqual(await deliveredEvents('AG9'), [oldId, keptId], 'each event has its delivery before the purge');
    const removed = await service.store.transaction((tx) =>
      purgeEvents(tx, new Date(Date.now() - 30 * day).toISOString()),
    );
    assert.ok(removed >= 1);
    const left = await runSql<{ event_id: string }>(
      service.store.reader,
      "select event_id from events where agency_id = 'AG9'",
      [],
    );
    assert.deepEqual(
      left.map((row) => row.event_id),
      [keptId],
    );
    assert.deepEqual(
      await deliveredEvents('AG9'),
      [keptId],
      'the removed event has no delivery left, the kept one keeps its',
    );
    const response = await service.post('/AirOrderEventList', listRQ({ After: oldId }), bearer(agencyToken));
    assert.equal(response.status, 400);
  });

  test("the purge counts the events it removes, of the log's rows and of the table of before", async () => {
    const day = 86_400_000;
    const at = Date.now() - 40 * day;
    const block = [0, 1, 2].map((index) => `${eventIdAt(at)}0000002${index}00000000`);
    await service.store.transaction(async (tx) => {
      await plantLogRow(tx, 'AG10', new Date(at).toISOString(), block);
      await plantEventBefore(tx, `${eventIdAt(at)}00000001abcdef01`, 'AG10', new Date(at).toISOString());
    });
    const removed = await service.store.transaction((tx) =>
      purgeEvents(tx, new Date(Date.now() - 30 * day).toISOString()),
    );
    assert.equal(removed, 4, 'three events of one row and one of before');
    assert.equal(await storedEventCount('AG10'), 0);
  });

  test("pages smaller than a request's events: each event once, in order, whatever the Limit", async () => {
    const agencyToken = await service.tokenFor('AG4');
    await service.importOrders([simpleOrder('EVR-1', 'AG4', 'EVR001', '2201234567981')]);
    await service.importChanges([change('EVRC-1', 'EVR-1', 'EVR001', ['S1'], [segment('S1B', 1, 14)])]);
    const response = await service.post(
      '/AirOrderInvoluntaryCancel',
      involuntaryCancelRQ('EVR-1', ['EVR001']),
      bearer(agencyToken),
    );
    assert.equal(response.status, 200, response.text);
    const all = (await settled(agencyToken, 'AG4')).events;
    assert.deepEqual(
      all.map((event) => event.Type),
      ['airline_change.detected', 'airline_change.resolved', 'booking.canceled', 'booking.refunded'],
    );
    // The cancel's three events are one row of the log.
    const rows = await runSql<{ entries: string }>(
      service.store.reader,
      "select entries from event_log where agency_id = 'AG4' order by tx, position",
      [],
    );
    assert.deepEqual(
      rows.map((row) => JSON.parse(row.entries).length),
      [1, 3],
    );
    for (const limit of [1, 2, 3]) {
      const paged = await readAll(undefined, limit, agencyToken);
      assert.deepEqual(
        paged.events.map((event) => event.EventID),
        all.map((event) => event.EventID),
        `Limit ${limit}`,
      );
      assert.deepEqual(paged.events, all, `Limit ${limit}: the same events`);
    }
    // From any event of the row, the rest of it.
    for (const [index, event] of all.entries()) {
      assert.deepEqual(
        (await readAll(event.EventID, 1, agencyToken)).events.map((later) => later.EventID),
        all.slice(index + 1).map((later) => later.EventID),
      );
    }
  });

  test('a cursor on an event of before the log goes on to the events of the log', async () => {
    const agencyToken = await service.tokenFor('AG5');
    const at = Date.now() - 60_000;
    const before = [`${eventIdAt(at)}00000001abcdef01`, `${eventIdAt(at)}00000002abcdef01`];
    await service.store.transaction(async (tx) => {
      for (const id of before) await plantEventBefore(tx, id, 'AG5', new Date(at).toISOString());
    });
    await service.importOrders([simpleOrder('EVL-1', 'AG5', 'EVL001', '2201234567982')]);
    assert.equal(
      (await service.post('/AirOrderCancel', cancelRQ('EVL-1', ['EVL001']), bearer(agencyToken))).status,
      200,
    );
    const all = (await settled(agencyToken, 'AG5')).events;
    assert.deepEqual(
      all.map((event) => [event.Type, event.Data.OrderID]),
      [
        ['booking.canceled', 'BEFORE'],
        ['booking.canceled', 'BEFORE'],
        ['booking.canceled', 'EVL-1'],
      ],
    );
    assert.deepEqual(
      all.slice(0, 2).map((event) => event.EventID),
      before,
    );
    assert.deepEqual(
      (await readAll(before[0], 1, agencyToken)).events.map((event) => event.EventID),
      all.slice(1).map((event) => event.EventID),
    );
    assert.deepEqual(
      (await readAll(before[1], 100, agencyToken)).events.map((event) => event.EventID),
      [all[2]!.EventID],
    );
    // Another agency's event of before is no cursor either.
    const response = await service.post('/AirOrderEventList', listRQ({ After: before[0] }), bearer(token));
    assert.equal(response.status, 400);
  });

  test("a cursor in the log shows no event of before again, though their positions pass the log's (an upgraded store, whose log counts from 1)", async () => {
    const agencyToken = await service.tokenFor('AG12');
    await service.importOrders([simpleOrder('EVU-1', 'AG12', 'EVU001', '2201234567984')]);
    assert.equal(
      (await service.post('/AirOrderCancel', cancelRQ('EVU-1', ['EVU001']), bearer(agencyToken))).status,
      200,
    );
    const [highest] = await runSql<{ top: number | string }>(
      service.store.reader,
      'select max(position) as top from event_log',
      [],
    );
    const at = Date.now() - 60_000;
    const before = [`${eventIdAt(at)}00000001abcdef02`, `${eventIdAt(at)}00000002abcdef02`];
    // As an upgrade leaves them on SQLite: the same `tx` as the log's rows, positions above the log's.
    await service.store.transaction(async (tx) => {
      for (const [index, id] of before.entries())
        await runSql(
          tx,
          `insert into events_before_013 (position, event_id, tx, agency_id, type, occurred_at, data)${engineSql(service.store.db).schema.eventPositionGiven}
           values (?, ?, 0, ?, ?, ?, ?)`,
          [
            Number(highest!.top) + 1000 + index,
            id,
            'AG12',
            'booking.canceled',
            new Date(at).toISOString(),
            JSON.stringify({ OrderID: 'BEFORE', GdsBookingReference: id.slice(-6) }),
          ],
        );
    });
    // Single pages, not readAll: a feed that shows events again would page for ever.
    const onePage = async (query: object) => ({ events: (await page({ ...query, Limit: 100 }, agencyToken)).Events });
    const all = (
      await untilFeedSettled(
        () => storedEventCount('AG12'),
        () => onePage({}),
      )
    ).events.map((event) => event.EventID);
    assert.equal(all.length, 3);
    assert.deepEqual(all.slice(0, 2), before, 'the events of before first');
    assert.deepEqual((await onePage({ After: all[2] })).events, [], 'nothing after the last');
    assert.deepEqual(
      (await onePage({ After: before[1] })).events.map((event) => event.EventID),
      [all[2]],
    );
  });
});
