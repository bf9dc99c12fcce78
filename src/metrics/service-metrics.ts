import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { OperationResult } from '../service/order-operations.js';
import type { LogFigures } from '../store/store.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the store-wide gauges read at each scrape. */
export interface StoreFigures {
  pendingChanges(): Promise<number>;
  /** The age of the oldest event still waiting for a delivery, in seconds; 0 when none waits. */
  oldestUndeliveredSeconds(): Promise<number>;
  /** SQLite with its checkpoint thread: what that thread saw of the write-ahead log; null otherwise. */
  logFigures(): LogFigures | null;
}

/**
 * What /metrics exposes: requests, latency, refunds, store latency, deliveries, and the process
 * itself (prom-client's default metrics). With `serve --workers N` the workers' registries are added
 * up in the primary (cluster-metrics.ts), each metric by its `aggregator`: counters and histograms
 * are summed, the store-wide gauges, which every worker reads alike, are taken once (`max`).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'airorder_requests_total',
    help: 'Requests answered, by operation and outcome code.',
    labelNames: ['operation', 'code'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'airorder_request_duration_seconds',
    help: 'Time to answer a request, by operation.',
    labelNames: ['operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly refunds = new Counter({
    name: 'airorder_refunds_total',
    help: 'Tickets refunded, by currency.',
    labelNames: ['currency'] as const,
    registers: [this.registry],
  });
  readonly refundedMinor = new Counter({
    name: 'airorder_refunded_minor_units_total',
    help: "Amount refunded in the currency's minor units, by currency.",
    labelNames: ['currency'] as const,
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'airorder_webhook_deliveries_total',
    help: 'Webhook attempts made, by outcome: delivered, retry, failed, disabled.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly storeSeconds = new Histogram({
    name: 'airorder_store_transaction_duration_seconds',
    help: "Time of an operation's store transaction, by operation.",
    labelNames: ['operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly connectionsRefused = new Counter({
    name: 'airorder_connections_refused_total',
    help: 'Connections closed as soon as accepted, by the cap they met: total (MAX_CONNECTIONS) or address (MAX_CONNECTIONS_PER_ADDRESS).',
    labelNames: ['cap'] as const,
    registers: [this.registry],
  });
  private openConnections: () => number = () => 0;

  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });

  constructor(store: StoreFigures) {
    this.loopDelay.enable();
    collectDefaultMetrics({ register: this.registry });
    // Read from the store at each scrape. When the store cannot be read the last value stays: its
    // absence shows in /readyz, and the rest is still worth serving.
    let pending = 0;
    let oldest = 0;
    new Gauge({
      name: 'airorder_pending_airline_changes',
      help: "Airline-initiated changes awaiting an agency's decision (read at scrape).",
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        pending = await store.pendingChanges().catch(() => pending);
        this.set(pending);
      },
    });
    new Gauge({
      name: 'airorder_webhook_oldest_undelivered_seconds',
      help: 'Age of the oldest event still waiting for a webhook delivery; 0 when none waits (read at scrape).',
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        oldest = await store.oldestUndeliveredSeconds().catch(() => oldest);
        this.set(oldest);
      },
    });
    if (store.logFigures() !== null) {
      // Kept by this process's checkpoint thread; with --workers each has its own, on the same log.
      let counted = { passes: 0, restarts: 0 };
      const checkpoints = new Counter({
        name: 'airorder_sqlite_wal_checkpoints_total',
        help: "Passes of the checkpoint thread over SQLite's write-ahead log, by kind: passive, or restart (the log started over).",
        labelNames: ['kind'] as const,
        registers: [this.registry],
        collect() {
          const figures = store.logFigures();
          if (!figures) return;
          this.inc({ kind: 'passive' }, figures.passes - counted.passes);
          this.inc({ kind: 'restart' }, figures.restarts - counted.restarts);
          counted = figures;
        },
      });
      checkpoints.inc({ kind: 'passive' }, 0);
      checkpoints.inc({ kind: 'restart' }, 0);
      new Gauge({
        name: 'airorder_sqlite_wal_peak_bytes',
        help: "The largest SQLite's write-ahead log has been since the service started, as the checkpoint thread saw it (SQLITE_WAL_LIMIT_MB).",
        aggregator: 'max',
        registers: [this.registry],
        collect() {
          this.set(store.logFigures()?.peakBytes ?? 0);
        },
      });
    }
    this.connectionsRefused.inc({ cap: 'total' }, 0);
    this.connectionsRefused.inc({ cap: 'address' }, 0);
    const openConnections = () => this.openConnections();
    new Gauge({
      name: 'airorder_connections_open',
      help: 'Connections the service holds now (with --workers, every worker together).',
      registers: [this.registry],
      collect() {
        this.set(openConnections());
      },
    });
    // Two of the hand-made metrics that came before prom-client's own, kept for the dashboards that read them.
    new Gauge({
      name: 'nodejs_heap_used_bytes',
      help: 'V8 heap in use.',
      registers: [this.registry],
      collect() {
        this.set(process.memoryUsage().heapUsed);
      },
    });
    const loopDelay = this.loopDelay;
    new Gauge({
      name: 'nodejs_eventloop_delay_p99_seconds',
      help: "Event loop delay, 99th percentile since the last scrape (the worst process's).",
      aggregator: 'max',
      registers: [this.registry],
      collect() {
        this.set(loopDelay.percentile(99) / 1e9);
        loopDelay.reset();
      },
    });
  }

  /** Where `airorder_connections_open` reads its figure: the server's connection caps (http/connection-limits.ts). */
  countConnections(open: () => number): void {
    this.openConnections = open;
  }

  /** The refunds an operation made (a retry's stored refunds are not counted again), by whoever asked for it. */
  countRefunds(result: OperationResult): void {
    for (const { outcome } of result.items) {
      if (!outcome.ok || !outcome.changed) continue;
      // A voluntary refund adds to the refunds the booking had; an involuntary cancel makes them all.
      const made = outcome.booking.refunds.filter((refund) => refund.quoteId === outcome.refund?.quoteId);
      for (const refund of made) {
        this.refunds.inc({ currency: result.currency });
        this.refundedMinor.inc({ currency: result.currency }, refund.amount);
      }
    }
  }

  stop(): void {
    this.loopDelay.disable();
  }
}
