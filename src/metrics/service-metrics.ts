import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from './registry.js';
import type { OperationResult } from '../service/order-operations.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What /metrics exposes: requests, latency, refunds, store latency, and the process itself. */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = this.registry.register(new Counter('airorder_requests_total', 'Requests answered, by operation and outcome code.'));
  readonly requestSeconds = this.registry.register(new Histogram('airorder_request_duration_seconds', 'Time to answer a request, by operation.', LATENCY_BUCKETS));
  readonly refunds = this.registry.register(new Counter('airorder_refunds_total', 'Tickets refunded, by currency.'));
  readonly refundedMinor = this.registry.register(new Counter('airorder_refunded_minor_units_total', 'Amount refunded in the currency\'s minor units, by currency.'));
  readonly webhookDeliveries = this.registry.register(new Counter('airorder_webhook_deliveries_total', 'Webhook attempts made by this process, by outcome: delivered, retry, failed, disabled.'));
  readonly storeSeconds = this.registry.register(new Histogram('airorder_store_transaction_duration_seconds', 'Time of an operation\'s store transaction, by operation.', LATENCY_BUCKETS));
  /** The refunds an operation made (a retry's stored refunds are not counted again), by whoever asked for it. */
  countRefunds(result: OperationResult): void {
    for (const { outcome } of result.items) {
      if (!outcome.ok || !outcome.changed) continue;
      for (const refund of outcome.booking.refunds) {
        this.refunds.inc({ currency: result.currency });
        this.refundedMinor.inc({ currency: result.currency }, refund.amount);
      }
    }
  }

  private pendingChanges = 0;
  private oldestUndeliveredSeconds = 0;
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });

  constructor() {
    this.loopDelay.enable();
    this.registry.register(new Gauge('airorder_pending_airline_changes', 'Airline-initiated changes awaiting an agency\'s decision (read at scrape).',
      () => [{ labels: {}, value: this.pendingChanges }]));
    this.registry.register(new Gauge('airorder_webhook_oldest_undelivered_seconds', 'Age of the oldest event still waiting for a webhook delivery; 0 when none waits (read at scrape).',
      () => [{ labels: {}, value: this.oldestUndeliveredSeconds }]));
    const started = Date.now() / 1000 - process.uptime();
    this.registry.register(new Gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch.', () => [{ labels: {}, value: Math.round(started) }]));
    this.registry.register(new Gauge('process_resident_memory_bytes', 'Resident memory size.', () => [{ labels: {}, value: process.memoryUsage.rss() }]));
    this.registry.register(new Gauge('process_cpu_seconds_total', 'User and system CPU time spent.', () => {
      const usage = process.cpuUsage();
      return [{ labels: {}, value: (usage.user + usage.system) / 1e6 }];
    }));
    this.registry.register(new Gauge('nodejs_heap_used_bytes', 'V8 heap in use.', () => [{ labels: {}, value: process.memoryUsage().heapUsed }]));
    this.registry.register(new Gauge('nodejs_eventloop_delay_p99_seconds', 'Event loop delay, 99th percentile since the last scrape.', () => {
      const value = this.loopDelay.percentile(99) / 1e9;
      this.loopDelay.reset();
      return [{ labels: {}, value }];
    }));
  }

  setPendingChanges(count: number): void {
    this.pendingChanges = count;
  }

  setOldestUndelivered(seconds: number): void {
    this.oldestUndeliveredSeconds = seconds;
  }

  stop(): void {
    this.loopDelay.disable();
  }
}
