/**
 * The request's log line (src/http/request-log.ts) and its count and duration in /metrics
 * (src/http/routes/metrics-route.ts) for a route outside the operations, and the latency both give.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestService, type TestService } from '../helpers/test-service.js';

/** How long the store's ping is held in the slow readiness check: a lower bound of its latency. */
const HELD_MS = 50;

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service.close());

function logLineOf(requestId: string | null): Record<string, unknown> {
  const lines = service.logs.filter((line) => line.msg === 'request' && line.requestId === requestId);
  assert.equal(lines.length, 1, JSON.stringify(lines));
  return lines[0]!;
}

/** The value of one series in the /metrics text (asked from loopback, which may read it). */
async function metric(series: string): Promise<number> {
  const scrape = await service.request('/metrics', { method: 'GET' });
  assert.equal(scrape.status, 200);
  const line = scrape.text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  assert.ok(line, `${series} in\n${scrape.text}`);
  return Number(line.slice(series.length + 1));
}

test('a route outside the operations is logged as its method and path, with no agency', async () => {
  const health = await service.request('/healthz', { method: 'GET' });
  const line = logLineOf(health.headers.get('x-request-id'));
  assert.deepEqual(
    { agency: line.agency, operation: line.operation, code: line.code, status: line.status },
    { agency: null, operation: 'GET /healthz', code: 'OK', status: 200 },
  );
  assert.equal(await metric('airorder_requests_total{operation="/healthz",code="OK"}'), 1);
});

test('a request no route serves is logged as its method and "(no route)", with its code', async () => {
  const missing = await service.request('/AirOrderCancel/anything?x=1', { method: 'GET' });
  assert.equal(missing.status, 404);
  const line = logLineOf(missing.headers.get('x-request-id'));
  assert.deepEqual(
    { operation: line.operation, code: line.code, status: line.status },
    { operation: 'GET (no route)', code: 'ROUTE_NOT_FOUND', status: 404 },
  );
});

test('a refusal is logged with its code and status, and counted under its code', async (t) => {
  t.mock.method(service.store, 'ping', async () => {
    throw new Error('connection refused');
  });
  const ready = await service.request('/readyz', { method: 'GET' });
  assert.equal(ready.status, 503);
  const line = logLineOf(ready.headers.get('x-request-id'));
  assert.deepEqual(
    { operation: line.operation, code: line.code, status: line.status },
    { operation: 'GET /readyz', code: 'UNAVAILABLE', status: 503 },
  );
  assert.equal(await metric('airorder_requests_total{operation="/readyz",code="UNAVAILABLE"}'), 1);
});

test('the latency, in ms to two decimals in the log and in seconds in /metrics, lies within what the client waited', async (t) => {
  t.mock.method(service.store, 'ping', async () => {
    await sleep(HELD_MS);
  });
  const before = await metric('airorder_request_duration_seconds_sum{operation="/readyz"}').catch(() => 0);
  const started = performance.now();
  const ready = await service.request('/readyz', { method: 'GET' });
  const waitedMs = performance.now() - started;
  assert.equal(ready.status, 200);
  const latencyMs = logLineOf(ready.headers.get('x-request-id')).latencyMs as number;
  assert.equal(typeof latencyMs, 'number');
  assert.equal(Number(latencyMs.toFixed(2)), latencyMs, 'two decimals at most');
  // A timer may fire up to a millisecond early by the high-resolution clock.
  assert.ok(latencyMs >= HELD_MS - 1 && latencyMs <= waitedMs, `${latencyMs} ms, within [${HELD_MS}, ${waitedMs}]`);
  const seconds = (await metric('airorder_request_duration_seconds_sum{operation="/readyz"}')) - before;
  assert.ok(seconds >= (HELD_MS - 1) / 1000 && seconds <= waitedMs / 1000, `${seconds} s`);
});
