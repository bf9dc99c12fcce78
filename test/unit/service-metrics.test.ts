/**
 * What /metrics exposes (src/metrics/service-metrics.ts), read from the registry in this process:
 * every metric docs/operations.md names, with its kind and a help line; the store-wide gauges read at
 * each scrape (the last value kept when the store cannot be read); the SQLite checkpoint figures;
 * refunds counted once; and how the workers' figures add up (sum, or the store-wide gauges once).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AggregatorRegistry } from 'prom-client';
import { ServiceMetrics, type StoreFigures } from '../../src/metrics/service-metrics.js';
import type { OperationResult } from '../../src/service/order-operations.js';
import type { LogFigures } from '../../src/store/store.js';

const OPERATIONS = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');

/** A store whose figures the test sets; `null` makes a read fail. */
function fakeStore(log: LogFigures | null = null) {
  const figures = {
    pending: 0 as number | null,
    oldest: 0 as number | null,
    log: log as LogFigures | null,
  };
  const store: StoreFigures = {
    pendingChanges: () =>
      figures.pending === null ? Promise.reject(new Error('store away')) : Promise.resolve(figures.pending),
    oldestUndeliveredSeconds: () =>
      figures.oldest === null ? Promise.reject(new Error('store away')) : Promise.resolve(figures.oldest),
    logFigures: () => figures.log,
  };
  return { store, figures };
}

/** A ServiceMetrics stopped when the test ends. */
function metricsFor(t: { after: (fn: () => void) => void }, store: StoreFigures): ServiceMetrics {
  const metrics = new ServiceMetrics(store);
  t.after(() => metrics.stop());
  return metrics;
}

/** One scrape: its text, and the value of a series (absent: undefined). */
async function scrape(metrics: ServiceMetrics) {
  const text = await metrics.registry.metrics();
  const value = (series: string): number | undefined => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  return { text, value };
}

const KINDS: Record<string, string> = {
  airorder_requests_total: 'counter',
  airorder_request_duration_seconds: 'histogram',
  airorder_store_transaction_duration_seconds: 'histogram',
  airorder_refunds_total: 'counter',
  airorder_refunded_minor_units_total: 'counter',
  airorder_pending_airline_changes: 'gauge',
  airorder_webhook_deliveries_total: 'counter',
  airorder_webhook_oldest_undelivered_seconds: 'gauge',
  airorder_connections_open: 'gauge',
  airorder_connections_refused_total: 'counter',
  airorder_sqlite_wal_peak_bytes: 'gauge',
  airorder_sqlite_wal_checkpoints_total: 'counter',
  nodejs_heap_used_bytes: 'gauge',
  nodejs_eventloop_delay_p99_seconds: 'gauge',
  process_cpu_seconds_total: 'counter',
  process_resident_memory_bytes: 'gauge',
};

test('every metric docs/operations.md names is exposed, of its kind, with a line of help', async (t) => {
  const metrics = metricsFor(t, fakeStore({ passes: 0, restarts: 0, peakBytes: 0 }).store);
  metrics.requests.inc({ operation: 'AirOrderCancel', code: 'OK' });
  metrics.refunds.inc({ currency: 'EUR' });
  metrics.refundedMinor.inc({ currency: 'EUR' }, 5);
  metrics.webhookDeliveries.inc({ outcome: 'delivered' });
  const { text } = await scrape(metrics);
  for (const [name, kind] of Object.entries(KINDS)) {
    assert.ok(OPERATIONS.includes(`\`${name}\``), `${name} is not named in docs/operations.md`);
    assert.match(text, new RegExp(`^# TYPE ${name} ${kind}$`, 'm'), name);
    assert.match(text, new RegExp(`^# HELP ${name} \\S.{10,}$`, 'm'), `${name} has no help`);
  }
  // Every metric of the service's own says what it is.
  for (const name of text.matchAll(/^# TYPE ((?:airorder|nodejs)_\S+) /gm)) {
    assert.match(text, new RegExp(`^# HELP ${name[1]} \\S.{10,}$`, 'm'), `${name[1]} has no help`);
  }
  assert.match(text, /^# HELP airorder_requests_total Requests answered, by operation and outcome code\.$/m);
});

test('the latency histograms have buckets from 1 ms to 10 s', async (t) => {
  const metrics = metricsFor(t, fakeStore().store);
  metrics.requestSeconds.observe({ operation: 'AirOrderRetrieve' }, 0.003);
  metrics.storeSeconds.observe({ operation: 'AirOrderRetrieve' }, 0.003);
  const { text } = await scrape(metrics);
  const buckets = [
    '0.001',
    '0.0025',
    '0.005',
    '0.01',
    '0.025',
    '0.05',
    '0.1',
    '0.25',
    '0.5',
    '1',
    '2.5',
    '5',
    '10',
    '+Inf',
  ];
  for (const name of ['airorder_request_duration_seconds', 'airorder_store_transaction_duration_seconds']) {
    const found = [
      ...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)",operation="AirOrderRetrieve"\\} (\\d+)$`, 'gm')),
    ];
    assert.deepEqual(
      found.map((match) => match[1]),
      buckets,
      name,
    );
    assert.deepEqual(
      found.map((match) => Number(match[2])),
      [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      name,
    );
  }
});

test('the store-wide gauges are read at each scrape; a read that fails keeps the last value', async (t) => {
  const { store, figures } = fakeStore();
  const metrics = metricsFor(t, store);
  figures.pending = 3;
  figures.oldest = 42;
  let scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_pending_airline_changes'), 3);
  assert.equal(scraped.value('airorder_webhook_oldest_undelivered_seconds'), 42);
  figures.pending = 5;
  figures.oldest = 7;
  scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_pending_airline_changes'), 5);
  assert.equal(scraped.value('airorder_webhook_oldest_undelivered_seconds'), 7);
  figures.pending = null;
  figures.oldest = null;
  scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_pending_airline_changes'), 5);
  assert.equal(scraped.value('airorder_webhook_oldest_undelivered_seconds'), 7);
});

test('a store that fails from the first scrape shows 0', async (t) => {
  const { store, figures } = fakeStore();
  figures.pending = null;
  figures.oldest = null;
  const scraped = await scrape(metricsFor(t, store));
  assert.equal(scraped.value('airorder_pending_airline_changes'), 0);
  assert.equal(scraped.value('airorder_webhook_oldest_undelivered_seconds'), 0);
});

test('without a checkpoint thread (PostgreSQL) there are no SQLite figures', async (t) => {
  const { text } = await scrape(metricsFor(t, fakeStore(null).store));
  assert.doesNotMatch(text, /airorder_sqlite_wal/);
});

test("SQLite's checkpoint passes are counted by kind as the thread reports them, and its peak shown", async (t) => {
  const { store, figures } = fakeStore({ passes: 0, restarts: 0, peakBytes: 0 });
  const metrics = metricsFor(t, store);
  let scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="passive"}'), 0);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="restart"}'), 0);
  assert.equal(scraped.value('airorder_sqlite_wal_peak_bytes'), 0);
  figures.log = { passes: 5, restarts: 2, peakBytes: 4_000_000 };
  scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="passive"}'), 5);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="restart"}'), 2);
  assert.equal(scraped.value('airorder_sqlite_wal_peak_bytes'), 4_000_000);
  figures.log = { passes: 9, restarts: 3, peakBytes: 4_500_000 };
  scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="passive"}'), 9);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="restart"}'), 3);
  assert.equal(scraped.value('airorder_sqlite_wal_peak_bytes'), 4_500_000);
  // A scrape while the thread has nothing to say leaves the counts as they were.
  figures.log = null;
  scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="passive"}'), 9);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="restart"}'), 3);
  assert.equal(scraped.value('airorder_sqlite_wal_peak_bytes'), 0);
});

test('both kinds of checkpoint show from the start, at 0', async (t) => {
  const { store, figures } = fakeStore({ passes: 0, restarts: 0, peakBytes: 0 });
  const metrics = metricsFor(t, store);
  figures.log = null;
  const scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="passive"}'), 0);
  assert.equal(scraped.value('airorder_sqlite_wal_checkpoints_total{kind="restart"}'), 0);
});

test('connections: both caps show from the start at 0, the open ones are read where the server says', async (t) => {
  const metrics = metricsFor(t, fakeStore().store);
  let scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_connections_refused_total{cap="total"}'), 0);
  assert.equal(scraped.value('airorder_connections_refused_total{cap="address"}'), 0);
  assert.equal(scraped.value('airorder_connections_open'), 0);
  let open = 12;
  metrics.countConnections(() => open);
  scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_connections_open'), 12);
  open = 3;
  scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_connections_open'), 3);
});

test('the heap in use and the event loop delay, in bytes and seconds', async (t) => {
  const metrics = metricsFor(t, fakeStore().store);
  // Hold the event loop for 300 ms: the delay's 99th percentile is then at least most of that.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const until = performance.now() + 300;
  while (performance.now() < until);
  await new Promise((resolve) => setTimeout(resolve, 50));
  let scraped = await scrape(metrics);
  assert.ok(scraped.value('nodejs_heap_used_bytes')! > 1_000_000);
  const p99 = scraped.value('nodejs_eventloop_delay_p99_seconds')!;
  assert.ok(p99 >= 0.2 && p99 < 100, `p99 ${p99} s`);
  // Each scrape starts the percentile over.
  await new Promise((resolve) => setTimeout(resolve, 100));
  scraped = await scrape(metrics);
  assert.ok(scraped.value('nodejs_eventloop_delay_p99_seconds')! < p99);
});

test('refunds are counted once, by the currency of the order', async (t) => {
  const metrics = metricsFor(t, fakeStore().store);
  const booking = (refunds: { quoteId?: string; amount: number }[]) => ({ refunds });
  const result = {
    orderId: 'ORD-1',
    currency: 'EUR',
    items: [
      { reference: 'A', outcome: { ok: false, code: 'BOOKING_NOT_FOUND', message: 'no' } },
      // A retry: refunded before, nothing new.
      { reference: 'B', outcome: { ok: true, changed: false, booking: booking([{ amount: 1000 }]) } },
      // A voluntary refund: only the one it made, not those the booking had.
      {
        reference: 'C',
        outcome: {
          ok: true,
          changed: true,
          refund: { quoteId: 'Q2' },
          booking: booking([
            { quoteId: 'Q1', amount: 100 },
            { quoteId: 'Q2', amount: 250 },
          ]),
        },
      },
      { reference: 'D', outcome: { ok: false, code: 'BOOKING_CANCELLED', message: 'no' } },
      // An involuntary cancel: every refund it made.
      { reference: 'E', outcome: { ok: true, changed: true, booking: booking([{ amount: 70 }, { amount: 30 }]) } },
    ],
  } as unknown as OperationResult;
  metrics.countRefunds(result);
  metrics.countRefunds({ ...result, currency: 'USD', items: result.items.slice(4) });
  const scraped = await scrape(metrics);
  assert.equal(scraped.value('airorder_refunds_total{currency="EUR"}'), 3);
  assert.equal(scraped.value('airorder_refunded_minor_units_total{currency="EUR"}'), 350);
  assert.equal(scraped.value('airorder_refunds_total{currency="USD"}'), 2);
  assert.equal(scraped.value('airorder_refunded_minor_units_total{currency="USD"}'), 100);
});

test("workers' figures add up: counters and the connections summed, the store-wide gauges taken once", async (t) => {
  const one = fakeStore({ passes: 4, restarts: 1, peakBytes: 3000 });
  const two = fakeStore({ passes: 6, restarts: 2, peakBytes: 5000 });
  one.figures.pending = 4;
  two.figures.pending = 4;
  one.figures.oldest = 30;
  two.figures.oldest = 31;
  const first = metricsFor(t, one.store);
  const second = metricsFor(t, two.store);
  first.countConnections(() => 2);
  second.countConnections(() => 5);
  first.requests.inc({ operation: 'AirOrderCancel', code: 'OK' });
  second.requests.inc({ operation: 'AirOrderCancel', code: 'OK' }, 2);
  // Both see this event loop held for 150 ms: the same delay, which must not count twice.
  const until = performance.now() + 150;
  while (performance.now() < until);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const reports = [await first.registry.getMetricsAsJSON(), await second.registry.getMetricsAsJSON()];
  const p99 = reports.map(
    (report) => report.find((metric) => metric.name === 'nodejs_eventloop_delay_p99_seconds')!.values[0]!.value,
  );
  assert.ok(Math.min(...p99) > 0);
  const text = await AggregatorRegistry.aggregate(reports).metrics();
  const value = (series: string) => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  assert.equal(value('airorder_requests_total{operation="AirOrderCancel",code="OK"}'), 3);
  assert.equal(value('airorder_connections_open'), 7);
  assert.equal(value('airorder_sqlite_wal_checkpoints_total{kind="passive"}'), 10);
  assert.equal(value('airorder_pending_airline_changes'), 4);
  assert.equal(value('airorder_webhook_oldest_undelivered_seconds'), 31);
  assert.equal(value('airorder_sqlite_wal_peak_bytes'), 5000);
  assert.ok(value('nodejs_heap_used_bytes')! > 2_000_000);
  assert.equal(value('nodejs_eventloop_delay_p99_seconds'), Math.max(...p99));
});

test('once stopped, the event loop is no longer watched', async () => {
  const metrics = new ServiceMetrics(fakeStore().store);
  await scrape(metrics);
  metrics.stop();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const until = performance.now() + 300;
  while (performance.now() < until);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const p99 = (await scrape(metrics)).value('nodejs_eventloop_delay_p99_seconds')!;
  assert.ok(p99 < 0.2, `p99 ${p99} s after stop`);
});
