/**
 * retrieve() against the real service: the order view with its pending change (ActionDeadline,
 * ConsequenceOfInaction), the RefundQuote in minor units and what cancelInvoluntarily then refunds,
 * failed items, typed errors, and a read that carries no Idempotency-Key and is retried as it is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { change, segment, simpleOrder } from '../../../test/helpers/documents.js';
import {
  AirOrderClient,
  AirOrderInvalidResponseError,
  AirOrderNotFoundError,
  AirOrderValidationError,
  OPERATIONS,
} from '../src/index.js';
import { readRetrieveResult } from '../src/order-view.js';
import type { ResponseContext } from '../src/results.js';
import {
  cancellationOf,
  clientFor,
  orderDoc,
  startDroppingProxy,
  startTestService,
  type TestService,
} from './support.js';

let service: TestService;
let client: AirOrderClient;
before(async () => {
  service = await startTestService();
  client = await clientFor(service, 'RV1');
  await service.addAgency('RV9');
  await service.importOrders([
    // Two tickets over two segments; the second ticket flew S1, so cancelling refunds it in part.
    orderDoc('RV-EUR', 'RV1', 'EUR', 'RVEUR1', [
      {
        ticketNumber: '2201234600001',
        baseFare: '250.00',
        taxes: '50.30',
        coupons: [
          ['OPEN', '100.10'],
          ['OPEN', '200.20'],
        ],
      },
      {
        ticketNumber: '2201234600002',
        baseFare: '150.00',
        taxes: '50.00',
        coupons: [
          ['USED', '100.10'],
          ['OPEN', '99.90'],
        ],
      },
    ]),
    orderDoc('RV-KWD', 'RV1', 'KWD', 'RVKWD1', [
      { ticketNumber: '2201234600011', baseFare: '120.125', taxes: '10.500', coupons: [['OPEN', '130.625']] },
    ]),
    simpleOrder('RV-PLAIN', 'RV1', 'RVPLN1', '2201234600021'),
    simpleOrder('RV-OTHER', 'RV9', 'RVOTH1', '2201234600031'),
  ]);
  await service.importChanges([
    // S2, the segment nobody has flown yet, moves to later in the day.
    {
      ...change('RV-EUR-SC', 'RV-EUR', 'RVEUR1', ['S2'], [segment('S2B', 2, 14)]),
      actionDeadline: '2030-11-27T08:00:00Z',
      consequenceOfInaction: 'CANCEL',
    },
    cancellationOf('RV-KWD', 'RVKWD1'),
  ]);
});
after(() => service.close());

describe('retrieve', () => {
  test('an order with a pending change: the change with its deadline and consequence, and the RefundQuote in minor units', async () => {
    const result = await client.retrieve({ orderId: 'RV-EUR', bookingReferences: ['rveur1'] });
    assert.equal(result.success, true);
    assert.equal(result.httpStatus, 200);
    assert.equal(result.requestId, result.envelope.ShoppingResponseId);
    assert.deepEqual(Object.keys(result.body), ['OrderViewRS']);
    assert.equal('idempotencyKey' in result, false, 'a read has no Idempotency-Key');

    const { order } = result;
    assert.equal(order.orderId, 'RV-EUR');
    assert.equal(order.currency, 'EUR');
    assert.equal(order.raw, result.envelope.Order);
    assert.equal(order.bookings.length, 1);
    const booking = order.bookings[0]!;
    const [item] = result.items;
    assert.equal(item?.status, 'SUCCESS');
    assert.equal(item.bookingReference, 'RVEUR1');
    assert.equal(item.bookingStatus, 'CONFIRMED');
    assert.equal(item.booking, booking, 'the item carries the booking it names');

    assert.equal(booking.bookingReference, 'RVEUR1');
    assert.equal(booking.bookingStatus, 'CONFIRMED');
    assert.deepEqual(
      booking.segments.map((segment) => segment.segmentId),
      ['S1', 'S2'],
    );
    assert.deepEqual(
      booking.passengers.map((passenger) => [passenger.passengerId, passenger.type, passenger.ticket?.ticketNumber]),
      [
        ['P1', 'ADT', '2201234600001'],
        ['P2', 'ADT', '2201234600002'],
      ],
    );
    const ticket = booking.passengers[0]!.ticket!;
    assert.deepEqual(
      [ticket.baseFare, ticket.baseFareMinor, ticket.taxes, ticket.taxesMinor],
      [250, 25000, 50.3, 5030],
    );
    assert.deepEqual(booking.passengers[1]!.ticket!.coupons, [
      { segmentId: 'S1', status: 'USED', value: 100.1, valueMinor: 10010 },
      { segmentId: 'S2', status: 'OPEN', value: 99.9, valueMinor: 9990 },
    ]);

    assert.equal(booking.airlineChanges.length, 1);
    const pending = booking.airlineChanges[0]!;
    assert.equal(pending.changeId, 'RV-EUR-SC');
    assert.equal(pending.kind, 'SCHEDULE_CHANGE');
    assert.equal(pending.status, 'PENDING');
    assert.deepEqual(pending.removedSegments, ['S2']);
    assert.deepEqual(
      pending.addedSegments.map(({ segmentId, origin, destination }) => [segmentId, origin, destination]),
      [['S2B', 'FRA', 'JFK']],
    );
    assert.equal(Date.parse(pending.actionDeadline ?? ''), Date.parse('2030-11-27T08:00:00Z'));
    assert.equal(pending.consequenceOfInaction, 'CANCEL');
    assert.deepEqual(booking.refunds, []);

    // Unflown coupons: 100.10 + 200.20 on the first ticket (FULL), 99.90 on the second.
    assert.deepEqual(booking.refundQuote, {
      amount: 400.2,
      amountMinor: 40020,
      currency: 'EUR',
      quoteType: 'PARTIAL',
      tickets: [
        { ticketNumber: '2201234600001', amount: 300.3, amountMinor: 30030 },
        { ticketNumber: '2201234600002', amount: 99.9, amountMinor: 9990 },
      ],
    });
    assert.deepEqual(result.envelope.Order.Bookings[0]!.RefundQuote, {
      Amount: 400.2,
      QuoteType: 'PARTIAL',
      Tickets: [
        { TicketNumber: '2201234600001', Amount: 300.3 },
        { TicketNumber: '2201234600002', Amount: 99.9 },
      ],
    });
  });

  test('the RefundQuote is what cancelInvoluntarily refunds; afterwards the booking shows the refunds, no quote', async () => {
    const quote = (await client.retrieve({ orderId: 'RV-EUR', bookingReferences: ['RVEUR1'] })).order.bookings[0]!
      .refundQuote!;
    const cancel = await client.cancelInvoluntarily({
      orderId: 'RV-EUR',
      bookingReferences: ['RVEUR1'],
      currency: 'EUR',
    });
    const refund = cancel.items[0]!.refund;
    assert.equal(refund.amountMinor, quote.amountMinor);
    assert.deepEqual(
      refund.tickets.map((ticket) => [ticket.ticketNumber, ticket.amountMinor]),
      quote.tickets.map((ticket) => [ticket.ticketNumber, ticket.amountMinor]),
    );

    const after = await client.retrieve({ orderId: 'RV-EUR', bookingReferences: ['RVEUR1'] });
    const booking = after.order.bookings[0]!;
    assert.equal(booking.bookingStatus, 'CANCELED');
    assert.equal(after.items[0]!.bookingStatus, 'CANCELED');
    assert.equal(booking.refundQuote, undefined);
    assert.equal(booking.airlineChanges[0]!.status, 'CANCELED');
    assert.deepEqual(
      booking.refunds.map(({ ticketNumber, amount, amountMinor, quoteType }) => ({
        ticketNumber,
        amount,
        amountMinor,
        quoteType,
      })),
      [
        { ticketNumber: '2201234600001', amount: 300.3, amountMinor: 30030, quoteType: 'FULL' },
        { ticketNumber: '2201234600002', amount: 99.9, amountMinor: 9990, quoteType: 'PARTIAL' },
      ],
    );
    assert.ok(booking.refunds.every((entry) => !Number.isNaN(Date.parse(entry.createdAt))));
    assert.ok(
      booking.passengers.every((passenger) => passenger.ticket!.coupons.every((coupon) => coupon.status !== 'OPEN')),
      'open coupons became REFUNDED',
    );
  });

  test('KWD: minor units in fils; a change without a deadline has none, and only removing flights defaults to CANCEL', async () => {
    const result = await client.retrieve({ orderId: 'RV-KWD', bookingReferences: 'RVKWD1' });
    const booking = result.order.bookings[0]!;
    assert.equal(result.order.currency, 'KWD');
    assert.deepEqual(
      [booking.passengers[0]!.ticket!.baseFareMinor, booking.passengers[0]!.ticket!.taxesMinor],
      [120125, 10500],
    );
    assert.equal(booking.airlineChanges[0]!.actionDeadline, undefined);
    assert.equal('ActionDeadline' in result.envelope.Order.Bookings[0]!.AirlineChanges[0]!, false);
    assert.equal(booking.airlineChanges[0]!.consequenceOfInaction, 'CANCEL');
    assert.deepEqual(booking.refundQuote, {
      amount: 130.625,
      amountMinor: 130625,
      currency: 'KWD',
      quoteType: 'FULL',
      tickets: [{ ticketNumber: '2201234600011', amount: 130.625, amountMinor: 130625 }],
    });
  });

  test('a booking without a pending change has no RefundQuote; an unknown reference is a FAILED item, not in Order.Bookings', async () => {
    const result = await client.retrieve({ orderId: 'RV-PLAIN', bookingReferences: ['RVPLN1', 'NOPE21'] });
    assert.equal(result.success, false);
    assert.deepEqual(result.errors, [
      { code: 'BOOKING_NOT_FOUND', message: 'Booking NOPE21 is not part of order RV-PLAIN.' },
    ]);
    assert.deepEqual(
      result.items.map((item) => [
        item.bookingReference,
        item.status,
        item.failure?.code,
        item.booking?.bookingReference,
      ]),
      [
        ['RVPLN1', 'SUCCESS', undefined, 'RVPLN1'],
        ['NOPE21', 'FAILED', 'BOOKING_NOT_FOUND', undefined],
      ],
    );
    assert.deepEqual(
      result.order.bookings.map((booking) => booking.bookingReference),
      ['RVPLN1'],
    );
    assert.equal(result.order.bookings[0]!.refundQuote, undefined);
    assert.deepEqual(result.order.bookings[0]!.airlineChanges, []);
  });

  test("a missing order and another agency's order alike: AirOrderNotFoundError; a malformed reference: AirOrderValidationError", async () => {
    for (const orderId of ['RV-MISSING', 'RV-OTHER']) {
      await assert.rejects(client.retrieve({ orderId, bookingReferences: ['RVOTH1'] }), (error: unknown) => {
        assert.ok(error instanceof AirOrderNotFoundError);
        assert.equal(error.code, 'ORDER_NOT_FOUND');
        assert.equal(error.status, 404);
        assert.equal(error.idempotencyKey, undefined);
        assert.equal(error.envelope?.ShoppingResponseId, error.requestId);
        return true;
      });
    }
    await assert.rejects(client.retrieve({ orderId: 'RV-PLAIN', bookingReferences: ['x'] }), (error: unknown) => {
      assert.ok(error instanceof AirOrderValidationError);
      assert.equal(error.code, 'INVALID_REQUEST');
      assert.match(error.message, /GdsBookingReference/);
      return true;
    });
  });

  test('a read carries no Idempotency-Key, and a dropped connection is retried all the same', async () => {
    const proxy = await startDroppingProxy(service.baseUrl, 1);
    try {
      const proxied = await clientFor(service, 'RV1', { baseUrl: proxy.baseUrl });
      const result = await proxied.retrieve({ orderId: 'RV-PLAIN', bookingReferences: ['RVPLN1'] });
      assert.equal(proxy.dropped, 1);
      assert.equal(result.attempts, 2);
      assert.equal(result.items[0]!.status, 'SUCCESS');
      assert.equal(proxy.received.length, 2);
      assert.deepEqual(proxy.idempotencyKeys(), [], 'no attempt carried an Idempotency-Key');
      assert.equal(proxy.headerValues('authorization').length, 2);
    } finally {
      await proxy.close();
    }
  });
});

describe('reading a retrieve response', () => {
  const context: ResponseContext = {
    status: 200,
    headers: new Headers(),
    requestId: 'req-1',
    idempotencyKey: undefined,
    replayed: false,
    attempts: 1,
  };
  const body = (booking: object) => ({
    OrderViewRS: {
      Document: { Name: 'airorder', ReferenceVersion: '1.0' },
      ShoppingResponseId: 'req-1',
      Party: {
        Sender: { TravelAgencySender: { Name: '', IATA_Number: '', AgencyID: 'A1', Contacts: { Contact: [] } } },
      },
      Order: {
        OrderID: 'O-1',
        Currency: 'EUR',
        Bookings: [
          {
            GdsBookingReference: 'ABC123',
            BookingStatus: 'CONFIRMED',
            Segments: [],
            Passengers: [],
            AirlineChanges: [],
            Refunds: [],
            ...booking,
          },
        ],
      },
      Response: [
        { Status: 'SUCCESS', Msg: '', BookingStatus: 'CONFIRMED', OrderID: 'O-1', GdsBookingReference: 'ABC123' },
      ],
      Success: {},
    },
  });

  test('a RefundQuote whose Amount is not the sum of its tickets, or an amount with more decimals than the currency, is refused, not guessed', () => {
    const quote = { Amount: 10.01, QuoteType: 'FULL', Tickets: [{ TicketNumber: '1', Amount: 10 }] };
    assert.throws(
      () => readRetrieveResult(body({ RefundQuote: quote }), context, OPERATIONS.retrieve),
      (error: unknown) => error instanceof AirOrderInvalidResponseError && /not the sum/.test(error.message),
    );
    const refund = { TicketNumber: '1', Amount: 10.005, QuoteType: 'FULL', CreatedAt: '2026-01-01T00:00:00Z' };
    assert.throws(
      () => readRetrieveResult(body({ Refunds: [refund] }), context, OPERATIONS.retrieve),
      (error: unknown) =>
        error instanceof AirOrderInvalidResponseError && /10\.005 is not an amount in EUR/.test(error.message),
    );
    const ok = readRetrieveResult(body({ RefundQuote: { ...quote, Amount: 10 } }), context, OPERATIONS.retrieve);
    assert.equal(ok.order.bookings[0]!.refundQuote?.amountMinor, 1000);
  });

  test('a SUCCESS item whose booking is missing from Order.Bookings is a broken contract', () => {
    const broken = body({});
    broken.OrderViewRS.Order.Bookings = [];
    assert.throws(() => readRetrieveResult(broken, context, OPERATIONS.retrieve), AirOrderInvalidResponseError);
  });
});
