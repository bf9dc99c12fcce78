import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AirlineChange } from '../../src/domain/order.js';
import { changeNotice } from '../../src/events/booking-events.js';
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
