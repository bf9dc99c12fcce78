/**
 * The overview's count of API requests (request-tally.ts) on the store itself: counts kept per
 * minute in memory until flushed, the last hour summed from the store and from what is not yet
 * flushed, never twice, the minutes kept, and counts kept through a store that fails a flush.
 * The times are passed in, so every bound is exact.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addOperator } from '../../src/console/operator-accounts.js';
import { RequestTally, TALLY_FLUSH_MS } from '../../src/console/request-tally.js';
import { runSql } from '../../src/store/raw-sql.js';
import type { Store } from '../../src/store/store.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { testStoreKind } from '../helpers/test-database.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { scaled } from '../helpers/time-scale.js';

const MINUTE = 60_000;
// A whole minute, so that `T + n * MINUTE` is the start of a minute.
const T = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;

before(async () => {
  service = await startTestService();
});

after(async () => {
  await service.close();
});

async function clearCounts() {
  await service.store.write((tx) => tx.dropRequestCountsBefore(2_000_000_000));
}

async function storedRows() {
  return runSql<{ minute: number | string; code: string; requests: number | string }>(
    service.store.db,
    'select minute, code, requests from request_counts order by minute, code',
    [],
  ).then((rows) => rows.map((row) => [Number(row.minute), row.code, Number(row.requests)]));
}

test('counts flush every five seconds', () => {
  assert.equal(TALLY_FLUSH_MS, 5_000);
});

test('requests are counted per minute and code; the last hour is its 60 minutes, most frequent first, then by code', async () => {
  await clearCounts();
  const tally = new RequestTally(service.store);
  const now = T + 59 * MINUTE + 30_000;
  // Minute 0 is the hour's first; the millisecond before it is out.
  tally.count('OLD', T - 1);
  tally.count('B', T);
  tally.count('B', T + MINUTE - 1);
  tally.count('A', T + MINUTE);
  tally.count('A', now);
  tally.count('C', now);
  tally.count('D', now);
  tally.count('D', now);
  // Not yet flushed: all from memory.
  assert.deepEqual(await tally.lastHour(now), [
    { code: 'A', count: 2 },
    { code: 'B', count: 2 },
    { code: 'D', count: 2 },
    { code: 'C', count: 1 },
  ]);
  await tally.flush(now);
  assert.deepEqual(await storedRows(), [
    [T / MINUTE - 1, 'OLD', 1],
    [T / MINUTE, 'B', 2],
    [T / MINUTE + 1, 'A', 1],
    [T / MINUTE + 59, 'A', 1],
    [T / MINUTE + 59, 'C', 1],
    [T / MINUTE + 59, 'D', 2],
  ]);
  assert.deepEqual(await tally.lastHour(now), [
    { code: 'A', count: 2 },
    { code: 'B', count: 2 },
    { code: 'D', count: 2 },
    { code: 'C', count: 1 },
  ]);
});

test('the last hour adds what is flushed and what is not, once each; another process counts in', async () => {
  await clearCounts();
  const tally = new RequestTally(service.store);
  const other = new RequestTally(service.store);
  const now = T + 30_000;
  tally.count('OK', now);
  await tally.flush(now);
  tally.count('OK', now);
  tally.count('OK', T - 59 * MINUTE);
  tally.count('OK', T - 59 * MINUTE - 1);
  other.count('OK', now);
  other.count('E', now);
  await other.flush(now);
  assert.deepEqual(await tally.lastHour(now), [
    { code: 'OK', count: 4 },
    { code: 'E', count: 1 },
  ]);
  await tally.flush(now);
  await tally.flush(now);
  assert.deepEqual(await tally.lastHour(now), [
    { code: 'OK', count: 4 },
    { code: 'E', count: 1 },
  ]);
  assert.deepEqual(await storedRows(), [
    [T / MINUTE - 60, 'OK', 1],
    [T / MINUTE - 59, 'OK', 1],
    [T / MINUTE, 'E', 1],
    [T / MINUTE, 'OK', 3],
  ]);
});

test('a flush drops the minutes older than two hours: the 120th minute back is kept, the 121st is not', async () => {
  await clearCounts();
  const tally = new RequestTally(service.store);
  const now = T + 45_000;
  tally.count('X', T - 121 * MINUTE);
  tally.count('X', T - 120 * MINUTE);
  tally.count('X', T - 119 * MINUTE);
  await tally.flush(T - 119 * MINUTE);
  assert.equal((await storedRows()).length, 3);
  tally.count('Y', now);
  await tally.flush(now);
  assert.deepEqual(await storedRows(), [
    [T / MINUTE - 120, 'X', 1],
    [T / MINUTE - 119, 'X', 1],
    [T / MINUTE, 'Y', 1],
  ]);
});

test('a flush the store refuses keeps its counts for the next, adds nothing twice, and reports the error', async () => {
  await clearCounts();
  let failing = true;
  let during: (() => void) | null = null;
  const errors: unknown[] = [];
  const store = {
    read: service.store.read,
    write: async (work: never) => {
      during?.();
      if (failing) throw new Error('store away');
      return service.store.write(work);
    },
  } as unknown as Store;
  const tally = new RequestTally(store, (error) => errors.push(error));
  const now = T + 1_000;
  tally.count('OK', now);
  tally.count('OK', now);
  await tally.flush(now);
  assert.deepEqual(
    errors.map((error) => (error as Error).message),
    ['store away'],
  );
  // Counted while the failing flush was under way: added to what it gives back.
  during = () => {
    tally.count('OK', now);
    during = null;
  };
  tally.count('NEW', now);
  await tally.flush(now);
  assert.deepEqual(await tally.lastHour(now), [
    { code: 'OK', count: 3 },
    { code: 'NEW', count: 1 },
  ]);
  assert.equal(errors.length, 2);
  tally.count('OK', now);
  failing = false;
  await tally.flush(now);
  assert.equal(errors.length, 2);
  assert.deepEqual(await storedRows(), [
    [T / MINUTE, 'NEW', 1],
    [T / MINUTE, 'OK', 4],
  ]);
  assert.deepEqual(await tally.lastHour(now), [
    { code: 'OK', count: 4 },
    { code: 'NEW', count: 1 },
  ]);
  // Nothing left to add: a flush writes nothing.
  failing = true;
  await tally.flush(now);
  assert.equal(errors.length, 2);
});

test('stop flushes what is left; a tally never started stops too', async () => {
  await clearCounts();
  const tally = new RequestTally(service.store);
  tally.start();
  tally.start();
  // stop() flushes at the real time, which drops minutes two hours older than it.
  const minute = Math.floor(Date.now() / MINUTE);
  tally.count('OK', minute * MINUTE);
  await tally.stop();
  assert.deepEqual(await storedRows(), [[minute, 'OK', 1]]);
  await new RequestTally(service.store).stop();
});

async function requestsShown(browser: ConsoleClient): Promise<Record<string, number>> {
  const overview = await browser.request('/console');
  const section = overview.text.slice(overview.text.indexOf('id="requests"'), overview.text.indexOf('id="actions"'));
  return Object.fromEntries(
    [...section.matchAll(/<tr><td>([^<]+)<\/td><td>(\d+)<\/td><\/tr>/g)].map((match) => [match[1]!, Number(match[2])]),
  );
}

test("the console's pages, the probes and the scrapes are not counted; paths that only begin like them are", async () => {
  await addOperator(service.store, () => new Date().toISOString(), {
    email: 'tally@airline.example',
    name: 'Tally Desk',
    password: 'correct horse battery',
  });
  const browser = new ConsoleClient(service.baseUrl);
  await browser.signIn('tally@airline.example', 'correct horse battery');
  const before = await requestsShown(browser);
  for (const path of ['/healthz', '/readyz', '/metrics', '/metrics?x=1', '/healthz?', '/console/nothing', '/consolex'])
    await fetch(service.baseUrl + path);
  const notCounted = await requestsShown(browser);
  assert.deepEqual(notCounted, before);
  for (const path of ['/healthzx', '/metrics/x', '/readyz2', '/xconsole', '/x/healthz', '/x/metrics?y'])
    await fetch(service.baseUrl + path);
  // A request no route gave an outcome code: counted by its HTTP status.
  assert.equal((await fetch(`${service.baseUrl}/openapi.json`)).status, 200);
  const after = await requestsShown(browser);
  const added = Object.fromEntries(
    Object.entries(after)
      .map(([code, count]) => [code, count - (before[code] ?? 0)])
      .filter(([, count]) => count !== 0),
  );
  assert.deepEqual(added, { ROUTE_NOT_FOUND: 6, OK: 1 });
});

// The service's own tally may flush API requests of the tests before: this test looks at its own code only.
const tickRows = async () => (await storedRows()).filter((row) => row[1] === 'TICK');

test('once started, a tally flushes every five seconds, and no more once stopped', async (t) => {
  await clearCounts();
  t.mock.timers.enable({ apis: ['setInterval'] });
  const tally = new RequestTally(service.store);
  const minute = Math.floor(Date.now() / MINUTE);
  tally.start();
  tally.count('TICK', minute * MINUTE);
  t.mock.timers.tick(4_999);
  await sleep(50);
  assert.deepEqual(await tickRows(), []);
  t.mock.timers.tick(1);
  for (let tries = 0; tries < 100 && (await tickRows()).length === 0; tries++) await sleep(50);
  assert.deepEqual(await tickRows(), [[minute, 'TICK', 1]]);
  await tally.stop();
  tally.count('TICK', minute * MINUTE);
  t.mock.timers.tick(10_000);
  await sleep(50);
  assert.deepEqual(await tickRows(), [[minute, 'TICK', 1]], 'no flush after stop');
  await tally.stop();
});

test("the service's tally starts with it: the API's requests reach the store within seconds", async () => {
  await clearCounts();
  await fetch(`${service.baseUrl}/nothing-here`);
  const notFound = async () => (await storedRows()).filter((row) => row[1] === 'ROUTE_NOT_FOUND');
  const deadline = Date.now() + 20_000;
  while ((await notFound()).length === 0 && Date.now() < deadline) await sleep(100);
  assert.equal((await notFound()).length, 1);
});

test("a flush the store refuses, in a running service: a warning with the store's words, and the count stored by the next", async () => {
  const own = await startTestService();
  try {
    const refuse =
      testStoreKind() === 'sqlite'
        ? [
            "create trigger refuse_counts before insert on request_counts begin select raise(abort, 'counts refused by the test'); end",
          ]
        : [
            "create function refuse_counts() returns trigger language plpgsql as $$ begin raise exception 'counts refused by the test'; end $$",
            'create trigger refuse_counts before insert on request_counts for each row execute function refuse_counts()',
          ];
    for (const statement of refuse) await runSql(own.store.db, statement, []);
    await fetch(`${own.baseUrl}/nothing-here`);
    const warned = () =>
      own.logs.filter((line) => line.msg === 'request counts not yet added to the store; kept for the next try');
    const deadline = Date.now() + scaled(20_000);
    while (warned().length === 0 && Date.now() < deadline) await sleep(100);
    assert.match(String((warned()[0]?.err as { message?: string } | undefined)?.message), /counts refused by the test/);
    await runSql(
      own.store.db,
      testStoreKind() === 'sqlite' ? 'drop trigger refuse_counts' : 'drop trigger refuse_counts on request_counts',
      [],
    );
    await own.app.close();
    const [row] = await runSql<{ requests: number | string }>(
      own.store.db,
      "select requests from request_counts where code = 'ROUTE_NOT_FOUND'",
      [],
    );
    assert.equal(Number(row?.requests), 1, 'kept through the refusal, stored once as the service closed');
  } finally {
    await own.close();
  }
});
