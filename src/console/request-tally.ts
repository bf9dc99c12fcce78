import type { FastifyInstance } from 'fastify';
import type { MinuteCount } from '../store/repositories/request-counts-repository.js';
import type { Store } from '../store/store.js';

const MINUTE = 60_000;
/** How often a process adds what it counted to the store: the overview is at most this late for other processes. */
export const TALLY_FLUSH_MS = 5_000;
/** Minutes kept in the store: the hour shown and one more, for clocks a little apart. */
const KEPT_MINUTES = 120;

/**
 * Requests to the API and their outcome codes, counted per minute. Each process counts in memory
 * and adds its counts to the store every few seconds and when it closes (`request_counts`); the
 * overview sums the last hour of every process's counts on the same store.
 */
export class RequestTally {
  private pending = new Map<string, MinuteCount>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  count(code: string, at = Date.now()): void {
    const minute = Math.floor(at / MINUTE);
    const key = `${minute} ${code}`;
    const counted = this.pending.get(key);
    if (counted) counted.requests += 1;
    else this.pending.set(key, { minute, code, requests: 1 });
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), TALLY_FLUSH_MS);
    this.timer.unref();
  }

  /** Adds the counts not yet in the store; one flush at a time, so none is added twice. */
  flush(at = Date.now()): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const counts = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.store.write(async (tx) => {
          await tx.addRequestCounts(counts);
          await tx.dropRequestCountsBefore(Math.floor(at / MINUTE) - KEPT_MINUTES);
        });
      } catch (error) {
        // Kept for the next flush: a store that is briefly unreachable loses no count.
        for (const count of counts) {
          const key = `${count.minute} ${count.code}`;
          const counted = this.pending.get(key);
          if (counted) counted.requests += count.requests;
          else this.pending.set(key, count);
        }
        this.onError(error);
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Counts per code within the last hour, from every process (this one's up to now), most frequent first. */
  lastHour(at = Date.now()): Promise<{ code: string; count: number }[]> {
    // In turn with the flushes: counts on their way to the store are neither missed nor counted twice.
    const read = this.flushing.then(async () => {
      const since = Math.floor(at / MINUTE) - 59;
      const totals = new Map<string, number>();
      for (const row of await this.store.read.requestCountsSince(since)) totals.set(row.code, row.count);
      for (const count of this.pending.values()) {
        if (count.minute >= since) totals.set(count.code, (totals.get(count.code) ?? 0) + count.requests);
      }
      return [...totals]
        .map(([code, count]) => ({ code, count }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
    });
    this.flushing = read.then(
      () => undefined,
      () => undefined,
    );
    return read;
  }
}

/** Not the API's: the console's own pages, and the probes and scrapes a load balancer or Prometheus makes every few seconds. */
function uncounted(url: string): boolean {
  return url.startsWith('/console') || /^\/(healthz|readyz|metrics)(\?|$)/.test(url);
}

/** Counts every request to the API, with the outcome code the request log writes. */
export function installRequestTally(app: FastifyInstance, tally: RequestTally): void {
  app.addHook('onResponse', async (request, reply) => {
    if (uncounted(request.url)) return;
    tally.count(request.outcomeCode ?? (reply.statusCode < 400 ? 'OK' : String(reply.statusCode)));
  });
  app.addHook('onReady', async () => tally.start());
  app.addHook('onClose', async () => tally.stop());
}
