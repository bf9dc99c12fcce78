/**
 * The error handler's own part (docs/errors.md): a 500 is logged once, as an error with its cause,
 * and a refusal is not; a request outside the operations gets the plain error body.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { socketRequest } from '../helpers/raw-socket.js';
import { refuseRecordWrites } from '../helpers/stored-records.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
  await service.importOrders([simpleOrder('ORD-EH1', 'AG1', 'EHB001', '2207777000001')]);
});
after(() => service.close());

const errorLines = () => service.logs.filter((line) => line.level === 50);

test('a 500 is logged once as an error, with the cause the client never sees; a refusal logs no error', async () => {
  const notFound = await service.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['EHB001']), bearer(token));
  assert.equal(notFound.status, 404);
  assert.deepEqual(errorLines(), []);

  const undo = await refuseRecordWrites(
    service.store.db,
    'fail_eh1',
    "NEW.order_id = 'ORD-EH1'",
    'cause-from-the-store',
  );
  try {
    const failed = await service.post('/AirOrderCancel', cancelRQ('ORD-EH1', ['EHB001']), bearer(token));
    assert.equal(failed.status, 500);
    assert.doesNotMatch(failed.text, /cause-from-the-store/);
  } finally {
    await undo();
  }
  const lines = errorLines();
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.equal(lines[0]!.msg, 'request failed');
  assert.match(JSON.stringify(lines[0]!.err), /cause-from-the-store/);
});

test('outside the operations the error body is the plain one: a path out of /docs/static is 403 REQUEST_REFUSED', async () => {
  const port = Number(new URL(service.baseUrl).port);
  const answer = await socketRequest(port, {
    method: 'GET',
    path: '/docs/static/../../package.json',
    headers: [['Host', 'x']],
  });
  assert.ok(answer);
  assert.equal(answer.status, 403);
  assert.deepEqual(JSON.parse(answer.raw.toString('utf8')), {
    Errors: [{ Code: 'REQUEST_REFUSED', Message: 'The request is for something the service does not serve.' }],
  });
});

test('a refused event list has no result per booking, even when its query names an order and references', async () => {
  const refused = await service.post(
    '/AirOrderEventList',
    JSON.stringify({
      OrderEventListRQ: { Query: { OrderID: 'ORD-EH1', GdsBookingReference: ['EHB001'], Limit: 'many' } },
    }),
    bearer(token),
  );
  assert.equal(refused.status, 400);
  const body = JSON.parse(refused.text) as { OrderEventListRS: { Events: unknown[]; Errors: unknown[] } };
  assert.deepEqual(body.OrderEventListRS.Events, []);
  assert.deepEqual(body.OrderEventListRS.Errors, [
    { Code: 'INVALID_REQUEST', Message: 'OrderEventListRQ.Query.Limit must be a whole number from 1 to 500.' },
  ]);
});

test('a console path whose id is past what the router reads is 404 ROUTE_NOT_FOUND, and logs no error', async () => {
  const before = errorLines().length;
  const id = 'A'.repeat(101);
  const answer = await service.request(`/console/orders/${id}?view=full`, { method: 'GET' });
  assert.equal(answer.status, 404);
  assert.deepEqual(JSON.parse(answer.text), {
    Errors: [{ Code: 'ROUTE_NOT_FOUND', Message: `No route GET /console/orders/${id}.` }],
  });
  assert.equal(errorLines().length, before);
  // At the router's limit the console's own page answers.
  const atLimit = await service.request(`/console/orders/${'A'.repeat(100)}`, { method: 'GET' });
  assert.equal(atLimit.status, 200);
  assert.match(atLimit.text, /Sign in/);
});
