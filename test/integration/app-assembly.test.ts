/**
 * How src/app.ts puts the service together, seen from outside: the log level it gives Fastify, the
 * cap on connections it warns about, the metrics it wires to the store, the last uses of tokens it
 * writes as it closes, and the console it adds or leaves out.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openFilesLimit } from '../../src/http/connection-limits.js';
import { systemClock } from '../../src/runtime/clock.js';
import { addAgency } from '../../src/service/agency-admin.js';
import { openStore } from '../../src/store/open-store.js';
import { runSql } from '../../src/store/raw-sql.js';
import type { Store } from '../../src/store/store.js';
import { bearer, cancelRQ } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { TEST_DATABASE_ENV } from '../helpers/test-database.js';

const onSqlite = (process.env.TEST_STORE ?? 'sqlite') === 'sqlite';

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service?.close());

/** The value of one sample line of /metrics, or undefined when the line is absent. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function metricsText(): Promise<string> {
  const response = await service.request('/metrics', { method: 'GET' });
  assert.equal(response.status, 200, response.text);
  return response.text;
}

test('without a logger of its own the service logs at LOG_LEVEL', async () => {
  const config = loadConfig({ LOG_LEVEL: 'warn' }, { DATABASE_URL: service.databaseUrl, PORT: '0' });
  const app = await buildApp({ config, store: service.store });
  try {
    assert.equal(app.log.level, 'warn');
  } finally {
    await app.close();
  }
});

/** What Node's server was given as `connectionsCheckingInterval` (a property @types/node leaves out). */
function checkingIntervalOf(started: TestService): number {
  return (started.app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval;
}

test("Node looks for requests past their limits every tenth of a headers' limit shorter than 10 s", async () => {
  // Looked for only every second, a connection could be held up to a second past a 2 s limit.
  const shortLimit = await startTestService({ env: { HEADERS_TIMEOUT_MS: '2000' } });
  try {
    assert.equal(shortLimit.app.server.headersTimeout, 2000);
    assert.equal(checkingIntervalOf(shortLimit), 200);
  } finally {
    await shortLimit.close();
  }
  // Past 10 s, every second: not a tenth of a 30 s limit.
  const longLimit = await startTestService({ env: { HEADERS_TIMEOUT_MS: '30000', RECEIVE_TIMEOUT_MS: '60000' } });
  try {
    assert.equal(checkingIntervalOf(longLimit), 1000);
  } finally {
    await longLimit.close();
  }
});

test('MAX_CONNECTIONS past three quarters of the open-files limit is lowered, with a warning; at it, not', async () => {
  const filesLimit = openFilesLimit();
  assert.ok(filesLimit !== null, 'the open-files limit of this process cannot be read (/proc/self/limits)');
  const usable = Math.floor(filesLimit * 0.75);
  assert.ok(usable < 1_000_000, `the open-files limit ${filesLimit} is past what MAX_CONNECTIONS can be set to`);
  const warnings = async (maxConnections: number) => {
    const started = await startTestService({ env: { MAX_CONNECTIONS: String(maxConnections) } });
    try {
      return started.logs.filter((line) => String(line.msg).startsWith('MAX_CONNECTIONS lowered'));
    } finally {
      await started.close();
    }
  };
  const above = await warnings(usable + 1);
  assert.equal(above.length, 1);
  assert.equal(above[0]!.level, 40);
  assert.equal(above[0]!.msg, 'MAX_CONNECTIONS lowered to three quarters of the open-files limit (ulimit -n)');
  assert.equal(above[0]!.maxConnections, usable);
  assert.equal(above[0]!.configured, usable + 1);
  assert.deepEqual(await warnings(usable), []);
});

test('with nothing waiting for delivery the oldest waiting event is 0 s old', async () => {
  assert.equal(sample(await metricsText(), 'airorder_webhook_oldest_undelivered_seconds'), 0);
});

test("the figures of SQLite's checkpoint thread are in /metrics on SQLite, and only there", async () => {
  // As `airorder serve` opens it: on SQLite with the checkpoint thread, which passes every 100 ms.
  const config = loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: service.databaseUrl, PORT: '0' });
  const store = openStore(config, { serving: true });
  const app = await buildApp({ config, store, logger: false });
  try {
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    if (!onSqlite) {
      const text = await scrape();
      assert.equal(sample(text, 'airorder_sqlite_wal_peak_bytes'), undefined, text);
      assert.equal(sample(text, 'airorder_sqlite_wal_checkpoints_total{kind="passive"}'), undefined, text);
      return;
    }
    // A write gives the thread something to copy.
    await addAgency(store, systemClock, { agencyId: 'ASM', name: 'Agency ASM', iataNumber: null, email: null });
    let text = await scrape();
    for (let attempt = 0; attempt < 200 && !(sample(text, 'airorder_sqlite_wal_peak_bytes')! > 0); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await scrape();
    }
    assert.ok(sample(text, 'airorder_sqlite_wal_peak_bytes')! > 0, text);
    assert.ok(sample(text, 'airorder_sqlite_wal_checkpoints_total{kind="passive"}')! > 0, text);
  } finally {
    await app.close();
    await store.close();
  }
});

test('a store that keeps no log figures, as on PostgreSQL, serves /metrics without them', async () => {
  // The same store with the figures taken away: what the service is given on PostgreSQL, run on either store.
  const config = loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: service.databaseUrl, PORT: '0' });
  const store: Store = { ...service.store, logFigures: undefined };
  const app = await buildApp({ config, store, logger: false });
  try {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(sample(response.body, 'airorder_sqlite_wal_peak_bytes'), undefined, response.body);
    assert.ok(sample(response.body, 'airorder_pending_airline_changes')! >= 0, response.body);
  } finally {
    await app.close();
  }
});

test('what the background work counts into the service metrics is what /metrics shows', async () => {
  // server.ts counts webhook attempts through app.serviceMetrics.
  service.app.serviceMetrics.webhookDeliveries.inc({ outcome: 'delivered' });
  assert.equal(sample(await metricsText(), 'airorder_webhook_deliveries_total{outcome="delivered"}'), 1);
});

test('CONSOLE=off leaves the console out; by default it is there', async () => {
  const answer = await service.request('/console/login', { method: 'GET' });
  assert.equal(answer.status, 200);
  const without = await startTestService({ env: { CONSOLE: 'off' } });
  try {
    const none = await without.request('/console/login', { method: 'GET' });
    assert.equal(none.status, 404);
  } finally {
    await without.close();
  }
});

async function lastUseOf(started: TestService, agencyId: string): Promise<string | null> {
  const [row] = await runSql<{ last_used_at: string }>(
    started.store.db,
    'select u.last_used_at from token_last_use u join access_tokens t on t.token_id = u.token_id where t.agency_id = ?',
    [agencyId],
  );
  return row?.last_used_at ?? null;
}

test('the last use of a token is written when the service closes', async () => {
  const started = await startTestService();
  try {
    const token = await started.tokenFor('LUC');
    const answer = await started.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['NONE01']), bearer(token));
    assert.doesNotMatch(answer.text, /AUTH_/, 'the token is accepted');
    assert.equal(await lastUseOf(started, 'LUC'), null, 'written a minute later, not at once');
    await started.app.close();
    assert.notEqual(await lastUseOf(started, 'LUC'), null);
  } finally {
    await started.close();
  }
});

test('last uses that cannot be written are logged as a warning', async () => {
  const started = await startTestService();
  try {
    const token = await started.tokenFor('LUF');
    const answer = await started.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['NONE01']), bearer(token));
    assert.doesNotMatch(answer.text, /AUTH_/, 'the token is accepted');
    // The table the uses go to is gone: their write at close fails.
    await runSql(started.store.db, 'drop table token_last_use', []);
    await started.app.close();
    const warned = started.logs.filter(
      (line) => line.msg === 'last use of tokens not written; noted again at their next use',
    );
    assert.equal(warned.length, 1);
    assert.equal(warned[0]!.level, 40);
    assert.ok(warned[0]!.err, 'the error is logged with it');
  } finally {
    await started.close();
  }
});
