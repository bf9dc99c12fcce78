import cluster from 'node:cluster';
import type { Config } from '../config.js';
import { setUpDemo } from '../demo/demo-setup.js';
import { survivePipeErrors } from '../lifecycle/log-output.js';
import { watchParent } from '../lifecycle/parent-watch.js';
import { aggregateWorkerMetrics } from '../metrics/cluster-metrics.js';
import { startServer } from '../server.js';
import { systemClock } from '../runtime/clock.js';
import { migrateToLatest } from '../store/migrator.js';
import { openStore } from '../store/open-store.js';
import { untilDatabaseAnswers } from './wait-for-database.js';
import { databaseReady } from './with-store.js';
import { curlExamples } from './curl-examples.js';
import { upgradeProgress } from './progress.js';

export interface ServeOptions {
  workers: number;
  /** Demo orders to load before serving, or null for none. */
  demoOrders: number | null;
}

/**
 * The database made ready (created if missing, migrated) and demo data loaded, once, in the process
 * that the operator started: its workers find the database there.
 */
async function prepareStore(config: Config, demoOrders: number | null): Promise<string> {
  const store = openStore(config);
  const progress = upgradeProgress();
  try {
    // The first connections of this start: creating the database if it is missing, then migrating.
    const ready = async () => {
      await databaseReady(config);
      await migrateToLatest(store, progress.report);
    };
    await untilDatabaseAnswers(ready, {
      limitMs: config.databaseStartWaitMs,
      clock: systemClock,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      isUnavailable: (error) => store.isUnavailable(error),
      onRetry: (cause, pauseMs) =>
        process.stderr.write(`waiting for the database (${cause.message}): trying again in ${pauseMs / 1000} s\n`),
    }).finally(() => progress.done());
    if (demoOrders === null) return '';
    const demo = await setUpDemo(store, systemClock, demoOrders);
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return curlExamples(`http://${host}:${config.port}`, demo);
  } finally {
    await store.close();
  }
}

/**
 * Runs the service. With several workers, the primary process prepares the store, forks the
 * workers (they share the listening socket), replaces a worker that dies, and on SIGTERM or SIGINT
 * passes SIGTERM on and exits once every worker has finished its in-flight requests (a worker still
 * there a second after SHUTDOWN_GRACE_MS is killed). Every process stops the same way when the one
 * that started it is gone: the parent of a single process or of the primary (a launcher such as npm
 * that exited on the signal), the primary of a worker (killed outright).
 */
export async function serve(config: Config, options: ServeOptions): Promise<void> {
  // Only a launcher that may swallow the signal is watched: a service started with nohup from a
  // shell that then exits keeps running, as nohup means.
  const startedBy = config.launchedByNpm ? process.ppid : 0;
  survivePipeErrors();
  // Until a process has its own way to stop (startServer's, or the primary's below), a stop ends it
  // at once with status 0, as a supervisor expects: nothing is served yet, and an upgrade cut short
  // resumes at the next start (docs/operations.md, "Starting before the database").
  const stopStarting = (signal: NodeJS.Signals) => {
    process.stderr.write(`stopped before the service started (${signal})\n`);
    process.exit(0);
  };
  const started = () => process.off('SIGTERM', stopStarting).off('SIGINT', stopStarting);
  process.on('SIGTERM', stopStarting).on('SIGINT', stopStarting);
  if (options.workers <= 1) {
    const banner = await prepareStore(config, options.demoOrders);
    const server = await startServer(config, { migrate: false });
    started();
    if (banner) process.stderr.write(`\nairorder is listening on ${server.address}\n\n${banner}\n`);
    watchParent(startedBy, () => server.shutDown({ cause: 'parent-exited', parentPid: startedBy }));
    return;
  }
  if (cluster.isWorker) {
    const server = await startServer(config, { migrate: false });
    started();
    const worker = cluster.worker!;
    // Node ends a worker at once when its channel to the primary closes (the primary was killed):
    // marked as expected, the worker finishes its in-flight requests first instead, as on SIGTERM.
    worker.on('disconnect', () => {
      worker.exitedAfterDisconnect = true;
      server.shutDown({ cause: 'primary-exited' });
    });
    return;
  }

  const banner = await prepareStore(config, options.demoOrders);
  let stopping = false;
  let exitCode = 0;
  let listening = 0;
  cluster.on('listening', () => {
    listening += 1;
    if (listening === options.workers && banner) {
      process.stderr.write(
        `\nairorder is listening on http://${config.host}:${config.port} with ${options.workers} workers\n\n${banner}\n`,
      );
    }
  });
  const running = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (running().length === 0) process.exit(exitCode);
      return;
    }
    // A log line like the workers' own (JSON on stdout, pino's fields), so one reader sees every process.
    const line = { level: 50, time: Date.now(), pid: process.pid, workerPid: worker.process.pid, code, signal };
    process.stdout.write(`${JSON.stringify({ ...line, msg: 'worker died; starting another' })}\n`);
    cluster.fork();
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = running();
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker.process.kill('SIGTERM');
    // Each worker has SHUTDOWN_GRACE_MS for its requests and half a second for its last log lines;
    // one still there after that is stuck, and is killed so that the service ends all the same.
    const force = setTimeout(() => {
      exitCode = 1;
      for (const worker of running()) worker.process.kill('SIGKILL');
      setTimeout(() => process.exit(1), 500).unref();
    }, config.shutdownGraceMs + 1000);
    force.unref();
  };
  // `on`, not `once`: a second signal while the workers drain changes nothing.
  started();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A scrape of any worker is answered with every worker's figures, added up here.
  aggregateWorkerMetrics();
  for (let index = 0; index < options.workers; index += 1) cluster.fork();
  watchParent(startedBy, stop);
}
