import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openLogOutput } from './lifecycle/log-output.js';
import { migrateToLatest } from './store/migrator.js';
import { openStore } from './store/open-store.js';
import { DeadlineScheduler } from './service/deadline-scheduler.js';
import { WebhookDispatcher } from './webhook-delivery/dispatcher.js';
import { systemClock, type Clock } from './runtime/clock.js';
import type { Store } from './store/store.js';

const PURGE_EVERY_MS = 10 * 60_000;
/** How long events stay in the feed (and their deliveries in `webhook deliveries`). */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** Where a pass of the purge says what it removed, or why it could not: the service's log. */
export interface PurgeLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * One pass of the retention rules, by the service's clock: kept responses (under an
 * Idempotency-Key) live 24 hours and events 30 days; older ones are removed, and the log says how
 * many. A pass that fails says why and leaves the rows to the next one.
 */
export async function purgeExpired(store: Store, clock: Clock, log: PurgeLog): Promise<void> {
  // In a transaction like any write: on SQLite its BEGIN waits for another process's write lock
  // without sleeping in this thread, which a plain DELETE would do, for up to 5 s.
  try {
    const count = await store.write((tx) => tx.purgeExpiredKeptResponses(clock()));
    if (count > 0) log.info({ count }, 'expired idempotency keys removed');
  } catch (error) {
    log.warn({ cause: (error as Error).message }, 'could not remove expired idempotency keys');
  }
  try {
    const before = new Date(Date.parse(clock()) - EVENT_RETENTION_MS).toISOString();
    const count = await store.write((tx) => tx.purgeEvents(before));
    if (count > 0) log.info({ count }, 'events older than 30 days removed');
  } catch (error) {
    log.warn({ cause: (error as Error).message }, 'could not remove old events');
  }
}

function schedulePurge(store: Store, app: FastifyInstance, clock: Clock): NodeJS.Timeout {
  const timer = setInterval(() => void purgeExpired(store, clock, app.log), PURGE_EVERY_MS);
  timer.unref();
  return timer;
}

/**
 * Closes, when called, every connection that holds no request: idle keep-alive ones, and ones that
 * have sent nothing yet, or not all of a request's headers (a client's or a balancer's spare
 * connection). Node's closeIdleConnections() closes only the first kind, and the server's close
 * waited for the others until their receive time-out, past the grace: exit 1.
 */
function connectionsWithoutRequest(server: Server): () => void {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return () => {
    // A socket's current response is set as soon as its request's headers are read, and cleared once it is sent.
    for (const socket of sockets) if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroy();
  };
}

/** How long the last log lines may take to reach standard output once the service has stopped. */
const FINAL_LOG_FLUSH_MS = 500;

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  stop(): Promise<void>;
  /**
   * What SIGTERM does: stops accepting, lets in-flight requests finish for up to SHUTDOWN_GRACE_MS,
   * closes the store and ends the process. `reason` goes into the log line. Calling it again does nothing.
   */
  shutDown(reason: Record<string, unknown>): void;
}

/** Opens the store, applies pending migrations (unless told not to), listens, and stops gracefully on SIGTERM/SIGINT. */
export async function startServer(
  config: Config,
  options: { migrate: boolean } = { migrate: true },
): Promise<RunningServer> {
  const store = openStore(config, { serving: true });
  if (options.migrate) await migrateToLatest(store);
  const log = openLogOutput();
  const app = await buildApp({ config, store, logger: { level: config.logLevel, stream: log.destination } });
  const purge = schedulePurge(store, app, systemClock);
  // Passed deadlines are applied, and approaching ones announced, by one process at a time.
  const deadlines = new DeadlineScheduler(store, systemClock, config.deadlineWarningMs, app.log);
  // The outbox's deliveries: each attempt by one process, however many run (leases in the store).
  const webhooks = new WebhookDispatcher(
    store,
    systemClock,
    {
      retrySchedule: config.webhookRetrySchedule,
      timeoutMs: config.webhookTimeoutMs,
      policy: { allowHttp: config.webhookAllowHttp, allowPrivateNetworks: config.webhookAllowPrivateNetworks },
    },
    app.log,
    (outcome) => app.serviceMetrics.webhookDeliveries.inc({ outcome }),
  );
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await deadlines.stop();
    await webhooks.stop(config.shutdownGraceMs / 2);
  });
  const closeUnused = connectionsWithoutRequest(app.server);
  const address = await app.listen({ port: config.port, host: config.host });
  deadlines.start();
  webhooks.start();
  // What an operator checks first: which store, and on SQLite which durability, this process runs with.
  app.log.info({ address, ...store.describe() }, 'listening');

  let stopping: Promise<void> | null = null;
  const stop = () => {
    // close() stops accepting connections and lets in-flight requests finish; the store closes after
    // every onClose hook, as some still write (the console adds its request counts, finishes its imports).
    stopping ??= (async () => {
      // close() ends the connections idle at that moment; a keep-alive connection whose request was
      // in flight becomes idle once answered, and would hold the close until the grace ran out.
      const idle = setInterval(closeUnused, 100);
      try {
        await app.close();
      } finally {
        clearInterval(idle);
      }
      await store.close();
    })();
    return stopping;
  };
  let shuttingDown = false;
  const shutDown = (reason: Record<string, unknown>) => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info(reason, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting');
      log.exit(1, FINAL_LOG_FLUSH_MS);
    }, config.shutdownGraceMs);
    force.unref();
    void stop().then(
      () => log.exit(0, FINAL_LOG_FLUSH_MS),
      (error: unknown) => {
        app.log.error({ cause: (error as Error).message }, 'could not stop cleanly');
        log.exit(1, FINAL_LOG_FLUSH_MS);
      },
    );
  };
  // `on`, not `once`: a second signal (a terminal's Ctrl-C reaches every process of the group, and the
  // primary of `--workers` passes SIGTERM on as well) must not kill the process in the middle of its drain.
  process.on('SIGTERM', () => shutDown({ signal: 'SIGTERM' }));
  process.on('SIGINT', () => shutDown({ signal: 'SIGINT' }));
  return { app, address, stop, shutDown };
}
