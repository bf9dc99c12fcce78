import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * The whole service's figures from whichever process is scraped (docs/decisions.md, "Metrics
 * across workers"). With `serve --workers N` only the workers listen, so a scrape lands on one of
 * them; that worker asks the primary over the cluster's IPC channel, the primary asks every worker
 * for its registry (as JSON), adds them up with prom-client's `AggregatorRegistry.aggregate` (each
 * metric by its `aggregator`) and answers with the text. Every message carries an id; every wait
 * has a time limit.
 *
 * Counters never go down between scrapes: the primary keeps each worker's last report, and when a
 * worker exits (and is replaced) its counters and histograms as last reported stay in the sum. A
 * worker that does not answer in time counts with its last report.
 */
type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** Worker → primary: the service's figures, please. Primary → worker: here they are (`text`), or why not (`error`). */
const SCRAPE = 'airorder:metrics:scrape';
const SCRAPED = 'airorder:metrics:scraped';
/** Primary → worker: your own registry, please. Worker → primary: here it is (`metrics`). */
const COLLECT = 'airorder:metrics:collect';
const COLLECTED = 'airorder:metrics:collected';

/** How long a worker waits for the primary, and the primary for a worker's registry. */
const WORKER_WAIT_MS = 3_000;
const SCRAPE_WAIT_MS = 5_000;

interface Message {
  type?: unknown;
  id?: unknown;
  text?: unknown;
  error?: unknown;
  metrics?: unknown;
}

let lastId = 0;

/** Waits for the one answer of type `type` with `id` that `listen` hears, or fails after `ms`. */
function answer<T>(
  listen: (handler: (message: Message) => void) => () => void,
  type: string,
  id: number,
  ms: number,
  send: () => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no answer to ${type} ${id} within ${ms} ms`));
    }, ms);
    const stop = listen((message) => {
      if (message?.type !== type || message.id !== id) return;
      clearTimeout(timer);
      stop();
      if (typeof message.error === 'string') reject(new Error(message.error));
      else resolve(message as T);
    });
    try {
      send();
    } catch (error) {
      clearTimeout(timer);
      stop();
      reject(error as Error);
    }
  });
}

function fromWorker(worker: Worker): (handler: (message: Message) => void) => () => void {
  return (handler) => {
    worker.on('message', handler);
    return () => worker.off('message', handler);
  };
}

function fromPrimary(handler: (message: Message) => void): () => void {
  process.on('message', handler);
  return () => process.off('message', handler);
}

/** Only counters and histograms outlive their worker: a gone process's memory or pending count means nothing. */
function lasting(metrics: MetricsJson): MetricsJson {
  return metrics.filter(
    (metric) => ['counter', 'histogram'].includes(String(metric.type)) && (metric.aggregator ?? 'sum') === 'sum',
  );
}

/**
 * In the primary of `serve --workers N`, before the workers are forked: answers the workers' scrapes
 * with the figures of them all.
 */
export function aggregateWorkerMetrics(): void {
  // Each report is in exactly one of the two: a worker's last one while it lives, then among the retired.
  const lastReport = new Map<number, MetricsJson>();
  let retired: MetricsJson[] = [];

  const collect = async (worker: Worker): Promise<void> => {
    const id = ++lastId;
    try {
      const reply = await answer<{ metrics: MetricsJson }>(fromWorker(worker), COLLECTED, id, WORKER_WAIT_MS, () =>
        worker.send({ type: COLLECT, id }),
      );
      if (!worker.isDead()) lastReport.set(worker.id, reply.metrics);
    } catch {
      // Not in time (or gone): its last report stands in for it.
    }
  };

  /** The retired reports added up into one, so that a worker dying again and again does not make them pile up. */
  const foldRetired = async (): Promise<void> => {
    const folding = retired.length;
    if (folding < 2) return;
    // Reports retired while this one is read are kept beside it, after the `folding` folded ones.
    const folded = await AggregatorRegistry.aggregate(retired).getMetricsAsJSON();
    retired = [folded, ...retired.slice(folding)];
  };

  const scrape = async (): Promise<string> => {
    const workers = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && worker.isConnected(),
    );
    await Promise.all(workers.map(collect));
    const text = await AggregatorRegistry.aggregate([...lastReport.values(), ...retired]).metrics();
    await foldRetired();
    return text;
  };

  cluster.on('message', (worker: Worker, message: Message) => {
    if (message?.type !== SCRAPE) return;
    const reply = (body: { text: string } | { error: string }) => {
      if (worker.isConnected()) worker.send({ type: SCRAPED, id: message.id, ...body });
    };
    scrape().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: (error as Error).message }),
    );
  });
  cluster.on('exit', (worker) => {
    const last = lastReport.get(worker.id);
    lastReport.delete(worker.id);
    if (last) retired.push(lasting(last));
  });
}

/**
 * The text of a scrape: this process's own registry, or in a worker of `serve --workers N` the whole
 * service's, gathered by the primary (and meanwhile this worker answers the primary with its registry).
 */
export function scrapeFor(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker) return () => registry.metrics();
  process.on('message', (message: Message) => {
    if (message?.type !== COLLECT) return;
    const id = message.id;
    registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: COLLECTED, id, metrics }),
      (error: unknown) => process.send?.({ type: COLLECTED, id, error: (error as Error).message }),
    );
  });
  return async () => {
    const id = ++lastId;
    const reply = await answer<{ text: string }>(fromPrimary, SCRAPED, id, SCRAPE_WAIT_MS, () =>
      process.send!({ type: SCRAPE, id }),
    );
    return reply.text;
  };
}
