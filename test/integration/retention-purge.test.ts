/**
 * The retention rules (docs/decisions.md, "Events are kept 30 days"): a kept response lives 24
 * hours and an event 30 days, by the service's clock. `purgeExpired` is one pass of what the
 * running service does every ten minutes; here it is called in process with a test clock, on both
 * stores, and what it leaves is read with SQL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { purgeExpired, type PurgeLog } from '../../src/server.js';
import { runSql } from '../../src/store/raw-sql.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { storedEventCount } from '../helpers/settled-feed.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

// The real moment the file starts: event ids follow the system's time (see the events' test).
const T0 = new Date().toISOString();
const DAY = 86_400_000;
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

let now = T0;
const clock = () => now;
let service: TestService;
let token: string;

before(async () => {
  service = await startTestService({ clock });
  await service.addAgency('AGP');
  await service.importOrders([simpleOrder('ORD-P1', 'AGP', 'PPP001'), simpleOrder('ORD-P2', 'AGP', 'PPP002')]);
  token = await service.tokenFor('AGP', null);
});
after(() => service?.close());

/** A log that keeps its lines. */
function recordingLog(): PurgeLog & { lines: [string, object, string][] } {
  const lines: [string, object, string][] = [];
  return {
    lines,
    info: (fields, message) => lines.push(['info', fields, message]),
    warn: (fields, message) => lines.push(['warn', fields, message]),
  };
}

async function keptKeys(): Promise<string[]> {
  const rows = await runSql<{ idempotency_key: string }>(
    service.store.db,
    "select idempotency_key from idempotency_keys where agency_id = 'AGP' order by idempotency_key",
    [],
  );
  return rows.map((row) => row.idempotency_key);
}

async function cancel(orderId: string, reference: string, key: string): Promise<void> {
  const answer = await service.post('/AirOrderCancel', cancelRQ(orderId, [reference]), {
    ...bearer(token),
    'idempotency-key': key,
  });
  assert.equal(answer.body.OrderViewRS.Response[0].Status, 'SUCCESS', answer.text);
}

test("a kept response is removed once its 24 hours are over, by the service's clock; a pass that removes nothing says nothing", async () => {
  now = T0;
  await cancel('ORD-P1', 'PPP001', 'key-first');
  now = at(20 * DAY);
  await cancel('ORD-P2', 'PPP002', 'key-second');
  const events = await storedEventCount(service.store.db, 'AGP');
  assert.ok(events > 0, 'the cancels made events');

  let log = recordingLog();
  now = at(DAY - 1);
  await purgeExpired(service.store, clock, log);
  assert.deepEqual(log.lines, [], "a moment before the first response's 24 hours end");
  assert.deepEqual(await keptKeys(), ['key-first', 'key-second']);

  log = recordingLog();
  now = at(20 * DAY);
  await purgeExpired(service.store, clock, log);
  assert.deepEqual(log.lines, [['info', { count: 1 }, 'expired idempotency keys removed']]);
  assert.deepEqual(await keptKeys(), ['key-second']);

  log = recordingLog();
  now = at(21 * DAY);
  await purgeExpired(service.store, clock, log);
  assert.deepEqual(log.lines, [['info', { count: 1 }, 'expired idempotency keys removed']]);
  assert.deepEqual(await keptKeys(), []);
  assert.equal(await storedEventCount(service.store.db, 'AGP'), events, 'every event is younger than 30 days');

  log = recordingLog();
  await purgeExpired(service.store, clock, log);
  assert.deepEqual(log.lines, [], 'nothing left to remove');
});

test('an event is removed once it is 30 days old, and the pass says how many', async () => {
  // Event ids carry the moment the process made them (src/store/sortable-id.ts), which the pass
  // compares with its clock less 30 days: here both run from the same real moment.
  const events = await storedEventCount(service.store.db, 'AGP');
  assert.ok(events > 0);
  // Every event of this file was made after T0.
  let log = recordingLog();
  now = at(30 * DAY - 60_000);
  await purgeExpired(service.store, clock, log);
  assert.deepEqual(log.lines, [], 'a minute before the oldest can be 30 days old');
  assert.equal(await storedEventCount(service.store.db, 'AGP'), events);

  log = recordingLog();
  now = new Date(Date.now() + 30 * DAY + 60_000).toISOString();
  await purgeExpired(service.store, clock, log);
  assert.deepEqual(log.lines, [['info', { count: events }, 'events older than 30 days removed']]);
  assert.equal(await storedEventCount(service.store.db, 'AGP'), 0);
});

test('a pass whose store fails says why for each rule, and does not throw', async () => {
  const closed = await startTestService({ clock });
  await closed.close();
  const log = recordingLog();
  await purgeExpired(closed.store, clock, log);
  assert.deepEqual(
    log.lines.map(([level, , message]) => [level, message]),
    [
      ['warn', 'could not remove expired idempotency keys'],
      ['warn', 'could not remove old events'],
    ],
  );
  for (const [, fields] of log.lines) {
    const cause = (fields as { cause?: unknown }).cause;
    assert.equal(typeof cause, 'string');
    assert.notEqual(cause, '');
  }
});
