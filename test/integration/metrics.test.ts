import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bearer, cancelRQ, change, involuntaryCancelRQ, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AGM');
  await service.importOrders([simpleOrder('ORD-M1', 'AGM', 'MET001', '2209900000001'), simpleOrder('ORD-M2', 'AGM', 'MET002', '2209900000002')]);
  await service.importChanges([change('AIC-M1', 'ORD-M1', 'MET001', ['S1'], [], 'FLIGHT_CANCELLATION'), change('AIC-M2', 'ORD-M2', 'MET002', ['S1'], [], 'FLIGHT_CANCELLATION')]);
});
after(() => service.close());

async function scrape(): Promise<{ text: string; value: (series: string) => number }> {
  const response = await service.request('/metrics', { method: 'GET' });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const value = (series: string) => {
    const line = response.text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
  return { text: response.text, value };
}

test('metrics move as requests are served: requests by outcome, refunds by currency, pending changes', async () => {
  const before = await scrape();
  assert.equal(before.value('airorder_pending_airline_changes'), 2);
  assert.equal(before.value('airorder_refunds_total{currency="EUR"}'), 0);
  assert.match(before.text, /^process_resident_memory_bytes \d+$/m);
  assert.match(before.text, /^# TYPE airorder_request_duration_seconds histogram$/m);

  const refunded = await service.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('ORD-M1', ['MET001']), bearer(token));
  assert.equal(refunded.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS');
  // A retry answers with the stored refund and refunds nothing: the counters must not move again.
  await service.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('ORD-M1', ['MET001']), bearer(token));
  const missing = await service.post('/AirOrderCancel', cancelRQ('ORD-M1', ['NOPE99']), bearer(token));
  assert.equal(missing.status, 200);
  const unauthenticated = await service.post('/AirOrderCancel', cancelRQ('ORD-M1', ['MET001']));
  assert.equal(unauthenticated.status, 401);

  const afterwards = await scrape();
  assert.equal(afterwards.value('airorder_pending_airline_changes'), 1);
  assert.equal(afterwards.value('airorder_refunds_total{currency="EUR"}'), 1);
  assert.equal(afterwards.value('airorder_refunded_minor_units_total{currency="EUR"}'), 57050);
  assert.equal(afterwards.value('airorder_requests_total{operation="AirOrderInvoluntaryCancel",code="OK"}'), 2);
  assert.equal(afterwards.value('airorder_requests_total{operation="AirOrderCancel",code="BOOKING_NOT_FOUND"}'), 1);
  assert.equal(afterwards.value('airorder_requests_total{operation="AirOrderCancel",code="AUTH_MISSING"}'), 1);
  assert.equal(afterwards.value('airorder_request_duration_seconds_count{operation="AirOrderInvoluntaryCancel"}'), 2);
  assert.equal(afterwards.value('airorder_store_transaction_duration_seconds_count{operation="AirOrderInvoluntaryCancel"}'), 2);
});
