/**
 * Which demo bookings `serve --demo` prints a call for (src/demo/demo-examples.ts), with documents
 * of this file's own: the first booking the airline did not change to cancel, the first of those
 * whose every ticket is refundable, the first change that adds segments to accept, another to cancel.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoExamples, type ChangeShape, type OrderShape } from '../../src/demo/demo-examples.js';

type Passenger = OrderShape['bookings'][number]['passengers'][number];
const refundable: Passenger = { ticket: { fareRules: {}, coupons: [{ status: 'OPEN' }, { status: 'OPEN' }] } };
const noTicket: Passenger = {};
const noFareRules: Passenger = { ticket: { coupons: [{ status: 'OPEN' }] } };
const partly = (status: string): Passenger => ({
  ticket: { fareRules: {}, coupons: [{ status: 'OPEN' }, { status }] },
});

function order(orderId: string, ...bookings: [string, ...Passenger[]][]): OrderShape {
  return {
    orderId,
    bookings: bookings.map(([gdsBookingReference, ...passengers]) => ({ gdsBookingReference, passengers })),
  };
}
const change = (orderId: string, gdsBookingReference: string, addedSegments = 0): ChangeShape => ({
  orderId,
  gdsBookingReference,
  addedSegments: Array.from({ length: addedSegments }, () => ({})),
});

test('each example is the first booking or change that fits it', () => {
  const orders = [
    order('O1', ['CHG001', refundable], ['TKT000', refundable, noTicket]),
    order('O2', ['CHG002', refundable], ['RFD001', refundable, refundable], ['RFD002', refundable]),
  ];
  const changes = [change('O1', 'CHG001'), change('O2', 'CHG002', 2)];
  assert.deepEqual(demoExamples(orders, changes), {
    cancel: { orderId: 'O1', gdsBookingReference: 'TKT000' },
    involuntaryAccept: { orderId: 'O2', gdsBookingReference: 'CHG002' },
    involuntaryCancel: { orderId: 'O1', gdsBookingReference: 'CHG001' },
    voluntaryRefund: { orderId: 'O2', gdsBookingReference: 'RFD001' },
  });
});

test('a booking is refundable only when every passenger has a ticket with fare rules and every coupon open', () => {
  for (const [what, passenger] of [
    ['a passenger without a ticket', noTicket],
    ['a ticket without fare rules', noFareRules],
    ['a coupon used', partly('USED')],
    ['a coupon refunded', partly('REFUNDED')],
    ['a coupon void', partly('VOID')],
  ] as const) {
    const orders = [order('O1', ['BAD001', refundable, passenger]), order('O2', ['GOOD01', refundable])];
    assert.deepEqual(
      demoExamples(orders, []).voluntaryRefund,
      { orderId: 'O2', gdsBookingReference: 'GOOD01' },
      `${what} is passed over`,
    );
    assert.deepEqual(
      demoExamples(orders, []).cancel,
      { orderId: 'O1', gdsBookingReference: 'BAD001' },
      `${what}: still the cancel example`,
    );
  }
});

test('a booking the airline changed is never the cancel or the refund example, even when refundable', () => {
  const orders = [order('O1', ['CHG001', refundable]), order('O2', ['TKT002', refundable])];
  const examples = demoExamples(orders, [change('O1', 'CHG001')]);
  assert.deepEqual(examples.cancel, { orderId: 'O2', gdsBookingReference: 'TKT002' });
  assert.deepEqual(examples.voluntaryRefund, { orderId: 'O2', gdsBookingReference: 'TKT002' });
});

test('the cancel example is the change after the accepted one when the first change adds segments', () => {
  const changes = [change('O1', 'ADD001', 1), change('O2', 'ADD002', 3), change('O3', 'DROP03')];
  const examples = demoExamples([], changes);
  assert.deepEqual(examples.involuntaryAccept, { orderId: 'O1', gdsBookingReference: 'ADD001' });
  assert.deepEqual(examples.involuntaryCancel, { orderId: 'O2', gdsBookingReference: 'ADD002' });
});

test('without a fitting booking or change, each example is null', () => {
  assert.deepEqual(demoExamples([], []), {
    cancel: null,
    involuntaryAccept: null,
    involuntaryCancel: null,
    voluntaryRefund: null,
  });
  // One change, without added segments: something to cancel, nothing to accept; every booking changed.
  const examples = demoExamples([order('O1', ['CHG001', refundable])], [change('O1', 'CHG001')]);
  assert.deepEqual(examples, {
    cancel: null,
    involuntaryAccept: null,
    involuntaryCancel: { orderId: 'O1', gdsBookingReference: 'CHG001' },
    voluntaryRefund: null,
  });
  // One change that adds segments: accepted, and no other to cancel.
  assert.equal(demoExamples([], [change('O1', 'ADD001', 1)]).involuntaryCancel, null);
});

test('only the booking reference marks a booking as changed, not its order', () => {
  const orders = [order('O1', ['CHG001', refundable], ['TKT001', refundable])];
  assert.deepEqual(demoExamples(orders, [change('O1', 'CHG001')]).cancel, {
    orderId: 'O1',
    gdsBookingReference: 'TKT001',
  });
});
