/**
 * The headers every response of the API carries (src/http/security-headers.ts): an answer, a refusal
 * before any route is found, and an operation's error envelope alike.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cancelRQ } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const STRICT = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service.close());

function assertStrict(headers: Headers, what: string): void {
  for (const [name, value] of Object.entries(STRICT)) assert.equal(headers.get(name), value, `${what}: ${name}`);
}

test('an answer carries every security header', async () => {
  const health = await service.request('/healthz', { method: 'GET' });
  assert.equal(health.status, 200);
  assertStrict(health.headers, 'GET /healthz');
});

test('a path no route serves and an unauthenticated operation carry them too', async () => {
  const missing = await service.request('/nowhere', { method: 'GET' });
  assert.equal(missing.status, 404);
  assertStrict(missing.headers, 'GET /nowhere');
  const unauthenticated = await service.post('/AirOrderCancel', cancelRQ('ORD-1', ['ABC123']));
  assert.equal(unauthenticated.status, 401);
  assertStrict(unauthenticated.headers, 'POST /AirOrderCancel without a token');
});
