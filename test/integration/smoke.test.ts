import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
  await service.importOrders([simpleOrder('ORD-1', 'AG1', 'ABC123')]);
});
after(() => service.close());

test('a confirmed booking is cancelled over HTTP and the store says so', async () => {
  const response = await service.post('/AirOrderCancel', cancelRQ('ORD-1', ['abc123']), bearer(token));
  assert.equal(response.status, 200);
  const rs = response.body.OrderViewRS;
  assert.deepEqual(rs.Response, [
    { Status: 'SUCCESS', Msg: '', BookingStatus: 'CANCELED', OrderID: 'ORD-1', GdsBookingReference: 'ABC123' },
  ]);
  assert.deepEqual(rs.Success, {});
  assert.equal(rs.ShoppingResponseId, response.headers.get('x-request-id'));
  const row = await service.store.db
    .selectFrom('bookings')
    .select(['status', 'cancellation'])
    .where('order_id', '=', 'ORD-1')
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { status: 'CANCELED', cancellation: 'VOLUNTARY' });
});
