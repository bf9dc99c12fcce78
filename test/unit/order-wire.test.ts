import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Booking, Order } from '../../src/domain/order.js';
import { wireOrder } from '../../src/http/order-wire.js';
import { confirmedBooking, coupon, pax, pendingChange, seg } from '../helpers/domain-fixtures.js';

/** docs/contract.md, AirOrderRetrieve: the order as the interface spells it, amounts in the order's currency. */
const SEGMENT = {
  SegmentID: 'S1',
  Carrier: 'LH',
  FlightNumber: '400',
  Origin: 'FRA',
  Destination: 'JFK',
  Departure: '2026-12-01T10:00:00Z',
  Arrival: '2026-12-01T10:00:00Z',
};

/** A booking with a ticketed passenger, one who left by a voluntary refund, and a refund of each kind. */
function travelled(partial: Partial<Booking> = {}): Booking {
  return confirmedBooking({
    reference: 'ABC123',
    passengers: [
      pax('P1', {
        ticketNumber: '2201234567890',
        baseFare: 50000,
        taxes: 7050,
        coupons: [coupon('S1', 57050)],
      }),
      {
        ...pax('P2', null),
        type: 'CHD',
        givenName: 'BYRON',
        surname: 'KING',
        canceled: { at: '2026-11-21T09:00:00Z', quoteId: 'rfq_0123456789abcdef01234567' },
      },
    ],
    refunds: [
      { ticketNumber: '2201234567891', amount: 1234, quoteType: 'PARTIAL', createdAt: '2026-11-20T08:00:00Z' },
      {
        ticketNumber: '2201234567892',
        amount: 45050,
        quoteType: 'FULL',
        createdAt: '2026-11-21T09:00:00Z',
        breakdown: {
          fare: 40000,
          taxes: 10050,
          penalty: 5000,
          taxLines: [{ code: 'YQ', amount: 10050, refundable: true }],
        },
        quoteId: 'rfq_0123456789abcdef01234567',
      },
    ],
    ...partial,
  });
}

const PASSENGERS = [
  {
    PassengerID: 'P1',
    Type: 'ADT',
    GivenName: 'ADA',
    Surname: 'LOVELACE',
    Ticket: {
      TicketNumber: '2201234567890',
      BaseFare: 500,
      Taxes: 70.5,
      Coupons: [{ SegmentID: 'S1', Status: 'OPEN', Value: 570.5 }],
    },
  },
  { PassengerID: 'P2', Type: 'CHD', GivenName: 'BYRON', Surname: 'KING', CanceledAt: '2026-11-21T09:00:00Z' },
];

const REFUNDS = [
  { TicketNumber: '2201234567891', Amount: 12.34, QuoteType: 'PARTIAL', CreatedAt: '2026-11-20T08:00:00Z' },
  {
    TicketNumber: '2201234567892',
    Amount: 450.5,
    QuoteType: 'FULL',
    CreatedAt: '2026-11-21T09:00:00Z',
    Fare: 400,
    Taxes: 100.5,
    Penalty: 50,
    TaxBreakdown: [{ TaxCode: 'YQ', Amount: 100.5, Refundable: true }],
    QuoteID: 'rfq_0123456789abcdef01234567',
  },
];

test('the order with the bookings asked for: passengers, tickets, refunds and their breakdowns', () => {
  const booking = travelled();
  const other = travelled({ reference: 'DEF456' });
  const order: Order = { orderId: 'ORD-1', agencyId: 'AG1', currency: 'EUR', bookings: [booking, other] };
  assert.deepEqual(wireOrder(order, [booking]), {
    OrderID: 'ORD-1',
    Currency: 'EUR',
    Bookings: [
      {
        GdsBookingReference: 'ABC123',
        BookingStatus: 'CONFIRMED',
        Segments: [SEGMENT],
        Passengers: PASSENGERS,
        AirlineChanges: [],
        Refunds: REFUNDS,
      },
    ],
  });
  assert.deepEqual(wireOrder(order, []), { OrderID: 'ORD-1', Currency: 'EUR', Bookings: [] });
});

test("amounts in the order's currency: yen have no minor digits", () => {
  const booking = travelled();
  const wired = wireOrder({ orderId: 'ORD-1', agencyId: 'AG1', currency: 'JPY', bookings: [booking] }, [booking]);
  const [wiredBooking] = wired.Bookings;
  assert.deepEqual(wiredBooking!.Passengers[0]!.Ticket, {
    TicketNumber: '2201234567890',
    BaseFare: 50000,
    Taxes: 7050,
    Coupons: [{ SegmentID: 'S1', Status: 'OPEN', Value: 57050 }],
  });
  assert.deepEqual(wiredBooking!.Refunds[1], {
    TicketNumber: '2201234567892',
    Amount: 45050,
    QuoteType: 'FULL',
    CreatedAt: '2026-11-21T09:00:00Z',
    Fare: 40000,
    Taxes: 10050,
    Penalty: 5000,
    TaxBreakdown: [{ TaxCode: 'YQ', Amount: 10050, Refundable: true }],
    QuoteID: 'rfq_0123456789abcdef01234567',
  });
});

test('a confirmed booking with a change to answer shows what an involuntary cancel would refund now', () => {
  const change = pendingChange('CHG1', ['S1'], [seg('S2')]);
  const booking = confirmedBooking({ changes: [change] });
  const order: Order = { orderId: 'ORD-1', agencyId: 'AG1', currency: 'EUR', bookings: [booking] };
  const [wired] = wireOrder(order, [booking]).Bookings;
  assert.deepEqual(wired!.AirlineChanges, [
    {
      ChangeID: 'CHG1',
      Kind: 'SCHEDULE_CHANGE',
      Status: 'PENDING',
      DetectedAt: '2026-11-20T08:00:00Z',
      RemovedSegments: ['S1'],
      AddedSegments: [{ ...SEGMENT, SegmentID: 'S2' }],
      ConsequenceOfInaction: 'ACCEPT',
    },
  ]);
  assert.deepEqual(wired!.RefundQuote, {
    Amount: 570.5,
    QuoteType: 'FULL',
    Tickets: [{ TicketNumber: '2201234567890', Amount: 570.5 }],
  });
});

test('no refund quote on a cancelled booking, nor once every change is answered', () => {
  const pending = pendingChange('CHG1', ['S1'], [seg('S2')]);
  for (const booking of [
    confirmedBooking({ status: 'CANCELED', cancellation: 'INVOLUNTARY', changes: [pending] }),
    confirmedBooking({ changes: [{ ...pending, status: 'ACCEPTED' }] }),
    confirmedBooking(),
  ]) {
    const [wired] = wireOrder({ orderId: 'ORD-1', agencyId: 'AG1', currency: 'EUR', bookings: [booking] }, [
      booking,
    ]).Bookings;
    assert.equal('RefundQuote' in wired!, false, JSON.stringify(booking));
  }
});
