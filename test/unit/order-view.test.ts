import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Booking, Order, Passenger, Ticket } from '../../src/domain/order.js';
import { orderView } from '../../src/documents/order-view.js';

/** `airorder orders show`: the order in the order document's shape, amounts back in decimal text, the current state added. */

const S1 = {
  segmentId: 'S1',
  carrier: 'LH',
  flightNumber: '400',
  origin: 'FRA',
  destination: 'JFK',
  departure: '2026-12-01T10:00:00Z',
  arrival: '2026-12-01T18:55:00Z',
};

const PLAIN_TICKET: Ticket = {
  ticketNumber: '2201234567890',
  baseFare: 45000,
  taxes: 12050,
  coupons: [{ segmentId: 'S1', status: 'USED', value: 57050 }],
};

function passengerOf(ticket: Ticket | null, extra: Partial<Passenger> = {}): Passenger {
  return { passengerId: 'P1', type: 'ADT', givenName: 'ADA', surname: 'LOVELACE', ticket, ...extra };
}

function orderOf(bookingFields: Partial<Booking>, currency = 'EUR'): Order {
  return {
    orderId: 'ORD-1001',
    agencyId: 'AGT042',
    currency,
    bookings: [
      {
        reference: 'ABC123',
        status: 'CONFIRMED',
        cancellation: null,
        segments: [S1],
        passengers: [passengerOf(PLAIN_TICKET)],
        changes: [],
        refunds: [],
        ...bookingFields,
      },
    ],
  };
}

function ticketView(ticket: Ticket, currency = 'EUR') {
  return (
    orderView(orderOf({ passengers: [passengerOf(ticket)] }, currency)).bookings[0]!.passengers[0] as {
      ticket: unknown;
    }
  ).ticket;
}

test('an order is shown as its document: amounts as decimal text, each booking with its status, changes and refunds', () => {
  assert.deepEqual(orderView(orderOf({})), {
    orderId: 'ORD-1001',
    agencyId: 'AGT042',
    currency: 'EUR',
    bookings: [
      {
        gdsBookingReference: 'ABC123',
        status: 'CONFIRMED',
        segments: [S1],
        passengers: [
          {
            passengerId: 'P1',
            type: 'ADT',
            givenName: 'ADA',
            surname: 'LOVELACE',
            ticket: {
              ticketNumber: '2201234567890',
              baseFare: '450.00',
              taxes: '120.50',
              coupons: [{ segmentId: 'S1', status: 'USED', value: '570.50' }],
            },
          },
        ],
        changes: [],
        refunds: [],
      },
    ],
  });
});

test("amounts are written with the decimals of the order's currency", () => {
  assert.deepEqual(
    ticketView(
      { ...PLAIN_TICKET, baseFare: 1200, taxes: 5, coupons: [{ segmentId: 'S1', status: 'OPEN', value: 1205 }] },
      'JPY',
    ),
    {
      ticketNumber: '2201234567890',
      baseFare: '1200',
      taxes: '5',
      coupons: [{ segmentId: 'S1', status: 'OPEN', value: '1205' }],
    },
  );
});

test('a passenger without a ticket is shown without one; one who left by a refund shows when', () => {
  const view = orderView(
    orderOf({
      passengers: [
        passengerOf(null),
        {
          ...passengerOf(PLAIN_TICKET, {
            passengerId: 'P2',
            canceled: { at: '2026-11-02T10:00:00.000Z', quoteId: 'Q1' },
          }),
        },
      ],
    }),
  ).bookings[0]!.passengers;
  assert.deepEqual(view[0], { passengerId: 'P1', type: 'ADT', givenName: 'ADA', surname: 'LOVELACE' });
  assert.equal((view[1] as { canceledAt?: string }).canceledAt, '2026-11-02T10:00:00.000Z');
  assert.equal('canceledAt' in view[0]!, false);
});

test('a ticket shows its issue time, tax breakdown and fare rules when it has them', () => {
  assert.deepEqual(
    ticketView({
      ...PLAIN_TICKET,
      issuedAt: '2026-10-01T10:00:00+02:00',
      taxBreakdown: [
        { code: 'YQ', amount: 12000, refundable: false },
        { code: 'DE', amount: 50 },
      ],
      fareRules: { refundable: true, penalty: 2550 },
    }),
    {
      ticketNumber: '2201234567890',
      baseFare: '450.00',
      taxes: '120.50',
      coupons: [{ segmentId: 'S1', status: 'USED', value: '570.50' }],
      issuedAt: '2026-10-01T10:00:00+02:00',
      taxBreakdown: [
        { code: 'YQ', amount: '120.00', refundable: false },
        { code: 'DE', amount: '0.50' },
      ],
      fareRules: { refundable: true, penalty: '25.50' },
    },
  );
  assert.deepEqual(
    (ticketView({ ...PLAIN_TICKET, fareRules: { refundable: false } }) as { fareRules: unknown }).fareRules,
    {
      refundable: false,
    },
  );
});

test('a penalty percentage is written back in percent, without trailing zeros', () => {
  const percent = (penaltyBasisPoints: number) =>
    (ticketView({ ...PLAIN_TICKET, fareRules: { refundable: true, penaltyBasisPoints } }) as { fareRules: unknown })
      .fareRules;
  assert.deepEqual(percent(3500), { refundable: true, penaltyPercent: '35' });
  const texts = [0, 1, 5, 10, 50, 99, 100, 101, 110, 1205, 1250, 3500, 9999, 10000].map(
    (points) => (percent(points) as { penaltyPercent: string }).penaltyPercent,
  );
  assert.deepEqual(texts, [
    '0',
    '0.01',
    '0.05',
    '0.1',
    '0.5',
    '0.99',
    '1',
    '1.01',
    '1.1',
    '12.05',
    '12.5',
    '35',
    '99.99',
    '100',
  ]);
});

test("a booking's changes are shown as change documents with their status; the deadline only when there is one", () => {
  const change = {
    changeId: 'AIC-77',
    kind: 'SCHEDULE_CHANGE' as const,
    detectedAt: '2026-11-20T08:00:00.000Z',
    removedSegments: ['S1'],
    addedSegments: [{ ...S1, segmentId: 'S1B' }],
    status: 'PENDING' as const,
    actionDeadline: null,
    consequenceOfInaction: 'ACCEPT' as const,
  };
  const view = orderView(
    orderOf({
      changes: [
        change,
        {
          ...change,
          changeId: 'AIC-78',
          actionDeadline: '2026-11-25T12:00:00.000Z',
          consequenceOfInaction: 'CANCEL',
          status: 'ACCEPTED',
        },
      ],
    }),
  ).bookings[0]!.changes;
  assert.deepEqual(view, [
    {
      changeId: 'AIC-77',
      orderId: 'ORD-1001',
      gdsBookingReference: 'ABC123',
      kind: 'SCHEDULE_CHANGE',
      detectedAt: '2026-11-20T08:00:00.000Z',
      removedSegments: ['S1'],
      addedSegments: [{ ...S1, segmentId: 'S1B' }],
      consequenceOfInaction: 'ACCEPT',
      status: 'PENDING',
    },
    {
      changeId: 'AIC-78',
      orderId: 'ORD-1001',
      gdsBookingReference: 'ABC123',
      kind: 'SCHEDULE_CHANGE',
      detectedAt: '2026-11-20T08:00:00.000Z',
      removedSegments: ['S1'],
      addedSegments: [{ ...S1, segmentId: 'S1B' }],
      actionDeadline: '2026-11-25T12:00:00.000Z',
      consequenceOfInaction: 'CANCEL',
      status: 'ACCEPTED',
    },
  ]);
});

test("a booking's refunds are shown with their amounts; a voluntary one with its breakdown and quote", () => {
  const view = orderView(
    orderOf({
      status: 'CANCELED',
      cancellation: 'VOLUNTARY',
      refunds: [
        {
          ticketNumber: '2201234567890',
          amount: 57050,
          quoteType: 'FULL',
          createdAt: '2026-11-21T09:00:00.000Z',
        },
        {
          ticketNumber: '2201234567891',
          amount: 40000,
          quoteType: 'PARTIAL',
          createdAt: '2026-11-22T09:00:00.000Z',
          breakdown: { fare: 35000, taxes: 7500, penalty: 2500, taxLines: [] },
          quoteId: 'Q-1',
        },
      ],
    }),
  ).bookings[0]!;
  assert.equal(view.status, 'CANCELED');
  assert.deepEqual(view.refunds, [
    {
      ticketNumber: '2201234567890',
      amount: '570.50',
      quoteType: 'FULL',
      createdAt: '2026-11-21T09:00:00.000Z',
    },
    {
      ticketNumber: '2201234567891',
      amount: '400.00',
      quoteType: 'PARTIAL',
      createdAt: '2026-11-22T09:00:00.000Z',
      fare: '350.00',
      taxes: '75.00',
      penalty: '25.00',
      quoteId: 'Q-1',
    },
  ]);
});
