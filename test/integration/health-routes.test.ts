/**
 * GET /healthz and GET /readyz (src/http/routes/health-routes.ts): alive whatever the store, ready
 * only while the store answers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service.close());

test('with the store answering: alive and ready', async () => {
  const alive = await service.request('/healthz', { method: 'GET' });
  assert.equal(alive.status, 200);
  assert.deepEqual(alive.body, { status: 'ok' });
  const ready = await service.request('/readyz', { method: 'GET' });
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.body, { status: 'ready' });
});

test('with the store away: still alive, not ready (503 UNAVAILABLE, retry after 1 s)', async (t) => {
  t.mock.method(service.store, 'ping', async () => {
    throw new Error('connection refused');
  });
  const alive = await service.request('/healthz', { method: 'GET' });
  assert.equal(alive.status, 200);
  assert.deepEqual(alive.body, { status: 'ok' });
  const ready = await service.request('/readyz', { method: 'GET' });
  assert.equal(ready.status, 503, ready.text);
  assert.deepEqual(ready.body, {
    Errors: [
      { Code: 'UNAVAILABLE', Message: 'The service is temporarily unavailable; retry after the delay in Retry-After.' },
    ],
  });
  assert.equal(ready.headers.get('retry-after'), '1');
});
