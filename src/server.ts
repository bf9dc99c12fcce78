import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { migrateToLatest } from './store/migrator.js';
import { openStore } from './store/open-store.js';
import { DeadlineScheduler } from './service/deadline-scheduler.js';
import { WebhookDispatcher } from './webhook-delivery/dispatcher.js';
import { systemClock } from './runtime/clock.js';
import type { Store } from './store/store.js';

const PURGE_EVERY_MS = 10 * 60_000;
/** How long events stay in the feed (and their deliveries in `webhook deliveries`). */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** Idempotency keys live 24 hours and events 30 days; older ones are removed in the background. */
function schedulePurge(store: Store, app: FastifyInstance): NodeJS.Timeout {
  const timer = setInterval(() => {
    // In a transaction like any write: on SQLite its BEGIN waits for another process's write lock
    // without sleeping in this thread, which a plain DELETE would do, for up to 5 s.
    store.write((tx) => tx.keptResponses.purgeExpired(new Date().toISOString()))
      .then((count) => { if (count > 0) app.log.info({ count }, 'expired idempotency keys removed'); })
      .catch((error: unknown) => app.log.warn({ cause: (error as Error).message }, 'could not remove expired idempotency keys'));
    store.write((tx) => tx.events.purge(new Date(Date.now() - EVENT_RETENTION_MS).toISOString()))
      .then((count) => { if (count > 0) app.log.info({ count }, 'events older than 30 days removed'); })
      .catch((error: unknown) => app.log.warn({ cause: (error as Error).message }, 'could not remove old events'));
  }, PURGE_EVERY_MS);
  timer.unref();
  return timer;
}

// PIPE_BUF on Linux: a write of at most this many bytes to a pipe is never interleaved with another
// process's write, so the workers of `serve --workers N`, sharing one standard output, never cut each
// other's lines (a single line longer than this is written on its own and may be).
const LOG_WRITE_BYTES = 4096;
const LOG_CHUNK_BYTES = 3072;
const LOG_FLUSH_MS = 200;

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  stop(): Promise<void>;
}

/** Opens the store, applies pending migrations (unless told not to), listens, and stops gracefully on SIGTERM/SIGINT. */
export async function startServer(config: Config, options: { migrate: boolean } = { migrate: true }): Promise<RunningServer> {
  const store = openStore(config, { serving: true });
  if (options.migrate) await migrateToLatest(store);
  // Asynchronous logging: a request never waits for its log line to reach the disk or the pipe.
  // Lines are gathered into writes of 3–4 KiB of whole lines: one write per request line cost more than
  // the line itself under load. The timer bounds how long a line waits when traffic is light.
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_CHUNK_BYTES, maxWrite: LOG_WRITE_BYTES });
  const flushLog = setInterval(() => destination.flush(), LOG_FLUSH_MS);
  flushLog.unref();
  const app = await buildApp({ config, store, logger: { level: config.logLevel, stream: destination } });
  const purge = schedulePurge(store, app);
  // Passed deadlines are applied, and approaching ones announced, by one process at a time.
  const deadlines = new DeadlineScheduler(store, systemClock, config.deadlineWarningMs, app.log);
  // The outbox's deliveries: each attempt by one process, however many run (leases in the store).
  const webhooks = new WebhookDispatcher(store, systemClock, {
    retrySchedule: config.webhookRetrySchedule,
    timeoutMs: config.webhookTimeoutMs,
    policy: { allowHttp: config.webhookAllowHttp, allowPrivateNetworks: config.webhookAllowPrivateNetworks },
  }, app.log, (outcome) => app.serviceMetrics.webhookDeliveries.inc({ outcome }));
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await deadlines.stop();
    await webhooks.stop(config.shutdownGraceMs / 2);
    clearInterval(flushLog);
  });
  const address = await app.listen({ port: config.port, host: config.host });
  deadlines.start();
  webhooks.start();
  // What an operator checks first: which store, and on SQLite which durability, this process runs with.
  app.log.info({ address, ...store.describe() }, 'listening');

  let stopping: Promise<void> | null = null;
  const stop = () => {
    // close() stops accepting connections and lets in-flight requests finish; the store closes after
    // every onClose hook, as some still write (the console adds its request counts, finishes its imports).
    stopping ??= app.close().then(() => store.close());
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    void stop().then(() => {
      destination.flushSync();
      process.exit(0);
    });
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { app, address, stop };
}
