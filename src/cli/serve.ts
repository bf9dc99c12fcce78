import cluster from 'node:cluster';
import os from 'node:os';
import type { Config } from '../config.js';
import { setUpDemo } from '../demo/demo-setup.js';
import { aggregateWorkerMetrics } from '../metrics/cluster-metrics.js';
import { startServer } from '../server.js';
import { systemClock } from '../runtime/clock.js';
import { migrateToLatest } from '../store/migrator.js';
import { openStore } from '../store/open-store.js';
import { curlExamples } from './curl-examples.js';

export interface ServeOptions {
  workers: number;
  /** Demo orders to load before serving, or null for none. */
  demoOrders: number | null;
}

/** `--workers auto` is one per core. */
export function parseWorkers(text: string): number | null {
  if (text === 'auto') return os.availableParallelism();
  return /^[1-9][0-9]{0,2}$/.test(text) ? Number(text) : null;
}

/** Migrations and demo data happen once, in the process that the operator started. */
async function prepareStore(config: Config, demoOrders: number | null): Promise<string> {
  const store = openStore(config);
  try {
    await migrateToLatest(store);
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
 * workers (they share the listening socket), replaces a worker that dies, and on SIGTERM passes
 * the signal on and exits once every worker has finished its in-flight requests.
 */
export async function serve(config: Config, options: ServeOptions): Promise<void> {
  if (options.workers <= 1) {
    const banner = await prepareStore(config, options.demoOrders);
    const server = await startServer(config, { migrate: false });
    if (banner) process.stderr.write(`\nairorder is listening on ${server.address}\n\n${banner}\n`);
    return;
  }
  if (cluster.isWorker) {
    await startServer(config, { migrate: false });
    return;
  }

  const banner = await prepareStore(config, options.demoOrders);
  let stopping = false;
  let listening = 0;
  cluster.on('listening', () => {
    listening += 1;
    if (listening === options.workers && banner) {
      process.stderr.write(`\nairorder is listening on http://${config.host}:${config.port} with ${options.workers} workers\n\n${banner}\n`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`${JSON.stringify({ level: 50, msg: 'worker died; starting another', pid: worker.process.pid, code, signal })}\n`);
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // A scrape of any worker is answered with every worker's figures, added up here.
  aggregateWorkerMetrics();
  for (let index = 0; index < options.workers; index += 1) cluster.fork();
}
