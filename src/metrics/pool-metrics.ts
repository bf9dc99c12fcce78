import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Store } from '../store/store.js';

/** From no wait at all to a whole request time-out (15 s by default). */
const WAIT_BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

/**
 * PostgreSQL's connection pool in /metrics (docs/operations.md, "Sizing the PostgreSQL pool"): its
 * connections by state and its waiting callers, read at each scrape, and the time each caller waited
 * for a connection. Nothing is registered on a store without a pool (SQLite). With `serve --workers`
 * the workers' figures are added up (cluster-metrics.ts): the service's connections, all processes'.
 */
export function registerPoolMetrics(registry: Registry, store: Store): void {
  if (!store.poolFigures?.() || !store.observePool) return;
  const figures = () => store.poolFigures!()!;
  new Gauge({
    name: 'airorder_db_pool_connections',
    help: 'PostgreSQL connections of the pool, by state: in_use (lent to a request or job, or being opened for one) or idle.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const now = figures();
      this.set({ state: 'in_use' }, now.inUse);
      this.set({ state: 'idle' }, now.idle);
    },
  });
  new Gauge({
    name: 'airorder_db_pool_max_connections',
    help: 'The most connections the pool opens (DATABASE_POOL_SIZE).',
    registers: [registry],
    collect() {
      this.set(figures().size);
    },
  });
  new Gauge({
    name: 'airorder_db_pool_waiting',
    help: 'Callers waiting for a connection now, in order (at most DATABASE_POOL_QUEUE).',
    registers: [registry],
    collect() {
      this.set(figures().waiting);
    },
  });
  const waited = new Histogram({
    name: 'airorder_db_pool_wait_seconds',
    help: 'Time a caller waited for a connection of the pool before it was lent one (0 when one was free).',
    buckets: WAIT_BUCKETS,
    registers: [registry],
  });
  const refused = new Counter({
    name: 'airorder_db_pool_refused_total',
    help: 'Callers that got no connection (answered 503): the queue was full, or their time ran out while they waited.',
    registers: [registry],
  });
  store.observePool({
    waited: (seconds) => waited.observe(seconds),
    refused: () => refused.inc(),
  });
}
