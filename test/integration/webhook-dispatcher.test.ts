/**
 * How the dispatcher shares out its attempts (docs/webhooks.md, "Delivery"): four at once per
 * endpoint and 64 in a process, a backlog claimed again as attempts end, leases that let another
 * process take over, failures of the store logged and outlived, and a stop that claims no more.
 * Each test drives a dispatcher of its own on an injected clock against a receiver that holds
 * every request until the test lets it answer.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import type { Store } from '../../src/store/store.js';
import { addEndpoint } from '../../src/service/webhook-endpoints.js';
import { WebhookDispatcher } from '../../src/webhook-delivery/dispatcher.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { until } from '../helpers/webhook-receiver.js';
import { scaled } from '../helpers/time-scale.js';

const OPEN = { allowHttp: true, allowPrivateNetworks: true };
const TIMEOUT_MS = 10_000;
/** The lease: the attempt's time-out and five seconds more (dispatcher.ts). */
const LEASE_MS = TIMEOUT_MS + 5_000;
let service: TestService;
let serial = 0;

/** A receiver that holds each request until the test releases it, counting how many it holds at once. */
interface Gate {
  url: string;
  received: number;
  held: number;
  mostHeld: number;
  /** Answers the `count` oldest held requests (all, by default) with 204. */
  release(count?: number): void;
  /** From now on, answers every request at once (and the held ones). */
  open(): void;
  close(): Promise<void>;
}
const gates: Gate[] = [];

async function gate(): Promise<Gate> {
  const waiting: http.ServerResponse[] = [];
  let opened = false;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      made.received += 1;
      if (opened) {
        response.writeHead(204).end();
        return;
      }
      waiting.push(response);
      made.held = waiting.length;
      made.mostHeld = Math.max(made.mostHeld, waiting.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const made: Gate = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: 0,
    held: 0,
    mostHeld: 0,
    release(count = waiting.length) {
      for (const response of waiting.splice(0, count)) response.writeHead(204).end();
      made.held = waiting.length;
    },
    open() {
      opened = true;
      made.release();
    },
    async close() {
      made.open();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  gates.push(made);
  return made;
}

before(async () => {
  service = await startTestService();
});
after(async () => {
  await Promise.all(gates.map((made) => made.close()));
  await service.close();
});

/** Waits until `holds` is true (the shared poll, with a generous limit: no time is asserted). */
async function settled(holds: () => boolean | Promise<boolean>, what: string): Promise<void> {
  assert.ok(await until(holds, 20_000), `still waiting for ${what}`);
}

interface Line {
  level: 'info' | 'warn';
  detail: Record<string, unknown>;
  message: string;
}

/** A dispatcher on a clock the test sets (from far after the deliveries fall due), its log and counted outcomes kept. */
function dispatcher(store: Store = service.store, start = '2031-01-01T00:00:00.000Z') {
  const lines: Line[] = [];
  const counted: string[] = [];
  const clock = { now: start };
  const made = new WebhookDispatcher(
    store,
    () => clock.now,
    { retrySchedule: [60_000], timeoutMs: TIMEOUT_MS, policy: OPEN },
    {
      info: (detail, message) => lines.push({ level: 'info', detail: detail as Record<string, unknown>, message }),
      warn: (detail, message) => lines.push({ level: 'warn', detail: detail as Record<string, unknown>, message }),
    },
    (outcome) => counted.push(outcome),
  );
  return { made, lines, counted, clock };
}

/** An agency of its own with `endpoints` endpoints on `url` for booking.canceled, and `events` cancels: endpoints × events deliveries. */
async function agencyWith(url: string, endpoints: number, events: number) {
  const n = ++serial;
  const agencyId = `AGD${n}`;
  const token = await service.tokenFor(agencyId);
  const endpointIds: string[] = [];
  for (let i = 0; i < endpoints; i += 1) {
    const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
      agencyId,
      url: `${url}/${i}`,
      events: 'booking.canceled',
    });
    endpointIds.push(endpoint.endpointId);
  }
  const cancel = async () => {
    const k = ++serial;
    const reference = `DB${String(k).padStart(4, '0')}`;
    await service.importOrders([simpleOrder(`DO-${k}`, agencyId, reference, `22077700${String(k).padStart(5, '0')}`)]);
    const cancelled = await service.post('/AirOrderCancel', cancelRQ(`DO-${k}`, [reference]), bearer(token));
    assert.equal(cancelled.status, 200);
  };
  for (let i = 0; i < events; i += 1) await cancel();
  return { endpointIds, cancel };
}

async function rows(endpointIds: string[]) {
  const found = await runSql<{
    status: string;
    attempts: number | string;
    lease_owner: string | null;
    lease_until: string | null;
  }>(
    service.store.reader,
    `select status, attempts, lease_owner, lease_until from webhook_deliveries where endpoint_id in (${endpointIds.map(() => '?').join(', ')})`,
    endpointIds,
  );
  return found.map((row) => ({ ...row, attempts: Number(row.attempts) }));
}

const count = (list: { status: string }[], status: string) => list.filter((row) => row.status === status).length;

test('one endpoint: four attempts at once, leased to this process; an attempt that ends makes room for the next at once', async () => {
  const receiver = await gate();
  const { endpointIds } = await agencyWith(receiver.url, 1, 6);
  const run = dispatcher();
  assert.equal(await run.made.tick(), 4);
  await settled(() => receiver.held === 4, 'four held attempts');
  const leased = (await rows(endpointIds)).filter((row) => row.lease_owner !== null);
  assert.equal(leased.length, 4);
  const leaseUntil = new Date(Date.parse(run.clock.now) + LEASE_MS).toISOString();
  for (const row of leased) {
    assert.match(row.lease_owner!, /^wd_[0-9a-f]{16}$/);
    assert.equal(row.lease_owner, leased[0]!.lease_owner, 'one owner: this process');
    assert.equal(new Date(row.lease_until!).toISOString(), leaseUntil);
  }
  assert.equal(await run.made.tick(), 0, 'no room for this endpoint while four are under way');

  receiver.release(1);
  // The fifth is claimed as the first ends, with no tick: four at once again, never five.
  await settled(() => receiver.received === 5 && receiver.held === 4, 'the fifth attempt');
  receiver.open();
  await run.made.settle();
  // settle() waited for the claims that followed the attempts' ends, and for what they started.
  const stored = await rows(endpointIds);
  assert.equal(count(stored, 'DELIVERED'), 6);
  assert.equal(receiver.received, 6);
  assert.equal(receiver.mostHeld, 4);
  assert.deepEqual(run.counted, Array(6).fill('delivered'));
});

test('no backlog, no claim as attempts end: a delivery that falls due meanwhile waits for the next tick', async () => {
  const receiver = await gate();
  const { endpointIds, cancel } = await agencyWith(receiver.url, 1, 4);
  const run = dispatcher();
  assert.equal(await run.made.tick(), 4, 'four due, four claimed: nothing left for want of room');
  await settled(() => receiver.held === 4, 'four held attempts');
  await cancel();
  receiver.release();
  await run.made.settle();
  assert.equal(receiver.received, 4);
  const stored = await rows(endpointIds);
  assert.deepEqual([count(stored, 'DELIVERED'), count(stored, 'PENDING')], [4, 1]);
  receiver.open();
  assert.equal(await run.made.tick(), 1);
  await run.made.settle();
  assert.equal(count(await rows(endpointIds), 'DELIVERED'), 5);
});

test('at most 64 attempts at once in a process, across endpoints; the rest as room is made', async () => {
  const receiver = await gate();
  // 17 endpoints × 4 events: 68 due, four per endpoint.
  const { endpointIds } = await agencyWith(receiver.url, 17, 4);
  const run = dispatcher();
  assert.equal(await run.made.tick(), 64);
  await settled(() => receiver.held === 64, '64 held attempts');
  assert.equal(await run.made.tick(), 0, 'no room left in the process');
  receiver.open();
  await run.made.settle();
  assert.equal(count(await rows(endpointIds), 'DELIVERED'), 68);
  assert.equal(receiver.mostHeld, 64);
});

test("a lease that ran out: the process holding the delivery now records and counts its outcome; the first one's is dropped", async () => {
  const receiver = await gate();
  const { endpointIds } = await agencyWith(receiver.url, 1, 1);
  const first = dispatcher();
  assert.equal(await first.made.tick(), 1);
  await settled(() => receiver.held === 1, "the first process's attempt");
  const second = dispatcher(service.store, new Date(Date.parse(first.clock.now) + LEASE_MS).toISOString());
  assert.equal(await second.made.tick(), 1, 'claimed again once the lease ran out');
  await settled(() => receiver.held === 2, "the second process's attempt");
  receiver.release(1);
  await first.made.settle();
  receiver.release();
  await second.made.settle();
  const [stored] = await rows(endpointIds);
  assert.deepEqual({ status: stored!.status, attempts: stored!.attempts }, { status: 'DELIVERED', attempts: 1 });
  assert.deepEqual(first.counted, [], 'superseded: counted where it was recorded');
  assert.deepEqual(second.counted, ['delivered']);
  assert.deepEqual(
    first.lines.map((line) => [line.message, line.detail.outcome]),
    [['webhook attempt', 'superseded']],
  );
});

/** The service's store, with writes that fail while `broken` is set. */
function breakable(store: Store) {
  const state = { broken: false };
  const failing = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'write')
        return (...args: Parameters<Store['write']>) =>
          state.broken ? Promise.reject(new Error('the store is away (test)')) : target.write(...args);
      return Reflect.get(target, key, receiver);
    },
  });
  return { store: failing, state };
}

test('a store that fails: claims and records that fail are logged and outlived; the running loop delivers once it is back', async () => {
  const receiver = await gate();
  const { endpointIds } = await agencyWith(receiver.url, 1, 6);
  const { store, state } = breakable(service.store);
  const run = dispatcher(store);
  assert.equal(await run.made.tick(), 4);
  await settled(() => receiver.held === 4, 'four held attempts');
  state.broken = true;
  // An attempt ends: its outcome cannot be recorded, and the claim that follows (a backlog of two) fails.
  receiver.release(1);
  await settled(() => run.lines.length >= 2, 'two warnings');
  assert.deepEqual(run.lines.map((line) => [line.level, line.message, line.detail.cause]).sort(), [
    ['warn', 'webhook attempt not recorded; retried when its lease ends', 'the store is away (test)'],
    ['warn', 'webhook claims failed; trying again', 'the store is away (test)'],
  ]);
  const unrecorded = run.lines.find((line) => line.message.startsWith('webhook attempt not recorded'))!;
  assert.equal(unrecorded.detail.endpoint, endpointIds[0]);
  assert.match(String(unrecorded.detail.eventId), /^evt_/);
  assert.equal(await run.made.tick().catch((error: Error) => error.message), 'the store is away (test)');

  // The loop: a failed claim is logged, and the next one, once the store is back, delivers.
  receiver.open();
  await run.made.settle();
  const lines = run.lines.length;
  run.clock.now = new Date(Date.parse(run.clock.now) + LEASE_MS).toISOString();
  run.made.start();
  await settled(() => run.lines.length > lines, 'a failed claim of the loop');
  assert.deepEqual(run.lines.slice(lines).map((line) => [line.message, line.detail.cause])[0], [
    'webhook claims failed; trying again',
    'the store is away (test)',
  ]);
  state.broken = false;
  await settled(async () => count(await rows(endpointIds), 'DELIVERED') === 6, 'every delivery, by the loop');
  await run.made.stop(5_000);
  assert.equal(receiver.received, 4 + 6, 'the four attempts that could not be recorded were made again');
});

test(
  'stop: no claim after it, and it waits for attempts under way no longer than its grace',
  { timeout: scaled(30_000) },
  async () => {
    const receiver = await gate();
    const { endpointIds } = await agencyWith(receiver.url, 1, 6);
    const run = dispatcher();
    run.made.start();
    await settled(() => receiver.held === 4, 'four attempts of the loop');
    // The attempts hang: stop gives up on them after its grace.
    await run.made.stop(200);
    assert.equal(receiver.held, 4);
    // They end after the stop: recorded, but their ends claim no more (the backlog of two stays).
    receiver.release();
    await run.made.settle();
    const stored = await rows(endpointIds);
    assert.deepEqual([count(stored, 'DELIVERED'), count(stored, 'PENDING')], [4, 2]);
    assert.equal(receiver.received, 4);
    await dispatcher().made.stop(0);
  },
);
