/**
 * `npm run bench -- --limit …`: airorder against the reference limit instead (limit-run.ts).
 * `npm run bench -- --order-record …` (or `npm run bench:record`): the order as one stored record, its encodings measured (order-record.ts).
 *
 * `npm run bench [-- --quick] [--orders 10000,1000000] [--stores sqlite,postgres] [--connections 50] [--duration 10] [--idempotency-keys]`
 *
 * For each store (and both SQLite durability settings) and each store size: builds a fresh store of
 * N generated orders through the CLI's import (timing it and its peak memory), starts the service,
 * and drives each operation with autocannon on loopback, every request on a booking of its own;
 * in the same run it drives a bare Fastify route, the ceiling of the HTTP stack, and reports each
 * operation as a ratio to it. Prints a table and writes bench/results/latest.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, startPostgresCluster, type PostgresCluster } from '../scripts/postgres-cluster.js';
import { BENCH_AGENCY, orderId, POOLS, reference, writeBenchDocuments, type Pool } from './bench-orders.js';
import { runLimit } from './limit-run.js';
import { runOrderRecord } from './order-record.js';
import { withClient } from './postgres-client.js';
import { airorder, ROOT, RssSampler, startService } from './processes.js';

interface Options {
  quick: boolean;
  orders: number[];
  stores: string[];
  connections: number;
  duration: number;
  /** Every request under an Idempotency-Key of its own, as the client package sends them. */
  idempotencyKeys: boolean;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  return {
    quick,
    orders: (value('--orders') ?? (quick ? '2000' : '10000,1000000')).split(',').map(Number),
    stores: (value('--stores') ?? (quick ? 'sqlite' : 'sqlite,sqlite-power,postgres')).split(','),
    connections: Number(value('--connections') ?? 50),
    duration: Number(value('--duration') ?? (quick ? 2 : 10)),
    idempotencyKeys: argv.includes('--idempotency-keys'),
  };
}

const OPERATIONS: Record<Pool, { path: string; root: string }> = {
  cancel: { path: '/AirOrderCancel', root: 'OrderCancelRQ' },
  accept: { path: '/AirOrderInvoluntaryAccept', root: 'OrderInvoluntaryAcceptRQ' },
  involuntaryCancel: { path: '/AirOrderInvoluntaryCancel', root: 'OrderInvoluntaryCancelRQ' },
};

interface Row {
  store: string;
  orders: number;
  target: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  ratio?: number;
  p99Ratio?: number;
  serviceRssMb?: number;
}

interface Measured {
  result: autocannon.Result;
  requestsPerSecond: number;
}

async function cannon(
  url: string,
  connections: number,
  duration: number,
  amount: number | undefined,
  requestFor: (index: number) => { path: string; body: string; headers?: Record<string, string> },
  headers: Record<string, string>,
): Promise<Measured> {
  let next = 0;
  const options: autocannon.Options = {
    url,
    connections,
    duration,
    ...(amount !== undefined ? { amount } : {}),
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request: autocannon.Request) => {
          const { path: pathName, body, headers: own } = requestFor(next);
          next += 1;
          return { ...request, path: pathName, body, ...(own ? { headers: { ...request.headers, ...own } } : {}) };
        },
      },
    ],
  };
  // autocannon averages whole-second samples, and a run that uses up its pool ends on the next
  // second's tick: the rate is taken from the responses themselves, first to last.
  let first = 0;
  let last = 0;
  let responses = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', () => {
      last = performance.now();
      if (responses === 0) first = last;
      responses += 1;
    });
  });
  const seconds = (last - first) / 1000;
  return { result, requestsPerSecond: seconds > 0 ? Math.round((responses - 1) / seconds) : 0 };
}

function summarise({ result, requestsPerSecond }: Measured): Omit<Row, 'store' | 'orders' | 'target'> {
  return {
    requestsPerSecond,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

async function databaseFor(store: string, dir: string, cluster: PostgresCluster | null): Promise<string> {
  if (store !== 'postgres') return `sqlite:${path.join(dir, 'bench.db')}`;
  const name = `bench_${Date.now()}`;
  await withClient(cluster!.url, (admin) => admin.query(`create database ${name}`));
  // Over the Unix socket, as a service on the same machine as its database connects.
  return cluster!.socketUrl.replace('/postgres?', `/${name}?`);
}

async function benchOne(
  store: string,
  count: number,
  options: Options,
  cluster: PostgresCluster | null,
): Promise<{ rows: Row[]; import: Record<string, number> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-bench-'));
  try {
    const env: Record<string, string> = {
      DATABASE_URL: await databaseFor(store, dir, cluster),
      DURABILITY: store === 'sqlite-power' ? 'power' : 'process',
      RATE_LIMIT_PER_SECOND: '0',
      LOG_LEVEL: 'info',
    };
    process.stderr.write(`\n[${store}, ${count} orders] generating documents…\n`);
    const files = await writeBenchDocuments(dir, count);
    await airorder(['migrate'], env);
    await airorder(['agency', 'add', '--agency-id', BENCH_AGENCY, '--name', 'Bench Travel'], env);
    const token = (await airorder(['token', 'issue', '--agency-id', BENCH_AGENCY], env)).stdout.trim();
    process.stderr.write(`[${store}, ${count} orders] importing…\n`);
    const imported = await airorder(['orders', 'import', files.orders], env);
    const changes = await airorder(['changes', 'import', files.changes], env);
    const importFigures = {
      ordersPerSecond: Math.round(count / imported.seconds),
      importSeconds: Number(imported.seconds.toFixed(1)),
      importPeakRssMb: Math.round(imported.peakRssMb),
      changesPerSecond: Math.round((count * 2) / changes.seconds),
      changesPeakRssMb: Math.round(changes.peakRssMb),
    };

    const port = await freePort();
    const service = await startService(
      [path.join(ROOT, 'bin', 'airorder.js'), 'serve'],
      { ...env, PORT: String(port), HOST: '127.0.0.1' },
      `http://127.0.0.1:${port}/healthz`,
      path.join(dir, 'service.log'),
    );
    const barePort = await freePort();
    const bare = await startService(
      [path.join(ROOT, 'bench', 'bare-server.mjs'), String(barePort)],
      {},
      `http://127.0.0.1:${barePort}/`,
      path.join(dir, 'bare.log'),
    );
    const rows: Row[] = [];
    try {
      const sampleBody = JSON.stringify({
        OrderCancelRQ: { Query: { OrderID: orderId(0), GdsBookingReference: [reference('cancel', 0)] } },
      });
      const bareResult = summarise(
        await cannon(
          `http://127.0.0.1:${barePort}`,
          options.connections,
          options.duration,
          undefined,
          () => ({ path: '/bare', body: sampleBody }),
          {},
        ),
      );
      rows.push({ store, orders: count, target: 'bare route', ...bareResult });
      const sampler = new RssSampler(service.child.pid!);
      for (const pool of POOLS) {
        const operation = OPERATIONS[pool];
        // Warm-up on the pool's last bookings, then the measured run from the first.
        await cannon(
          service.url.replace('/healthz', ''),
          options.connections,
          1,
          Math.min(500, Math.floor(count / 10)),
          (index) => ({
            path: operation.path,
            body: JSON.stringify({
              [operation.root]: {
                Query: {
                  OrderID: orderId(count - 1 - index),
                  GdsBookingReference: [reference(pool, count - 1 - index)],
                },
              },
            }),
          }),
          { authorization: `Bearer ${token}` },
        );
        // Each request needs a booking of its own: the run ends when the pool (or 30,000) is used up.
        const result = summarise(
          await cannon(
            service.url.replace('/healthz', ''),
            options.connections,
            options.duration,
            Math.min(30_000, count - Math.min(500, Math.floor(count / 10))),
            (index) => ({
              path: operation.path,
              body: JSON.stringify({
                [operation.root]: { Query: { OrderID: orderId(index), GdsBookingReference: [reference(pool, index)] } },
              }),
              ...(options.idempotencyKeys ? { headers: { 'idempotency-key': `bench-${pool}-${index}` } } : {}),
            }),
            { authorization: `Bearer ${token}` },
          ),
        );
        rows.push({
          store,
          orders: count,
          target: pool,
          ...result,
          ratio: Number((result.requestsPerSecond / bareResult.requestsPerSecond).toFixed(2)),
          p99Ratio: Number((result.p99 / Math.max(1, bareResult.p99)).toFixed(2)),
        });
      }
      const peak = sampler.stop();
      for (const row of rows) if (row.target !== 'bare route') row.serviceRssMb = Math.round(peak);
    } finally {
      await service.stop();
      await bare.stop();
    }
    return { rows, import: importFigures };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(rows: Row[]): void {
  const header = [
    'store',
    'orders',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'non-2xx',
    '× bare',
    'p99 × bare',
    'RSS MB',
  ];
  const lines = rows.map((row) => [
    row.store,
    String(row.orders),
    row.target,
    String(row.requestsPerSecond),
    String(row.p50),
    String(row.p99),
    String(row.errors),
    String(row.non2xx),
    row.ratio?.toFixed(2) ?? '1.00',
    row.p99Ratio?.toFixed(2) ?? '1.00',
    row.serviceRssMb ? String(row.serviceRssMb) : '',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  process.stdout.write(
    `${format(header)}\n|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|\n${lines.map(format).join('\n')}\n`,
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const cluster = options.stores.includes('postgres') ? await startPostgresCluster() : null;
  const results: { rows: Row[]; imports: Record<string, unknown>[] } = { rows: [], imports: [] };
  try {
    for (const store of options.stores) {
      for (const count of options.orders) {
        const { rows, import: figures } = await benchOne(store, count, options, cluster);
        results.rows.push(...rows);
        results.imports.push({ store, orders: count, ...figures });
      }
    }
  } finally {
    await cluster?.stop();
  }
  process.stdout.write(
    `\nairorder benchmark — ${options.connections} connections, ${options.duration} s per run, ${os.cpus().length} cores, node ${process.version}\n\n`,
  );
  printTable(results.rows);
  process.stdout.write('\nimport\n');
  for (const figures of results.imports) process.stdout.write(`${JSON.stringify(figures)}\n`);
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench', 'results', 'latest.json'),
    `${JSON.stringify({ options, ...results }, null, 2)}\n`,
  );
}

const argv = process.argv.slice(2);
if (argv.includes('--limit')) await runLimit(argv);
else if (argv.includes('--order-record')) await runOrderRecord(argv);
else await main();
