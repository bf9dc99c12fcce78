import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bearer, booking, cancelRQ, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { bookingState, changeStatuses, couponsOf, orderSnapshot, refundRows } from '../helpers/booking-state.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
});
after(() => service.close());

async function cancel(orderId: string, references: string[] | string) {
  const response = await service.post('/AirOrderCancel', cancelRQ(orderId, references), bearer(token));
  assert.equal(response.status, 200, response.text);
  return response.body.OrderViewRS;
}

const ticket = (ticketNumber: string) => ({
  ticketNumber,
  baseFare: '450.00',
  taxes: '120.50',
  coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
});

/** An EUR order with one ticketed passenger per reference, each booking over segment S1. */
async function importOrder(orderId: string, references: string[], status = 'CONFIRMED') {
  await service.importOrders([
    order(
      orderId,
      'AG1',
      'EUR',
      references.map((reference, index) =>
        booking(
          reference,
          [segment('S1')],
          [passenger('P1', ticket(`22012345678${String(index).padStart(2, '0')}`))],
          status,
        ),
      ),
    ),
  ]);
}

const success = (orderId: string, reference: string) => ({
  Status: 'SUCCESS',
  Msg: '',
  BookingStatus: 'CANCELED',
  OrderID: orderId,
  GdsBookingReference: reference,
});

test('CONFIRMED with a pending change: CANCELED, voluntary, pending change CLOSED, accepted change kept, nothing refunded', async () => {
  await importOrder('ORD-C1', ['ABC123']);
  await service.importChanges([
    change('C1-OLD', 'ORD-C1', 'ABC123', ['S1'], [segment('S1B', 1, 14)], 'SCHEDULE_CHANGE', '2026-11-01T08:00:00Z'),
  ]);
  const accept = await service.post(
    '/AirOrderInvoluntaryAccept',
    { OrderInvoluntaryAcceptRQ: { Query: { OrderID: 'ORD-C1', GdsBookingReference: ['ABC123'] } } },
    bearer(token),
  );
  assert.equal(accept.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'SUCCESS');
  await service.importChanges([
    change('C1-NEW', 'ORD-C1', 'ABC123', ['S1B'], [], 'FLIGHT_CANCELLATION', '2026-11-20T08:00:00Z'),
  ]);
  assert.equal((await changeStatuses(service, 'ORD-C1', 'ABC123'))['C1-NEW'], 'PENDING');

  const rs = await cancel('ORD-C1', ['ABC123']);
  assert.deepEqual(rs.Response, [success('ORD-C1', 'ABC123')]);
  assert.deepEqual(rs.Success, {});
  assert.equal(rs.Errors, undefined);

  const state = await bookingState(service, 'ORD-C1', 'ABC123');
  assert.equal(state.status, 'CANCELED');
  assert.equal(state.cancellation, 'VOLUNTARY');
  assert.deepEqual(await changeStatuses(service, 'ORD-C1', 'ABC123'), { 'C1-OLD': 'ACCEPTED', 'C1-NEW': 'CLOSED' });
  const resolved = await service.store.db
    .selectFrom('airline_changes')
    .select('resolved_at')
    .where('change_id', '=', 'C1-NEW')
    .executeTakeFirstOrThrow();
  assert.notEqual(resolved.resolved_at, null);
  assert.deepEqual(couponsOf(state), [[['S1B', 'OPEN', 57050]]], 'a voluntary cancel refunds no coupon');
  assert.deepEqual(await refundRows(service, 'ORD-C1'), []);
});

test('already CANCELED: SUCCESS with BookingStatus CANCELED and nothing changes', async () => {
  await importOrder('ORD-C2', ['ABC123'], 'CANCELED');
  const before = await orderSnapshot(service, 'ORD-C2');
  const rs = await cancel('ORD-C2', ['ABC123']);
  assert.deepEqual(rs.Response, [success('ORD-C2', 'ABC123')]);
  assert.deepEqual(rs.Success, {});
  assert.deepEqual(await orderSnapshot(service, 'ORD-C2'), before);
});

test('cancelling twice: the second answer is the same and the second request writes nothing', async () => {
  await importOrder('ORD-C3', ['ABC123']);
  await service.importChanges([change('C3-1', 'ORD-C3', 'ABC123', ['S1'], [segment('S1B', 1, 14)])]);
  const first = await cancel('ORD-C3', ['ABC123']);
  const afterFirst = await orderSnapshot(service, 'ORD-C3');
  const second = await cancel('ORD-C3', ['ABC123']);
  assert.deepEqual(second.Response, first.Response);
  assert.deepEqual(second.Success, {});
  assert.deepEqual(await orderSnapshot(service, 'ORD-C3'), afterFirst);
  assert.equal(afterFirst.changes[0]!.status, 'CLOSED');
});

test('a reference not in the order: FAILED BOOKING_NOT_FOUND with BookingStatus "", HTTP 200, no Success', async () => {
  await importOrder('ORD-C4', ['ABC123']);
  const before = await orderSnapshot(service, 'ORD-C4');
  const rs = await cancel('ORD-C4', ['ZZZ999']);
  assert.equal(rs.Response.length, 1);
  const [item] = rs.Response;
  assert.equal(item.Status, 'FAILED');
  assert.equal(item.BookingStatus, '');
  assert.equal(item.OrderID, 'ORD-C4');
  assert.equal(item.GdsBookingReference, 'ZZZ999');
  assert.match(item.Msg, /^BOOKING_NOT_FOUND: \S/);
  assert.equal('Success' in rs, false);
  assert.deepEqual(
    rs.Errors.map((error: any) => error.Code),
    ['BOOKING_NOT_FOUND'],
  );
  assert.ok(rs.Errors[0].Message.length > 0);
  assert.deepEqual(await orderSnapshot(service, 'ORD-C4'), before);
});

test('mixed outcomes: HTTP 200, Errors instead of Success, the found bookings cancelled, request order kept', async () => {
  await importOrder('ORD-C5', ['AAA111', 'BBB222', 'CCC333']);
  const rs = await cancel('ORD-C5', ['CCC333', 'ZZZ999', 'AAA111']);
  assert.deepEqual(
    rs.Response.map((item: any) => [item.GdsBookingReference, item.Status, item.BookingStatus]),
    [
      ['CCC333', 'SUCCESS', 'CANCELED'],
      ['ZZZ999', 'FAILED', ''],
      ['AAA111', 'SUCCESS', 'CANCELED'],
    ],
  );
  assert.equal('Success' in rs, false);
  assert.deepEqual(
    rs.Errors.map((error: any) => error.Code),
    ['BOOKING_NOT_FOUND'],
  );
  assert.equal((await bookingState(service, 'ORD-C5', 'AAA111')).status, 'CANCELED');
  assert.equal((await bookingState(service, 'ORD-C5', 'CCC333')).status, 'CANCELED');
  assert.equal(
    (await bookingState(service, 'ORD-C5', 'BBB222')).status,
    'CONFIRMED',
    'a booking not named is untouched',
  );
});

test('references differing only in case are one booking: one item, upper case', async () => {
  await service.importOrders([simpleOrder('ORD-C6', 'AG1', 'ABC123')]);
  const rs = await cancel('ORD-C6', ['abc123', 'ABC123']);
  assert.deepEqual(rs.Response, [success('ORD-C6', 'ABC123')]);
  assert.deepEqual(rs.Success, {});
});

test('duplicates are collapsed keeping the order of first appearance', async () => {
  await importOrder('ORD-C7', ['AAA111', 'BBB222']);
  const rs = await cancel('ORD-C7', ['bbb222', 'AAA111', 'BBB222', 'aaa111']);
  assert.deepEqual(rs.Response, [success('ORD-C7', 'BBB222'), success('ORD-C7', 'AAA111')]);
});

test('request order is kept, not the order of the bookings in the order', async () => {
  await importOrder('ORD-C8', ['AAA111', 'BBB222', 'CCC333']);
  const rs = await cancel('ORD-C8', ['CCC333', 'AAA111', 'BBB222']);
  assert.deepEqual(
    rs.Response.map((item: any) => item.GdsBookingReference),
    ['CCC333', 'AAA111', 'BBB222'],
  );
  assert.ok(rs.Response.every((item: any) => item.Status === 'SUCCESS'));
});

test('a single reference sent as a string is read as a one-element array', async () => {
  await importOrder('ORD-C9', ['ABC123']);
  const rs = await cancel('ORD-C9', 'abc123');
  assert.deepEqual(rs.Response, [success('ORD-C9', 'ABC123')]);
  assert.equal((await bookingState(service, 'ORD-C9', 'ABC123')).status, 'CANCELED');
});

test('a reference of another order of the same agency is not found in this one, and that order is untouched', async () => {
  await importOrder('ORD-C10', ['AAA111']);
  await importOrder('ORD-C11', ['BBB222']);
  const other = await orderSnapshot(service, 'ORD-C11');
  const rs = await cancel('ORD-C10', ['BBB222']);
  assert.equal(rs.Response[0].Status, 'FAILED');
  assert.equal(rs.Response[0].BookingStatus, '');
  assert.match(rs.Response[0].Msg, /^BOOKING_NOT_FOUND: /);
  assert.deepEqual(await orderSnapshot(service, 'ORD-C11'), other);
  assert.equal((await bookingState(service, 'ORD-C10', 'AAA111')).status, 'CONFIRMED');
});
