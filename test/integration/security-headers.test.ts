/**
 * The headers every response of the API carries (src/http/security-headers.ts): an answer, a refusal
 * before any route is found, and an operation's error envelope alike.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cancelRQ } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { assertSecurityHeaders } from '../helpers/wire-checks.js';

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service.close());

test('an answer carries every security header', async () => {
  const health = await service.request('/healthz', { method: 'GET' });
  assert.equal(health.status, 200);
  assertSecurityHeaders(health.headers, 'GET /healthz');
});

test('a path no route serves and an unauthenticated operation carry them too', async () => {
  const missing = await service.request('/nowhere', { method: 'GET' });
  assert.equal(missing.status, 404);
  assertSecurityHeaders(missing.headers, 'GET /nowhere');
  const unauthenticated = await service.post('/AirOrderCancel', cancelRQ('ORD-1', ['ABC123']));
  assert.equal(unauthenticated.status, 401);
  assertSecurityHeaders(unauthenticated.headers, 'POST /AirOrderCancel without a token');
});
