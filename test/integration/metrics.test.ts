import assert from 'node:assert/strict';
import http from 'node:http';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import { bearer, cancelRQ, change, involuntaryCancelRQ, simpleOrder } from '../helpers/documents.js';
import { addEndpoint } from '../../src/service/webhook-endpoints.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

/**
 * This machine's own IPv4 address on a network interface (not loopback), with its range: a client
 * connecting from it is a peer like any other on the network. Without one, the test cannot show what
 * such a peer gets, and fails rather than passing without having looked.
 */
function ownNetworkAddress(): { address: string; cidr: string } {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
  assert.ok(
    found?.cidr,
    'this machine has no IPv4 address other than loopback (os.networkInterfaces()): the /metrics access test needs one to connect from',
  );
  return { address: found.address, cidr: found.cidr };
}

interface PlainResponse {
  status: number;
  contentType: string;
  text: string;
}

/** GET over a connection from `localAddress` to the service's port at that same address. */
function getFrom(
  target: TestService,
  localAddress: string,
  pathName: string,
  headers: Record<string, string> = {},
): Promise<PlainResponse> {
  const port = Number(new URL(target.baseUrl).port);
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: localAddress, port, path: pathName, localAddress, headers, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', text }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

function assertRefused(response: PlainResponse): void {
  assert.equal(response.status, 403, response.text);
  assert.match(response.contentType, /^application\/json/);
  const body = JSON.parse(response.text);
  assert.equal(body.Errors.length, 1);
  assert.equal(body.Errors[0].Code, 'FORBIDDEN');
  assert.match(body.Errors[0].Message, /METRICS_ALLOW/);
  assert.doesNotMatch(response.text, /airorder_refund/);
}

before(async () => {
  service = await startTestService({ host: '0.0.0.0' });
  token = await service.tokenFor('AGM');
  await service.importOrders([
    simpleOrder('ORD-M1', 'AGM', 'MET001', '2209900000001'),
    simpleOrder('ORD-M2', 'AGM', 'MET002', '2209900000002'),
  ]);
  await service.importChanges([
    change('AIC-M1', 'ORD-M1', 'MET001', ['S1'], [], 'FLIGHT_CANCELLATION'),
    change('AIC-M2', 'ORD-M2', 'MET002', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ]);
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

  const refunded = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('ORD-M1', ['MET001']),
    bearer(token),
  );
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
  assert.equal(
    afterwards.value('airorder_store_transaction_duration_seconds_count{operation="AirOrderInvoluntaryCancel"}'),
    2,
  );
});

test("the store's time is observed in seconds: on a performance clock that moves 1 ms a reading, one transaction is under a second", async () => {
  await service.importOrders([simpleOrder('ORD-M3', 'AGM', 'MET003', '2209900000003')]);
  const series = 'airorder_store_transaction_duration_seconds_sum{operation="AirOrderCancel"}';
  const before = (await scrape()).value(series);
  const now = performance.now;
  let reading = 1_000_000;
  performance.now = () => (reading += 1);
  try {
    const canceled = await service.post('/AirOrderCancel', cancelRQ('ORD-M3', ['MET003']), bearer(token));
    assert.equal(canceled.body.OrderViewRS.Response[0].Status, 'SUCCESS');
  } finally {
    performance.now = now;
  }
  const observed = (await scrape()).value(series) - before;
  assert.ok(observed > 0 && observed < 1, `observed ${observed} s`);
});

test("the oldest waiting event's age is read on the service's clock, not the machine's", async () => {
  let now = '2031-03-01T10:00:00.000Z';
  const clocked = await startTestService({ clock: () => now });
  try {
    const agencyToken = await clocked.tokenFor('AGC');
    await clocked.importOrders([simpleOrder('ORD-C1', 'AGC', 'CLK001', '2209900000101')]);
    // Nothing delivers here (no dispatcher runs in the test service): the event waits.
    await addEndpoint(
      clocked.store,
      () => now,
      { allowHttp: true, allowPrivateNetworks: true },
      {
        agencyId: 'AGC',
        url: 'http://127.0.0.1:9/hooks',
      },
    );
    const cancelled = await clocked.post('/AirOrderCancel', cancelRQ('ORD-C1', ['CLK001']), bearer(agencyToken));
    assert.equal(cancelled.status, 200);
    now = '2031-03-01T10:01:30.000Z';
    const response = await clocked.request('/metrics', { method: 'GET' });
    assert.match(response.text, /^airorder_webhook_oldest_undelivered_seconds 90$/m);
  } finally {
    await clocked.close();
  }
});

describe('who may read /metrics', () => {
  const own = ownNetworkAddress();
  const metricsToken = 'scrape-0123456789abcdef-secret';
  let allowedRange: TestService;
  let withToken: TestService;

  before(async () => {
    allowedRange = await startTestService({
      host: '0.0.0.0',
      env: { METRICS_ALLOW: `10.255.0.0/16, ${own.cidr}, fd00::/8` },
    });
    // The range does not hold this machine's address: only the token can open the door here.
    withToken = await startTestService({
      host: '0.0.0.0',
      env: { METRICS_ALLOW: '10.255.0.0/16', METRICS_TOKEN: metricsToken },
    });
  });
  after(async () => {
    await allowedRange?.close();
    await withToken?.close();
  });

  test('without configuration: loopback scrapes, any other address gets 403 in the error envelope', async () => {
    const loopback = await getFrom(service, '127.0.0.1', '/metrics');
    assert.equal(loopback.status, 200);
    assert.match(loopback.text, /^airorder_pending_airline_changes /m);
    assertRefused(await getFrom(service, own.address, '/metrics'));
    // A forwarded-for header is the client's own say; the connection's peer address decides.
    assertRefused(await getFrom(service, own.address, '/metrics', { 'x-forwarded-for': '127.0.0.1' }));
    assertRefused(await getFrom(service, own.address, '/metrics', { authorization: 'Bearer anything-at-all-1234' }));
  });

  test('/healthz and /readyz stay open to every address', async () => {
    for (const target of [service, withToken]) {
      assert.equal((await getFrom(target, own.address, '/healthz')).status, 200);
      assert.equal((await getFrom(target, own.address, '/readyz')).status, 200);
    }
  });

  test('METRICS_ALLOW with a CIDR range holding the address lets it scrape', async () => {
    const response = await getFrom(allowedRange, own.address, '/metrics');
    assert.equal(response.status, 200, response.text);
    assert.match(response.text, /^airorder_pending_airline_changes /m);
    assert.equal((await getFrom(allowedRange, '127.0.0.1', '/metrics')).status, 200);
  });

  test('METRICS_TOKEN: the right bearer token scrapes from anywhere; a wrong one, or none, gets 403', async () => {
    const right = await getFrom(withToken, own.address, '/metrics', { authorization: `Bearer ${metricsToken}` });
    assert.equal(right.status, 200, right.text);
    assert.match(right.text, /^airorder_pending_airline_changes /m);
    assertRefused(await getFrom(withToken, own.address, '/metrics'));
    assertRefused(await getFrom(withToken, own.address, '/metrics', { authorization: `Bearer ${metricsToken}x` }));
    assertRefused(
      await getFrom(withToken, own.address, '/metrics', { authorization: `Bearer ${metricsToken.slice(0, -1)}` }),
    );
    // An agency's access token is no key to the metrics.
    const agencyToken = await withToken.tokenFor('AGX');
    assertRefused(await getFrom(withToken, own.address, '/metrics', { authorization: `Bearer ${agencyToken}` }));
  });

  test("a refused scrape is the client's matter: no error-level log line on any of the services", () => {
    for (const target of [service, allowedRange, withToken]) {
      assert.deepEqual(
        target.logs.filter((line) => Number(line.level) >= 50),
        [],
      );
    }
  });
});
