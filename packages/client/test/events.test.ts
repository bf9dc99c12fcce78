/**
 * listEvents() and the events() iterator against the real service: typed events with their data
 * (booking.refunded's amounts in minor units), paging with NextAfter where each event appears
 * exactly once, the iterator following new events, and a bad After as a typed 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { simpleOrder } from '../../../test/helpers/documents.js';
import { storedEventCount, untilFeedSettled } from '../../../test/helpers/settled-feed.js';
import { AirOrderClient, AirOrderValidationError, OPERATIONS, type AirOrderEvent } from '../src/index.js';
import { readEventPage } from '../src/event-feed.js';
import type { ResponseContext } from '../src/results.js';
import {
  cancellationOf,
  clientFor,
  orderDoc,
  startDroppingProxy,
  startTestService,
  type TestService,
} from './support.js';

const EVENT_ID = /^evt_[0-9a-f]{28}$/;

let service: TestService;
let client: AirOrderClient;
before(async () => {
  service = await startTestService();
  client = await clientFor(service, 'EV1');
  await service.addAgency('EV9');
  await service.importOrders([
    orderDoc('EV-1', 'EV1', 'EUR', 'EVA001', [
      {
        ticketNumber: '2201234610001',
        baseFare: '250.00',
        taxes: '50.30',
        coupons: [
          ['OPEN', '100.10'],
          ['OPEN', '200.20'],
        ],
      },
      {
        ticketNumber: '2201234610002',
        baseFare: '150.00',
        taxes: '50.00',
        coupons: [
          ['USED', '100.10'],
          ['OPEN', '99.90'],
        ],
      },
    ]),
    simpleOrder('EV-2', 'EV1', 'EVB001', '2201234610011'),
    simpleOrder('EV-3', 'EV1', 'EVC001', '2201234610021'),
    simpleOrder('EV-4', 'EV1', 'EVD001', '2201234610031'),
    simpleOrder('EV-OTHER', 'EV9', 'EVZ001', '2201234610091'),
  ]);
  await service.importChanges([cancellationOf('EV-1', 'EVA001', ['S2']), cancellationOf('EV-OTHER', 'EVZ001')]);
  await client.cancelInvoluntarily({ orderId: 'EV-1', bookingReferences: ['EVA001'], currency: 'EUR' });
  await client.cancel({ orderId: 'EV-2', bookingReferences: ['EVB001'] });
  // The tests read "every event so far": on PostgreSQL the feed lists an event a moment after its
  // commit when another transaction of the server is older (test/helpers/settled-feed.ts).
  await untilFeedSettled(
    () => storedEventCount(service.store.reader, 'EV1'),
    async () => ({ events: await allEvents() }),
  );
});
after(() => service.close());

/** Every event of the agency so far, in one page. */
async function allEvents(): Promise<AirOrderEvent[]> {
  return (await client.listEvents({ limit: 500 })).events;
}

describe('listEvents', () => {
  test('after an AirOrderInvoluntaryCancel: detected, resolved, canceled and refunded, typed, with the refund in minor units', async () => {
    const page = await client.listEvents();
    assert.equal(page.success, true);
    assert.equal(page.httpStatus, 200);
    assert.equal(page.requestId, page.envelope.ShoppingResponseId);
    assert.deepEqual(Object.keys(page.body), ['OrderEventListRS']);
    assert.deepEqual(
      page.events.map((event) => [event.type, event.type === 'unknown' ? undefined : event.data.bookingReference]),
      [
        ['airline_change.detected', 'EVA001'],
        ['airline_change.resolved', 'EVA001'],
        ['booking.canceled', 'EVA001'],
        ['booking.refunded', 'EVA001'],
        ['booking.canceled', 'EVB001'],
      ],
      "the agency's events only, oldest first",
    );
    assert.ok(page.events.every((event) => EVENT_ID.test(event.eventId) && !Number.isNaN(Date.parse(event.timestamp))));
    assert.equal(page.nextAfter, page.events.at(-1)!.eventId);
    assert.equal(new Set(page.events.map((event) => event.eventId)).size, page.events.length);

    const [detected, resolved, canceled, refunded] = page.events;
    assert.equal(detected?.type, 'airline_change.detected');
    assert.equal(detected.data.currency, 'EUR');
    assert.deepEqual(detected.data.availableActions, ['CANCEL'], 'the change only removes a flight');
    assert.equal(detected.data.change.status, 'PENDING');
    assert.equal(detected.data.change.consequenceOfInaction, 'CANCEL');
    assert.equal(detected.data.refundQuote?.amountMinor, 40020);

    assert.equal(resolved?.type, 'airline_change.resolved');
    assert.equal(resolved.data.change.status, 'CANCELED');
    assert.equal(resolved.data.resolvedBy, 'AGENCY');

    assert.equal(canceled?.type, 'booking.canceled');
    assert.deepEqual(canceled.data, {
      orderId: 'EV-1',
      bookingReference: 'EVA001',
      cancellation: 'INVOLUNTARY',
      canceledBy: 'AGENCY',
    });

    assert.equal(refunded?.type, 'booking.refunded');
    assert.deepEqual(refunded.data, {
      orderId: 'EV-1',
      bookingReference: 'EVA001',
      currency: 'EUR',
      amount: 400.2,
      amountMinor: 40020,
      tickets: [
        { ticketNumber: '2201234610001', amount: 300.3, amountMinor: 30030, quoteType: 'FULL' },
        { ticketNumber: '2201234610002', amount: 99.9, amountMinor: 9990, quoteType: 'PARTIAL' },
      ],
      refundedBy: 'AGENCY',
    });
    assert.deepEqual(refunded.raw.Data.Tickets[0], { TicketNumber: '2201234610001', Amount: 300.3, QuoteType: 'FULL' });
    assert.equal(
      refunded.data.amountMinor,
      detected.data.refundQuote?.amountMinor,
      'the refund is the quote the change announced',
    );
  });

  test('paging with a small limit and NextAfter: each event exactly once, in order, then an empty page that keeps the cursor', async () => {
    const all = await allEvents();
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await client.listEvents({ limit: 2, ...(after === undefined ? {} : { after }) });
      pages++;
      assert.ok(page.events.length <= 2);
      if (page.events.length === 0) {
        assert.equal(page.nextAfter, after, 'an empty page sends After back');
        break;
      }
      seen.push(...page.events.map((event) => event.eventId));
      after = page.nextAfter;
    }
    assert.equal(pages, Math.ceil(all.length / 2) + 1);
    assert.deepEqual(
      seen,
      all.map((event) => event.eventId),
    );
    assert.equal(new Set(seen).size, seen.length);
  });

  test('an After that is not an event id, or names no kept event, and a Limit out of range: AirOrderValidationError INVALID_REQUEST', async () => {
    for (const params of [{ after: 'evt_nope' }, { after: `evt_${'0'.repeat(28)}` }, { limit: 0 }, { limit: 501 }]) {
      await assert.rejects(client.listEvents(params), (error: unknown) => {
        assert.ok(error instanceof AirOrderValidationError, `${JSON.stringify(params)}: ${String(error)}`);
        assert.equal(error.code, 'INVALID_REQUEST');
        assert.equal(error.status, 400);
        assert.equal(error.attempts, 1, 'not retried');
        assert.equal(error.idempotencyKey, undefined, 'a read sends no Idempotency-Key');
        assert.match(error.message, params.after === undefined ? /Limit/ : /After/);
        assert.equal(error.envelope?.ShoppingResponseId, error.requestId);
        assert.deepEqual(Object.keys(error.body as object), ['OrderEventListRS']);
        return true;
      });
    }
    // Another agency's event is no cursor either.
    const theirs = (await (await clientFor(service, 'EV9')).listEvents()).events[0]!;
    await assert.rejects(client.listEvents({ after: theirs.eventId }), (error: unknown) => {
      assert.ok(error instanceof AirOrderValidationError);
      assert.match(error.message, /names no event of this agency/);
      return true;
    });
  });

  test('a read carries no Idempotency-Key, and a dropped connection is retried all the same', async () => {
    const proxy = await startDroppingProxy(service.baseUrl, 1);
    try {
      const proxied = await clientFor(service, 'EV1', { baseUrl: proxy.baseUrl });
      const page = await proxied.listEvents({ limit: 1 });
      assert.equal(page.attempts, 2);
      assert.equal(page.events.length, 1);
      assert.equal(proxy.received.length, 2);
      assert.deepEqual(proxy.idempotencyKeys(), []);
      assert.match(proxy.received[0]!, /\{"OrderEventListRQ":\{"Query":\{"Limit":1\}\}\}$/);
    } finally {
      await proxy.close();
    }
  });
});

describe('events()', () => {
  test('yields every event once across pages, resumes after a given event, and follows events that arrive while it runs', async () => {
    const before = await allEvents();
    assert.ok(before.length >= 5);

    const resumed: string[] = [];
    for await (const event of client.events({ after: before[1]!.eventId, limit: 2 })) resumed.push(event.eventId);
    assert.deepEqual(
      resumed,
      before.slice(2).map((event) => event.eventId),
    );

    const seen: AirOrderEvent[] = [];
    let acted = false;
    for await (const event of client.events({ limit: 2 })) {
      seen.push(event);
      if (!acted) {
        // Happens after the first page was fetched: the iterator must still reach these.
        acted = true;
        await client.cancel({ orderId: 'EV-3', bookingReferences: ['EVC001'] });
        await client.cancel({ orderId: 'EV-4', bookingReferences: ['EVD001'] });
      }
    }
    const ids = seen.map((event) => event.eventId);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    assert.deepEqual(
      ids,
      (await allEvents()).map((event) => event.eventId),
      'every event, in order',
    );
    assert.deepEqual(
      seen.slice(-2).map((event) => event.type === 'booking.canceled' && event.data.bookingReference),
      ['EVC001', 'EVD001'],
    );
  });

  test('with no events at all, the iterator ends after one empty page', async () => {
    const quiet = await clientFor(service, 'EV-QUIET');
    const page = await quiet.listEvents();
    assert.deepEqual(page.events, []);
    assert.equal(page.nextAfter, '');
    const seen: AirOrderEvent[] = [];
    for await (const event of quiet.events()) seen.push(event);
    assert.deepEqual(seen, []);
  });
});

test('an event type this client does not know is kept as "unknown" with its raw type, not dropped', () => {
  const context: ResponseContext = {
    status: 200,
    headers: new Headers(),
    requestId: 'req-1',
    idempotencyKey: undefined,
    replayed: false,
    attempts: 1,
  };
  const event = {
    EventID: 'evt_0193a4c2e1f0000000015c1e9a7b',
    Type: 'booking.rebooked',
    Timestamp: '2026-11-21T09:30:00.000Z',
    Data: { OrderID: 'O-1' },
  };
  const page = readEventPage(
    {
      OrderEventListRS: {
        Document: { Name: 'airorder', ReferenceVersion: '1.0' },
        ShoppingResponseId: 'req-1',
        Party: {
          Sender: { TravelAgencySender: { Name: '', IATA_Number: '', AgencyID: 'A1', Contacts: { Contact: [] } } },
        },
        NextAfter: event.EventID,
        Events: [event],
        Success: {},
      },
    },
    context,
    OPERATIONS.eventList,
  );
  assert.deepEqual(page.events, [
    { eventId: event.EventID, timestamp: event.Timestamp, type: 'unknown', data: { OrderID: 'O-1' }, raw: event },
  ]);
});
