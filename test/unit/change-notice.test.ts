import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AirlineChange } from '../../src/domain/order.js';
import { bookingEvents, changeNotice } from '../../src/events/booking-events.js';
import { confirmedBooking, pendingChange, seg } from '../helpers/domain-fixtures.js';

/**
 * What a change notice offers the agency, on bookings the feed's tests cannot reach through the
 * service: every operation that cancels a booking closes its pending changes, and a change is
 * announced while it is pending. The rule still holds for the function itself: actions only on a
 * confirmed booking with something pending, and a refund quote only with an action.
 */
const HEAD = { orderId: 'ORD-1', agencyId: 'AG1', currency: 'EUR' };

function notice(...args: Parameters<typeof confirmedBooking>) {
  const booking = confirmedBooking(...args);
  return changeNotice('airline_change.detected', HEAD, booking, booking.changes[0]!).data;
}

function resolved(change: AirlineChange, status: AirlineChange['status']): AirlineChange {
  return { ...change, status };
}

describe('changeNotice', () => {
  test('a pending change with a replacement on a confirmed booking: accept or cancel, with the refund quote', () => {
    const data = notice({ changes: [pendingChange('C1', ['S1'], [seg('S1B')])] });
    assert.deepEqual(data.AvailableActions, ['ACCEPT', 'CANCEL']);
    assert.deepEqual(data.RefundQuote, {
      Amount: 570.5,
      QuoteType: 'FULL',
      Tickets: [{ TicketNumber: '2201234567890', Amount: 570.5 }],
    });
  });

  test('a cancelled booking offers nothing and quotes no refund, even with a change still marked pending', () => {
    const data = notice({
      status: 'CANCELED',
      cancellation: 'VOLUNTARY',
      changes: [pendingChange('C1', ['S1'], [seg('S1B')])],
    });
    assert.deepEqual(data.AvailableActions, []);
    assert.equal('RefundQuote' in data, false);
  });

  test('a confirmed booking whose changes are all resolved offers nothing and quotes no refund', () => {
    const data = notice({ changes: [resolved(pendingChange('C1', ['S1'], [seg('S1B')]), 'ACCEPTED')] });
    assert.deepEqual(data.AvailableActions, []);
    assert.equal('RefundQuote' in data, false);
  });
});

describe('changeNotice: what the agency can do', () => {
  test('a pending change that adds no flight: cancel only, with the refund quote', () => {
    const data = notice({ changes: [pendingChange('C1', ['S1'], [])] });
    assert.deepEqual(data.AvailableActions, ['CANCEL']);
    assert.equal((data.RefundQuote as { Amount: number }).Amount, 570.5);
  });

  test('two pending changes, only one of which adds a flight: cancel only', () => {
    const booking = confirmedBooking({
      changes: [pendingChange('C1', ['S1'], [seg('S1B')]), pendingChange('C2', ['S1'], [])],
    });
    assert.deepEqual(
      changeNotice('airline_change.detected', HEAD, booking, booking.changes[0]!).data.AvailableActions,
      ['CANCEL'],
    );
  });

  test('the change as sent: its ActionDeadline only when the airline set one', () => {
    const plain = notice({ changes: [pendingChange('C1', ['S1'], [seg('S1B')])] });
    assert.equal('ActionDeadline' in (plain.Change as object), false);
    const due = { ...pendingChange('C1', ['S1'], [seg('S1B')]), actionDeadline: '2026-11-22T09:00:00.000Z' };
    const timed = notice({ changes: [due] });
    assert.deepEqual(timed.Change, {
      ChangeID: 'C1',
      Kind: 'SCHEDULE_CHANGE',
      Status: 'PENDING',
      DetectedAt: '2026-11-20T08:00:00Z',
      RemovedSegments: ['S1'],
      AddedSegments: [
        {
          SegmentID: 'S1B',
          Carrier: 'LH',
          FlightNumber: '400',
          Origin: 'FRA',
          Destination: 'JFK',
          Departure: '2026-12-01T10:00:00Z',
          Arrival: '2026-12-01T10:00:00Z',
        },
      ],
      ActionDeadline: '2026-11-22T09:00:00.000Z',
      ConsequenceOfInaction: 'ACCEPT',
    });
  });
});

describe('bookingEvents', () => {
  const refund = { ticketNumber: '2201234567890', amount: 47050, quoteType: 'FULL' as const, createdAt: 'T' };

  test('nothing changed: no events', () => {
    const booking = confirmedBooking({ changes: [pendingChange('C1', ['S1'], [])] });
    assert.deepEqual(bookingEvents(HEAD, booking, booking, 'AGENCY'), []);
  });

  test('a change resolved: one event; a change that was already resolved, or is still pending, none', () => {
    const before = confirmedBooking({
      changes: [
        pendingChange('C1', ['S1'], [seg('S1B')]),
        resolved(pendingChange('C2', ['S1'], []), 'CANCELED'),
        pendingChange('C3', ['S1'], []),
      ],
    });
    const after = {
      ...before,
      changes: [resolved(before.changes[0]!, 'ACCEPTED'), before.changes[1]!, before.changes[2]!],
    };
    const events = bookingEvents(HEAD, before, after, 'OPERATOR');
    assert.deepEqual(
      events.map((event) => [event.type, event.agencyId, (event.data.Change as { ChangeID: string }).ChangeID]),
      [['airline_change.resolved', 'AG1', 'C1']],
    );
    assert.equal(events[0]!.data.ResolvedBy, 'OPERATOR');
    assert.equal(events[0]!.data.GdsBookingReference, 'ABC123');
  });

  test('a voluntary refund that cancels the booking: the cancellation with what the refunds came to, and the refund with its breakdown', () => {
    const before = confirmedBooking();
    const voluntary = {
      ...refund,
      quoteId: 'rfq_1',
      breakdown: { fare: 50000, taxes: 7050, penalty: 10000, taxLines: [] },
    };
    const after = confirmedBooking({ status: 'CANCELED', cancellation: 'VOLUNTARY', refunds: [voluntary] });
    const [canceled, refunded, ...rest] = bookingEvents(HEAD, before, after, 'AGENCY');
    assert.deepEqual(rest, []);
    assert.deepEqual(canceled, {
      agencyId: 'AG1',
      type: 'booking.canceled',
      data: {
        OrderID: 'ORD-1',
        GdsBookingReference: 'ABC123',
        Cancellation: 'VOLUNTARY',
        CanceledBy: 'AGENCY',
        Currency: 'EUR',
        RefundAmount: 470.5,
      },
    });
    assert.deepEqual(refunded, {
      agencyId: 'AG1',
      type: 'booking.refunded',
      data: {
        OrderID: 'ORD-1',
        GdsBookingReference: 'ABC123',
        Currency: 'EUR',
        RefundAmount: 470.5,
        Tickets: [
          {
            TicketNumber: '2201234567890',
            Amount: 470.5,
            QuoteType: 'FULL',
            Fare: 500,
            Taxes: 70.5,
            Penalty: 100,
            QuoteID: 'rfq_1',
          },
        ],
        RefundedBy: 'AGENCY',
      },
    });
  });

  test('a cancellation without a new refund, or with an involuntary one: no refund total on the cancellation', () => {
    const before = confirmedBooking();
    const plain = bookingEvents(
      HEAD,
      before,
      confirmedBooking({ status: 'CANCELED', cancellation: 'VOLUNTARY' }),
      'AGENCY',
    );
    assert.deepEqual(
      plain.map((event) => [event.type, 'RefundAmount' in event.data]),
      [['booking.canceled', false]],
    );
    const involuntary = bookingEvents(
      HEAD,
      before,
      confirmedBooking({ status: 'CANCELED', cancellation: 'INVOLUNTARY', refunds: [refund] }),
      'DEADLINE',
    );
    assert.deepEqual(
      involuntary.map((event) => [event.type, 'RefundAmount' in event.data]),
      [
        ['booking.canceled', false],
        ['booking.refunded', true],
      ],
    );
    assert.deepEqual((involuntary[1]!.data.Tickets as object[])[0], {
      TicketNumber: '2201234567890',
      Amount: 470.5,
      QuoteType: 'FULL',
    });
  });

  test('a booking already cancelled that gets a refund: only the refund, of the new refunds alone', () => {
    const earlier = { ...refund, ticketNumber: '2201234567891', amount: 100 };
    const before = confirmedBooking({ status: 'CANCELED', cancellation: 'VOLUNTARY', refunds: [earlier] });
    const after = { ...before, refunds: [earlier, refund] };
    const events = bookingEvents(HEAD, before, after, 'OPERATOR');
    assert.deepEqual(
      events.map((event) => [event.type, event.data.RefundAmount]),
      [['booking.refunded', 470.5]],
    );
  });
});
