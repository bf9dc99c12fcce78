import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';

/**
 * `serve --workers 2`: a scrape of /metrics, whichever worker answers it, reports the whole
 * service's figures (the workers' added up by the primary), and counters never go down.
 */
const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

const REQUESTS = 100;
const SCRAPES = 8;

interface Scrape {
  text: string;
  value(series: string): number | null;
}

function parse(text: string): Scrape {
  return {
    text,
    value: (series) => {
      const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
      return line === undefined ? null : Number(line.slice(series.length + 1));
    },
  };
}

test('serve --workers 2: every scrape reports all the requests of both workers, and no counter goes down', async () => {
  const server = await sandbox.serve(['--workers', '2']);
  try {
    for (let index = 0; index < REQUESTS; index += 1) {
      // A new connection each time, so that the primary hands them out to both workers.
      const response = await fetch(`${server.baseUrl}/healthz`, { headers: { connection: 'close' } });
      assert.equal(response.status, 200);
      await response.text();
    }
    const scrapes: Scrape[] = [];
    for (let index = 0; index < SCRAPES; index += 1) {
      const response = await fetch(`${server.baseUrl}/metrics`, { headers: { connection: 'close' } });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      scrapes.push(parse(await response.text()));
    }

    // The health checks of `sandbox.serve` waiting for the service count too: at least REQUESTS, the same in every scrape.
    const healthz = scrapes.map((scrape) => scrape.value('airorder_requests_total{operation="/healthz",code="OK"}'));
    assert.ok(
      healthz.every((count) => count !== null && count >= REQUESTS),
      JSON.stringify(healthz),
    );
    assert.ok(
      healthz.every((count) => count === healthz[0]),
      `every scrape reports the same total: ${JSON.stringify(healthz)}`,
    );
    // Each scrape before it is counted by the next one: they go up by one, whichever worker answered.
    const metrics = scrapes.map(
      (scrape) => scrape.value('airorder_requests_total{operation="/metrics",code="OK"}') ?? 0,
    );
    assert.deepEqual(
      metrics.slice(1).map((count, index) => count - metrics[index]!),
      new Array<number>(SCRAPES - 1).fill(1),
      JSON.stringify(metrics),
    );

    // Counters never go down from one scrape to the next, whichever worker answered each.
    for (let index = 1; index < scrapes.length; index += 1) {
      const [earlier, later] = [scrapes[index - 1]!, scrapes[index]!];
      const counters = new Set(
        earlier.text
          .split('\n')
          .filter((line) => line.startsWith('# TYPE ') && line.endsWith(' counter'))
          .map((line) => line.split(' ')[2]!),
      );
      for (const line of earlier.text.split('\n')) {
        const series = line.slice(0, line.lastIndexOf(' '));
        if (!counters.has(series.replace(/\{.*$/, ''))) continue;
        const [before, now] = [earlier.value(series)!, later.value(series)];
        assert.ok(now !== null && now >= before, `${series}: ${before}, then ${now}`);
      }
    }

    const last = scrapes.at(-1)!;
    assert.match(last.text, /^# TYPE process_cpu_seconds_total counter$/m);
    // prom-client's default process metrics, and the service's own names kept.
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_used_bytes',
      'nodejs_eventloop_delay_p99_seconds',
      'airorder_pending_airline_changes',
      'airorder_webhook_oldest_undelivered_seconds',
    ]) {
      assert.match(last.text, new RegExp(`^${name} \\S+$`, 'm'), name);
    }
    // The store-wide gauge is read by each worker and shown once, not added up per worker.
    assert.equal(last.value('airorder_pending_airline_changes'), 0);
    assert.match(last.text, /^# TYPE airorder_request_duration_seconds histogram$/m);
  } finally {
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0);
  }
});
