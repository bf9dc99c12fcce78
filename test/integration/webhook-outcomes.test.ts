/**
 * What the dispatcher records of each attempt, on an injected clock (docs/webhooks.md, "Retries"):
 * the delivery's row, the outcome counted for the metrics and the log line, for a delivery, a
 * retry, the schedule spent and 410 Gone.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import { addEndpoint } from '../../src/service/webhook-endpoints.js';
import { WebhookDispatcher } from '../../src/webhook-delivery/dispatcher.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const OPEN = { allowHttp: true, allowPrivateNetworks: true };
const SCHEDULE = [60_000, 120_000];
let service: TestService;
let serial = 0;
const receivers: Receiver[] = [];

before(async () => {
  service = await startTestService();
});
after(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await service.close();
});

interface Line {
  level: 'info' | 'warn';
  detail: Record<string, unknown>;
  message: string;
}

/** A dispatcher on a clock the test moves, with its log lines and counted outcomes kept. */
function dispatcher(start: string) {
  let now = Date.parse(start);
  const lines: Line[] = [];
  const counted: string[] = [];
  const made = new WebhookDispatcher(
    service.store,
    () => new Date(now).toISOString(),
    { retrySchedule: SCHEDULE, timeoutMs: 2_000, policy: OPEN },
    {
      info: (detail, message) => lines.push({ level: 'info', detail: detail as Record<string, unknown>, message }),
      warn: (detail, message) => lines.push({ level: 'warn', detail: detail as Record<string, unknown>, message }),
    },
    (outcome) => counted.push(outcome),
  );
  return {
    made,
    lines,
    counted,
    at: () => new Date(now).toISOString(),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** An agency of its own with an endpoint for booking.canceled only, answering `answers` in turn, and one cancel to deliver. */
async function oneDelivery(...answers: number[]) {
  const hook = await startReceiver();
  receivers.push(hook);
  hook.script(answers.slice(0, -1), answers.at(-1)!);
  const n = ++serial;
  const agencyId = `AGW${n}`;
  const token = await service.tokenFor(agencyId);
  const endpoint = await addEndpoint(service.store, () => new Date().toISOString(), OPEN, {
    agencyId,
    url: hook.url,
    events: 'booking.canceled',
  });
  await service.importOrders([
    simpleOrder(`WO-${n}`, agencyId, `WOB${String(n).padStart(3, '0')}`, `22066600${String(n).padStart(5, '0')}`),
  ]);
  const cancelled = await service.post(
    '/AirOrderCancel',
    cancelRQ(`WO-${n}`, [`WOB${String(n).padStart(3, '0')}`]),
    bearer(token),
  );
  assert.equal(cancelled.status, 200);
  return { hook, endpointId: endpoint.endpointId };
}

async function row(endpointId: string) {
  const [found] = await runSql<{
    event_id: string;
    status: string;
    attempts: number | string;
    next_attempt_at: string;
    last_attempt_at: string | null;
    last_status: number | string | null;
    last_error: string | null;
  }>(
    service.store.reader,
    'select event_id, status, attempts, next_attempt_at, last_attempt_at, last_status, last_error from webhook_deliveries where endpoint_id = ?',
    [endpointId],
  );
  assert.ok(found, endpointId);
  return {
    ...found,
    attempts: Number(found.attempts),
    last_status: found.last_status === null ? null : Number(found.last_status),
  };
}

async function attemptOnce(run: ReturnType<typeof dispatcher>): Promise<number> {
  const started = await run.made.tick();
  await run.made.settle();
  return started;
}

test('a 2xx: DELIVERED after one attempt, counted and logged as delivered, without an error', async () => {
  const { endpointId } = await oneDelivery(204);
  const run = dispatcher('2030-01-01T00:00:00.000Z');
  assert.equal(await attemptOnce(run), 1);
  const stored = await row(endpointId);
  assert.deepEqual(
    { ...stored, event_id: undefined },
    {
      event_id: undefined,
      status: 'DELIVERED',
      attempts: 1,
      next_attempt_at: run.at(),
      last_attempt_at: run.at(),
      last_status: 204,
      last_error: null,
    },
  );
  assert.deepEqual(run.counted, ['delivered']);
  assert.equal(run.lines.length, 1);
  const [line] = run.lines;
  assert.equal(line!.level, 'info');
  assert.equal(line!.message, 'webhook attempt');
  const { durationMs, ...detail } = line!.detail;
  assert.equal(typeof durationMs, 'number');
  assert.deepEqual(detail, {
    endpoint: endpointId,
    eventId: stored.event_id,
    attempt: 1,
    status: 204,
    outcome: 'delivered',
  });
  assert.equal(await attemptOnce(run), 0, 'nothing is due any more');
});

test('a failure is retried on the schedule, then FAILED once the schedule is spent; each attempt logged with its error', async () => {
  const { hook, endpointId } = await oneDelivery(503);
  const run = dispatcher('2030-02-01T00:00:00.000Z');
  assert.equal(await attemptOnce(run), 1);
  const first = await row(endpointId);
  assert.equal(first.status, 'PENDING');
  assert.equal(first.attempts, 1);
  assert.equal(first.last_status, 503);
  assert.equal(first.last_error, 'HTTP 503');
  const wait = Date.parse(first.next_attempt_at) - Date.parse(run.at());
  assert.ok(
    wait >= SCHEDULE[0]! * 0.8 && wait <= SCHEDULE[0]! * 1.2,
    `the first delay of the schedule, ±20 %: ${wait}`,
  );
  assert.equal(await attemptOnce(run), 0, 'not due before its time');

  run.advance(wait);
  assert.equal(await attemptOnce(run), 1);
  const second = await row(endpointId);
  assert.equal(second.status, 'PENDING');
  assert.equal(second.attempts, 2);
  const secondWait = Date.parse(second.next_attempt_at) - Date.parse(run.at());
  assert.ok(secondWait >= SCHEDULE[1]! * 0.8 && secondWait <= SCHEDULE[1]! * 1.2, `the second delay: ${secondWait}`);

  run.advance(secondWait);
  assert.equal(await attemptOnce(run), 1);
  const last = await row(endpointId);
  assert.equal(last.status, 'FAILED');
  assert.equal(last.attempts, 3);
  assert.equal(last.next_attempt_at, run.at());
  assert.equal(hook.received.length, 3);
  assert.deepEqual(run.counted, ['retry', 'retry', 'failed']);
  assert.deepEqual(
    run.lines.map((line) => [
      line.message,
      line.detail.attempt,
      line.detail.status,
      line.detail.outcome,
      line.detail.error,
    ]),
    [
      ['webhook attempt', 1, 503, 'retry', 'HTTP 503'],
      ['webhook attempt', 2, 503, 'retry', 'HTTP 503'],
      ['webhook attempt', 3, 503, 'failed', 'HTTP 503'],
    ],
  );
});

test('410 Gone: FAILED at once, the endpoint DISABLED with the time it answered, counted as disabled', async () => {
  const { hook, endpointId } = await oneDelivery(410);
  const run = dispatcher('2030-03-01T00:00:00.000Z');
  assert.equal(await attemptOnce(run), 1);
  const stored = await row(endpointId);
  assert.equal(stored.status, 'FAILED');
  assert.equal(stored.attempts, 1);
  assert.equal(stored.next_attempt_at, run.at());
  assert.equal(stored.last_status, 410);
  assert.deepEqual(run.counted, ['disabled']);
  const [endpoint] = await runSql<{ status: string; status_reason: string }>(
    service.store.reader,
    'select status, status_reason from webhook_endpoints where endpoint_id = ?',
    [endpointId],
  );
  assert.deepEqual(endpoint, { status: 'DISABLED', status_reason: `the receiver answered 410 Gone at ${run.at()}` });
  run.advance(24 * 3_600_000);
  assert.equal(await attemptOnce(run), 0);
  assert.equal(hook.received.length, 1);
});
