/**
 * PostgreSQL's pool in /metrics (src/metrics/pool-metrics.ts), on a registry of this process and a
 * store whose figures the test sets: connections by state, the pool's size, the callers waiting, each
 * wait observed, each refusal counted; nothing at all on a store without a pool.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { registerPoolMetrics } from '../../src/metrics/pool-metrics.js';
import type { PoolFigures, PoolObserver, Store } from '../../src/store/store.js';

function poolStore(figures: Partial<PoolFigures> | null) {
  const observers: PoolObserver[] = [];
  const now = { size: 10, min: 2, queueLimit: 500, open: 0, inUse: 0, idle: 0, waiting: 0, ...figures } as PoolFigures;
  const store = {
    poolFigures: () => (figures === null ? null : now),
    observePool: (observer: PoolObserver) => observers.push(observer),
  } as unknown as Store;
  return { store, now, observers };
}

async function scrape(registry: Registry) {
  const text = await registry.metrics();
  const value = (series: string): number | undefined => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  return { text, value };
}

test('a store without a pool (SQLite) registers nothing', async () => {
  for (const store of [
    {} as unknown as Store,
    poolStore(null).store,
    { poolFigures: () => poolStore({}).now } as unknown as Store,
    { observePool: () => {} } as unknown as Store,
  ]) {
    const registry = new Registry();
    registerPoolMetrics(registry, store);
    assert.deepEqual(await registry.getMetricsAsJSON(), []);
  }
});

test("the pool's connections by state, its size and its waiting callers are read at each scrape", async () => {
  const { store, now } = poolStore({ size: 20, inUse: 3, idle: 4, waiting: 0 });
  const registry = new Registry();
  registerPoolMetrics(registry, store);
  let scraped = await scrape(registry);
  assert.match(scraped.text, /^# TYPE airorder_db_pool_connections gauge$/m);
  assert.match(scraped.text, /^# HELP airorder_db_pool_connections PostgreSQL connections of the pool, by state: /m);
  assert.equal(scraped.value('airorder_db_pool_connections{state="in_use"}'), 3);
  assert.equal(scraped.value('airorder_db_pool_connections{state="idle"}'), 4);
  assert.equal(scraped.value('airorder_db_pool_max_connections'), 20);
  assert.equal(scraped.value('airorder_db_pool_waiting'), 0);
  Object.assign(now, { inUse: 20, idle: 0, waiting: 7 });
  scraped = await scrape(registry);
  assert.equal(scraped.value('airorder_db_pool_connections{state="in_use"}'), 20);
  assert.equal(scraped.value('airorder_db_pool_connections{state="idle"}'), 0);
  assert.equal(scraped.value('airorder_db_pool_waiting'), 7);
  for (const name of [
    'airorder_db_pool_connections',
    'airorder_db_pool_max_connections',
    'airorder_db_pool_waiting',
    'airorder_db_pool_wait_seconds',
    'airorder_db_pool_refused_total',
  ]) {
    assert.match(scraped.text, new RegExp(`^# HELP ${name} \\S.{10,}$`, 'm'), `${name} has no help`);
  }
  assert.match(scraped.text, /^# TYPE airorder_db_pool_max_connections gauge$/m);
  assert.match(scraped.text, /^# TYPE airorder_db_pool_waiting gauge$/m);
});

test('each wait is observed in buckets from 1 ms to 30 s, each refusal counted', async () => {
  const { store, observers } = poolStore({});
  const registry = new Registry();
  registerPoolMetrics(registry, store);
  assert.equal(observers.length, 1);
  let scraped = await scrape(registry);
  assert.equal(scraped.value('airorder_db_pool_refused_total'), 0);
  assert.equal(scraped.value('airorder_db_pool_wait_seconds_count'), 0);
  observers[0]!.waited(0);
  observers[0]!.waited(0.2);
  observers[0]!.waited(20);
  observers[0]!.refused();
  observers[0]!.refused();
  scraped = await scrape(registry);
  assert.match(scraped.text, /^# TYPE airorder_db_pool_wait_seconds histogram$/m);
  assert.match(scraped.text, /^# TYPE airorder_db_pool_refused_total counter$/m);
  assert.equal(scraped.value('airorder_db_pool_refused_total'), 2);
  assert.equal(scraped.value('airorder_db_pool_wait_seconds_count'), 3);
  assert.equal(scraped.value('airorder_db_pool_wait_seconds_sum'), 20.2);
  const buckets = [...scraped.text.matchAll(/^airorder_db_pool_wait_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm)];
  assert.deepEqual(
    buckets.map((bucket) => [bucket[1], Number(bucket[2])]),
    [
      ['0.001', 1],
      ['0.005', 1],
      ['0.025', 1],
      ['0.1', 1],
      ['0.25', 2],
      ['0.5', 2],
      ['1', 2],
      ['2.5', 2],
      ['5', 2],
      ['10', 2],
      ['15', 2],
      ['30', 3],
      ['+Inf', 3],
    ],
  );
});
