import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { runSql } from '../../src/store/raw-sql.js';
import { addEndpoint, rotateSecret, setEnabled } from '../../src/service/webhook-endpoints.js';
import { WebhookDispatcher } from '../../src/webhook-delivery/dispatcher.js';
import { bearer, cancelRQ, change, involuntaryCancelRQ, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * Webhook deliveries of real events to real receivers on loopback, checked with the Standard
 * Webhooks reference library. The dispatcher is driven by its tick(), as `serve` drives it every
 * second; attempts go over real HTTP with real time-outs.
 */
const OPEN = { allowHttp: true, allowPrivateNetworks: true };
const quiet = { info: () => {}, warn: () => {} };
let service: TestService;
let token: string;
let serial = 0;
const receivers: Receiver[] = [];

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
  await service.tokenFor('AG2');
});
after(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await service.close();
});

function dispatcher(retrySchedule: number[] = [200, 200, 200], timeoutMs = 800, policy = OPEN) {
  const counted: string[] = [];
  const made = new WebhookDispatcher(
    service.store,
    () => new Date().toISOString(),
    { retrySchedule, timeoutMs, policy },
    quiet,
    (outcome) => counted.push(outcome),
  );
  return Object.assign(made, { counted });
}

async function receiver(): Promise<Receiver> {
  const made = await startReceiver();
  receivers.push(made);
  return made;
}

const ticketOf = (n: number) => `22055500${String(n).padStart(5, '0')}`;

/** A fresh order of AG1 with a pending change, whose involuntary cancel makes three events. */
async function orderWithChange(): Promise<{ orderId: string; reference: string; n: number }> {
  const n = ++serial;
  const orderId = `WH-${n}`;
  const reference = `WHK${String(n).padStart(3, '0')}`;
  await service.importOrders([simpleOrder(orderId, 'AG1', reference, ticketOf(n))]);
  await service.importChanges([change(`WHC-${n}`, orderId, reference, ['S1'], [segment('S1B', 1, 14)])]);
  return { orderId, reference, n };
}

async function deliveryRows(endpointId: string) {
  return runSql<{ event_id: string; status: string; attempts: number | string; last_status: number | null }>(
    service.store.reader,
    'select event_id, status, attempts, last_status from webhook_deliveries where endpoint_id = ? order by created_at, event_id',
    [endpointId],
  );
}

/** Ticks until nothing is due and nothing is under way, or `ms` pass. */
async function drain(made: WebhookDispatcher, endpointId: string, ms = 8_000): Promise<void> {
  await until(async () => {
    await made.tick();
    await made.settle();
    return (await deliveryRows(endpointId)).every((row) => row.status !== 'PENDING');
  }, ms);
}

test('every event of the agency reaches its endpoint, signed: the standardwebhooks library verifies each delivery', async () => {
  const hook = await receiver();
  const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: hook.url,
  });
  assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const { orderId, reference, n } = await orderWithChange();
  const cancelled = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ(orderId, [reference]),
    bearer(token),
  );
  assert.equal(cancelled.status, 200);
  const made = dispatcher();
  await drain(made, endpoint.endpointId);

  const verifier = new Webhook(endpoint.secret);
  const delivered = hook.received.map((request) => ({
    id: request.headers['webhook-id'],
    payload: verifier.verify(request.body, request.headers) as any,
  }));
  // No order is promised: each of the three once.
  assert.deepEqual(delivered.map((d) => d.payload.type).sort(), [
    'airline_change.detected',
    'airline_change.resolved',
    'booking.canceled',
    'booking.refunded',
  ]);
  const refunded = delivered.find((d) => d.payload.type === 'booking.refunded')!;
  assert.deepEqual(refunded.payload.data, {
    OrderID: orderId,
    GdsBookingReference: reference,
    Currency: 'EUR',
    RefundAmount: 570.5,
    Tickets: [{ TicketNumber: ticketOf(n), Amount: 570.5, QuoteType: 'FULL' }],
    RefundedBy: 'AGENCY',
  });
  // The webhook-id is the event's id in the feed; the body's timestamp the event's time.
  const [stored] = await runSql<{ event_id: string; occurred_at: string }>(
    service.store.reader,
    "select event_id, occurred_at from events where type = 'booking.refunded' and data like ?",
    [`%${orderId}%`],
  );
  assert.equal(refunded.id, stored!.event_id);
  assert.equal(refunded.payload.timestamp, stored!.occurred_at);
  assert.ok(
    hook.received.every(
      (request) =>
        request.headers['content-type'] === 'application/json' && /^\d+$/.test(request.headers['webhook-timestamp']!),
    ),
  );
  // A tampered body or another secret fails the same library.
  const tampered = hook.received.find((request) => request.headers['webhook-id'] === refunded.id)!;
  assert.throws(() => verifier.verify(tampered.body.replace('570.5', '5705'), tampered.headers));
  assert.throws(() =>
    new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
      hook.received[0]!.body,
      hook.received[0]!.headers,
    ),
  );
  assert.deepEqual(made.counted, ['delivered', 'delivered', 'delivered', 'delivered']);
  assert.ok(
    (await deliveryRows(endpoint.endpointId)).every((row) => row.status === 'DELIVERED' && Number(row.attempts) === 1),
  );
  await setEnabled(service.store, endpoint.endpointId, false);
});

test('a receiver failing its first attempts (500, a hang past the time-out, a redirect, a dropped connection) gets retries with the same webhook-id until 2xx', async () => {
  const hook = await receiver();
  const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: hook.url,
    events: 'booking.canceled',
  });
  const { orderId, reference } = await orderWithChange();
  hook.script([500, 'hang', 302, 'drop', 200]);
  await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), bearer(token));
  const made = dispatcher([100, 100, 100, 100, 100], 500);
  await drain(made, endpoint.endpointId, 15_000);
  assert.equal(hook.received.length, 5);
  const ids = new Set(hook.received.map((request) => request.headers['webhook-id']));
  assert.equal(ids.size, 1, 'one event, one id on every attempt');
  assert.ok(
    hook.received.every((request) => JSON.parse(request.body).type === 'booking.canceled'),
    'only the subscribed type',
  );
  const verifier = new Webhook(endpoint.secret);
  for (const request of hook.received) verifier.verify(request.body, request.headers);
  const [row] = await deliveryRows(endpoint.endpointId);
  assert.deepEqual([row!.status, Number(row!.attempts), Number(row!.last_status)], ['DELIVERED', 5, 200]);
  assert.deepEqual(made.counted, ['retry', 'retry', 'retry', 'retry', 'delivered'], JSON.stringify(made.counted));
  // Each retry waited for the schedule (100 ms less 20 % jitter at the least).
  const gaps = hook.received.slice(1).map((request, index) => request.at - hook.received[index]!.at);
  assert.ok(
    gaps.every((gap) => gap >= 75),
    JSON.stringify(gaps),
  );
  await setEnabled(service.store, endpoint.endpointId, false);
});

test('a receiver that never succeeds: FAILED once the schedule is spent; 410 Gone disables the endpoint at once', async () => {
  const failing = await receiver();
  failing.script([], 503);
  const gone = await receiver();
  gone.script([], 410);
  const failingEndpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: failing.url,
    events: 'booking.canceled',
  });
  const goneEndpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: gone.url,
    events: 'booking.canceled',
  });
  const { orderId, reference } = await orderWithChange();
  await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), bearer(token));
  const made = dispatcher([100, 100], 500);
  await drain(made, failingEndpoint.endpointId, 10_000);
  await drain(made, goneEndpoint.endpointId, 5_000);
  assert.equal(failing.received.length, 3, 'the first attempt and two retries');
  assert.deepEqual(
    (await deliveryRows(failingEndpoint.endpointId)).map((row) => [row.status, Number(row.attempts)]),
    [['FAILED', 3]],
  );
  assert.equal(gone.received.length, 1);
  assert.deepEqual(
    (await deliveryRows(goneEndpoint.endpointId)).map((row) => row.status),
    ['FAILED'],
  );
  const [endpointRow] = await runSql<{ status: string; status_reason: string }>(
    service.store.reader,
    'select status, status_reason from webhook_endpoints where endpoint_id = ?',
    [goneEndpoint.endpointId],
  );
  assert.equal(endpointRow!.status, 'DISABLED');
  assert.match(endpointRow!.status_reason, /410 Gone/);
  // A disabled endpoint gets nothing new.
  const next = await orderWithChange();
  await service.post('/AirOrderCancel', cancelRQ(next.orderId, [next.reference]), bearer(token));
  await made.tick();
  await made.settle();
  assert.equal(gone.received.length, 1);
  await setEnabled(service.store, failingEndpoint.endpointId, false);
});

test('after rotate-secret both secrets sign for 24 h, from then on the new one alone: the library verifies accordingly', async () => {
  const hook = await receiver();
  const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: hook.url,
    events: 'booking.canceled',
  });
  // The rotation and each attempt on clocks of the test's own: the service's deliveries are due from
  // the real now, and these instants all lie after it.
  const rotatedAt = Date.now();
  const rotated = await rotateSecret(service.store, () => new Date(rotatedAt).toISOString(), endpoint.endpointId);
  const until = rotatedAt + 24 * 3_600_000;
  assert.equal(rotated.previousSecretUntil, new Date(until).toISOString());
  const signers = { old: new Webhook(endpoint.secret), new: new Webhook(rotated.secret) };
  const attempts: [number, ('new' | 'old')[]][] = [
    [until - 1, ['new', 'old']],
    [until, ['new']],
    [until + 1_000, ['new']],
    [until + 7 * 24 * 3_600_000, ['new']],
  ];
  for (const [at, signedBy] of attempts) {
    const { orderId, reference } = await orderWithChange();
    await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), bearer(token));
    const seen = hook.received.length;
    const made = new WebhookDispatcher(
      service.store,
      () => new Date(at).toISOString(),
      { retrySchedule: [200], timeoutMs: 800, policy: OPEN },
      quiet,
    );
    await drain(made, endpoint.endpointId);
    assert.equal(hook.received.length, seen + 1);
    const request = hook.received[seen]!;
    const label = `${at - until} ms after the 24 h`;
    assert.equal(request.headers['webhook-timestamp'], String(Math.floor(at / 1000)), label);
    const parts = request.headers['webhook-signature']!.split(' ');
    assert.equal(parts.length, signedBy.length, label);
    assert.ok(
      parts.every((part) => part.startsWith('v1,')),
      label,
    );
    // The receiver's clock is the attempt's, so the library's five-minute tolerance holds.
    const verifies = (secret: 'old' | 'new') =>
      verifiesAt(at, () => signers[secret].verify(request.body, request.headers));
    assert.deepEqual(
      { new: verifies('new'), old: verifies('old') },
      { new: true, old: signedBy.includes('old') },
      label,
    );
  }
  await setEnabled(service.store, endpoint.endpointId, false);
});

/** Whether `verify` passes with Date.now() at `at`. */
function verifiesAt(at: number, verify: () => unknown): boolean {
  mock.timers.enable({ apis: ['Date'], now: at });
  try {
    verify();
    return true;
  } catch {
    return false;
  } finally {
    mock.timers.reset();
  }
}

test("a slow endpoint does not delay another endpoint's delivery; another agency's endpoint gets nothing", async () => {
  const slow = await receiver();
  slow.script([], 'hang');
  const fast = await receiver();
  const other = await receiver();
  const slowEndpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: slow.url,
    events: 'booking.canceled',
  });
  const fastEndpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: fast.url,
    events: 'booking.canceled',
  });
  const otherEndpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG2',
    url: other.url,
  });
  const made = dispatcher([60_000], 4_000);
  const orders = await Promise.all([orderWithChange(), orderWithChange()]);
  for (const { orderId, reference } of orders)
    await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), bearer(token));
  await made.tick();
  // The order of outcomes, not a duration: both fast deliveries are recorded while the slow
  // endpoint's attempts are still open (they end only at their 4 s time-out, as 'retry').
  const fastDelivered = async () =>
    (await deliveryRows(fastEndpoint.endpointId)).filter((row) => row.status === 'DELIVERED').length === 2;
  assert.ok(await until(fastDelivered, 10_000), 'the fast endpoint is served');
  assert.deepEqual(made.counted, ['delivered', 'delivered'], 'the fast endpoint is served while the slow one hangs');
  assert.ok(await until(() => slow.received.length === 2, 10_000), 'the slow endpoint got its attempts too');
  assert.deepEqual(made.counted, ['delivered', 'delivered'], 'side by side: both slow attempts were open at once');
  await made.settle();
  assert.deepEqual(
    (await deliveryRows(fastEndpoint.endpointId)).map((row) => row.status),
    ['DELIVERED', 'DELIVERED'],
  );
  assert.deepEqual(
    (await deliveryRows(slowEndpoint.endpointId)).map((row) => row.status),
    ['PENDING', 'PENDING'],
    'timed out: retried later',
  );
  assert.equal(other.received.length, 0);
  assert.deepEqual(await deliveryRows(otherEndpoint.endpointId), []);
  await setEnabled(service.store, slowEndpoint.endpointId, false);
  await setEnabled(service.store, fastEndpoint.endpointId, false);
});

test('a backlog is claimed as attempts end, not a poll later: one tick delivers more than four events to one endpoint', async () => {
  const hook = await receiver();
  const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: hook.url,
    events: 'booking.canceled',
  });
  const orders = [];
  for (let i = 0; i < 10; i += 1) orders.push(await orderWithChange());
  for (const { orderId, reference } of orders)
    assert.equal((await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), bearer(token))).status, 200);
  const made = dispatcher();
  // One claim has room for four attempts to the endpoint; each that ends makes room for the next.
  assert.equal(await made.tick(), 4);
  await made.settle();
  assert.deepEqual(
    (await deliveryRows(endpoint.endpointId)).map((row) => row.status),
    new Array(10).fill('DELIVERED'),
  );
  assert.equal(hook.received.length, 10);
  assert.deepEqual(made.counted, new Array(10).fill('delivered'));
  await setEnabled(service.store, endpoint.endpointId, false);
});

test('a host name is resolved and the attempt connects to the address that was checked (localhost, allowed here)', async () => {
  const hook = await receiver();
  const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: `http://localhost:${hook.port}/named`,
    events: 'booking.canceled',
  });
  const { orderId, reference } = await orderWithChange();
  await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), bearer(token));
  await drain(dispatcher(), endpoint.endpointId);
  assert.equal(hook.received.length, 1);
  assert.equal(hook.received[0]!.headers.host, `localhost:${hook.port}`, 'the name, not the address, in Host');
  assert.deepEqual(
    (await deliveryRows(endpoint.endpointId)).map((row) => row.status),
    ['DELIVERED'],
  );
  await setEnabled(service.store, endpoint.endpointId, false);
});

test('at every attempt the URL is checked again: an endpoint on loopback is not called without WEBHOOK_ALLOW_PRIVATE_NETWORKS', async () => {
  const hook = await receiver();
  const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId: 'AG1',
    url: hook.url,
    events: 'booking.canceled',
  });
  const { orderId, reference } = await orderWithChange();
  await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), bearer(token));
  const made = dispatcher([100], 500, { allowHttp: true, allowPrivateNetworks: false });
  await drain(made, endpoint.endpointId);
  assert.equal(hook.received.length, 0, 'never called');
  const [row] = await runSql<{ status: string; last_error: string; attempts: number | string }>(
    service.store.reader,
    'select status, last_error, attempts from webhook_deliveries where endpoint_id = ?',
    [endpoint.endpointId],
  );
  assert.equal(row!.status, 'FAILED');
  assert.match(
    row!.last_error,
    /^refused: its host 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback, private or reserved address/,
  );
  await setEnabled(service.store, endpoint.endpointId, false);
});
