/**
 * `npm run bench -- --limit [--limit-orders 200000] [--duration 10] [--pairs 3] [--stores sqlite,sqlite-power,postgres]
 *   [--operations cancel,accept,involuntaryCancel] [--connections 50] [--profile] [--pg-detail]`
 *
 * --pg-detail: PostgreSQL's work in every run of either side, apart by process kind, table and
 * statement (postgres-detail.ts; the cluster loads pg_stat_statements for it), printed as the runs
 * end and kept in bench/results/limit.json.
 *
 * --profile: airorder's process runs under `node --cpu-prof`, one per store and operation; each profile
 * is kept in bench/results/profiles/ and summarised (bench/profile-summary.ts) as the runs end.
 *
 * airorder against the reference limit (../shared/bench/limit, see limit-reference.ts): for each
 * store, the reference's AirOrderCancel server in the matching design and airorder's service, on
 * the same orders, alternated run by run (reference, airorder, reference, airorder…) so that every
 * figure is a ratio to the reference measured seconds apart on the same machine. airorder's cancel,
 * accept and involuntary cancel are each set against the reference's cancel (it has no other
 * operation: the heavier ones have more to do). The ratio is the median of the per-pair ratios.
 *
 * One load generator drives both sides: the reference's own driver.mjs, in a process of its own.
 * It sends the reference's load sequence (a booking of its own per request, scattered over the
 * orders) with only the path, the request root and the token changed for airorder, and it reads
 * the CPU per request of the server and of PostgreSQL from /proc the same way for both. Driving
 * airorder with the project's autocannon instead would compare two generators as well as two servers.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/postgres-cluster.js';
import { writeLimitDocuments } from './limit-orders.js';
import { withClient } from './postgres-client.js';
import { formatDetail, measureRun, type RunDetail } from './postgres-detail.js';
import { formatSummary, summariseProfileFile } from './profile-summary.js';
import {
  missingReference,
  Reference,
  REFERENCE_DIR,
  referenceData,
  type DriverRun,
  type ReferenceData,
  type ReferencePostgres,
} from './limit-reference.js';
import { airorder, ROOT, startService, type Service } from './processes.js';

interface LimitOptions {
  orders: number;
  duration: number;
  pairs: number;
  stores: StoreName[];
  operations: Operation[];
  connections: number;
  profile: boolean;
  pgDetail: boolean;
}

type StoreName = 'sqlite' | 'sqlite-power' | 'postgres';
type Operation = 'cancel' | 'accept' | 'involuntaryCancel';

/** airorder's setting and the reference's design it is measured against, per store. */
const STORES: Record<StoreName, { durability: string; script: string; design: Record<string, string>; title: string }> =
  {
    sqlite: {
      durability: 'process',
      script: 'sqlite-server.mjs',
      design: { SYNC: 'NORMAL', GROUP: '1', CKPT: 'thread' },
      title: 'SQLite WAL synchronous=NORMAL, group commit, checkpoint thread',
    },
    'sqlite-power': {
      durability: 'power',
      script: 'sqlite-server.mjs',
      design: { SYNC: 'FULL', GROUP: '1', CKPT: 'thread' },
      title: 'SQLite WAL synchronous=FULL, group commit, checkpoint thread',
    },
    postgres: {
      durability: 'process',
      script: 'pg-server.mjs',
      design: { MODE: '1' },
      title: 'PostgreSQL, one round trip (a PL/pgSQL function)',
    },
  };

/**
 * Each operation of airorder works on its own booking slot of every order: the load sequence's
 * k in [slot × ORDERS, (slot + 1) × ORDERS) names slot `floor(k / ORDERS)` of every order once.
 */
const OPERATIONS: { name: Operation; path: string; root: string; slot: number }[] = [
  { name: 'cancel', path: '/AirOrderCancel', root: 'OrderCancelRQ', slot: 0 },
  { name: 'accept', path: '/AirOrderInvoluntaryAccept', root: 'OrderInvoluntaryAcceptRQ', slot: 1 },
  { name: 'involuntaryCancel', path: '/AirOrderInvoluntaryCancel', root: 'OrderInvoluntaryCancelRQ', slot: 2 },
];

function parseLimitOptions(argv: string[]): LimitOptions {
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const number = (name: string, fallback: number, min: number) => {
    const text = value(name);
    const parsed = Number(text ?? fallback);
    if (!Number.isInteger(parsed) || parsed < min)
      throw new Error(`${name} must be a whole number of at least ${min}, got ${text}`);
    return parsed;
  };
  const stores = (value('--stores') ?? 'sqlite,sqlite-power,postgres').split(',');
  const unknown = stores.filter((store) => !(store in STORES));
  if (unknown.length > 0)
    throw new Error(`--stores: unknown ${unknown.join(', ')}; known: ${Object.keys(STORES).join(', ')}`);
  const operations = (value('--operations') ?? OPERATIONS.map((operation) => operation.name).join(',')).split(',');
  const unknownOperations = operations.filter((name) => !OPERATIONS.some((operation) => operation.name === name));
  if (unknownOperations.length > 0)
    throw new Error(
      `--operations: unknown ${unknownOperations.join(', ')}; known: ${OPERATIONS.map((operation) => operation.name).join(', ')}`,
    );
  // The reference's load sequence walks the orders with a stride of 7919 (its common.mjs), which must not divide their number.
  if (number('--limit-orders', 200_000, 1) % 7919 === 0)
    throw new Error("--limit-orders must not be a multiple of 7919 (the stride of the reference's load sequence)");
  return {
    orders: number('--limit-orders', 200_000, 1),
    duration: number('--duration', 10, 1),
    pairs: number('--pairs', 3, 1),
    stores: stores as StoreName[],
    operations: operations as Operation[],
    connections: number('--connections', 50, 1),
    profile: argv.includes('--profile'),
    pgDetail: argv.includes('--pg-detail'),
  };
}

interface Pair {
  store: StoreName;
  operation: Operation;
  pair: number;
  airorder: DriverRun;
  reference: DriverRun;
}

interface Row {
  store: StoreName;
  operation: Operation;
  referenceDesign: string;
  airorderRps: number;
  referenceRps: number;
  ratio: number;
  p99Ratio: number | null;
  airorderP99: number;
  referenceP99: number;
  airorderCpuUsPerRequest: number | null;
  referenceCpuUsPerRequest: number | null;
  airorderPostgresCpuUsPerRequest: number | null;
  referencePostgresCpuUsPerRequest: number | null;
  /** Requests that failed (non-2xx, socket errors, time-outs) on either side: a figure with any is not a measure of the work. */
  failed: { airorder: number; reference: number };
  /** Requests sent again after a side's bookings ran out: cheaper work, so more orders are needed. */
  reused: { airorder: number; reference: number };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const medianOf = (values: (number | null)[]) => (values.some((v) => v === null) ? null : median(values as number[]));
const round = (value: number | null, places = 2) => (value === null ? null : Number(value.toFixed(places)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failures = (run: DriverRun) => run.non2xx + run.errors + run.timeouts;

function summarise(store: StoreName, operation: Operation, pairs: Pair[]): Row {
  const a = pairs.map((pair) => pair.airorder);
  const r = pairs.map((pair) => pair.reference);
  return {
    store,
    operation,
    referenceDesign: STORES[store].title,
    airorderRps: Math.round(median(a.map((run) => run.rps))),
    referenceRps: Math.round(median(r.map((run) => run.rps))),
    ratio: round(median(pairs.map((pair) => pair.airorder.rps / pair.reference.rps)))!,
    p99Ratio: round(
      medianOf(pairs.map((pair) => (pair.reference.p99 > 0 ? pair.airorder.p99 / pair.reference.p99 : null))),
    ),
    airorderP99: median(a.map((run) => run.p99)),
    referenceP99: median(r.map((run) => run.p99)),
    airorderCpuUsPerRequest: round(medianOf(a.map((run) => run.serverUsPerReq)), 0),
    referenceCpuUsPerRequest: round(medianOf(r.map((run) => run.serverUsPerReq)), 0),
    airorderPostgresCpuUsPerRequest: round(medianOf(a.map((run) => run.pgUsPerReq)), 0),
    referencePostgresCpuUsPerRequest: round(medianOf(r.map((run) => run.pgUsPerReq)), 0),
    failed: {
      airorder: a.reduce((sum, run) => sum + failures(run), 0),
      reference: r.reduce((sum, run) => sum + failures(run), 0),
    },
    reused: {
      airorder: a.reduce((sum, run) => sum + run.reused, 0),
      reference: r.reduce((sum, run) => sum + run.reused, 0),
    },
  };
}

/** Everything one run shares: the reference, its packages and seeds, the PostgreSQL cluster, airorder's documents. */
interface Bench {
  options: LimitOptions;
  workdir: string;
  reference: Reference;
  data: ReferenceData;
  documents: { orders: string; changes: string };
  sqliteTemplate: string | null;
  postgres: ReferencePostgres | null;
  details: { side: string; title: string; detail: RunDetail }[];
}

async function airorderStore(bench: Bench, store: StoreName): Promise<{ env: Record<string, string>; token: string }> {
  const dir = path.join(bench.workdir, `airorder-${store}`);
  fs.mkdirSync(dir, { recursive: true });
  let databaseUrl = `sqlite:${path.join(dir, 'airorder.db')}`;
  if (store === 'postgres') {
    // In the reference's cluster, beside the reference's database: one PostgreSQL with the same settings for both.
    await withClient(bench.postgres!.urlOf('postgres'), (admin) => admin.query('create database airorder_service'));
    databaseUrl = bench.postgres!.urlOf('airorder_service');
  }
  const env = {
    DATABASE_URL: databaseUrl,
    DURABILITY: STORES[store].durability,
    RATE_LIMIT_PER_SECOND: '0',
    LOG_LEVEL: 'info',
  };
  progress(`[${store}] airorder: importing ${bench.options.orders} orders and their changes…`);
  await airorder(['migrate'], env);
  await airorder(['agency', 'add', '--agency-id', bench.data.AGENCY.id, '--name', bench.data.AGENCY.name], env);
  const token = (await airorder(['token', 'issue', '--agency-id', bench.data.AGENCY.id], env)).stdout.trim();
  await airorder(['orders', 'import', bench.documents.orders], env);
  await airorder(['changes', 'import', bench.documents.changes], env);
  if (store === 'postgres') await settlePostgres(env.DATABASE_URL);
  return { env, token };
}

/**
 * airorder's database as the reference's seed leaves its own: vacuumed and analysed, checkpointed and
 * in the buffer cache. Without it, the runs right after the import pay for the import's aftermath
 * (hint bits set on first read, autovacuum and analyse of the new rows), which the reference does not.
 *
 * Only the tables the import filled: autovacuum never analyses an empty table, and a table analysed
 * while empty is planned as empty by every statement prepared before its next analyse, however it
 * grows. Refunds are the case: empty after the import, written by involuntary cancels, read by every
 * change. Analysed empty, the read scanned the whole refunds table for each booking until autovacuum
 * came by (58 pages per request after 10 s at 200,000 orders, its time 103 → 588 µs): the state of a
 * database vacuumed by hand while empty, not the one a service runs on.
 */
async function settlePostgres(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ name: string }>(`select format('%I', c.relname) as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and pg_relation_size(c.oid) > 0`);
    if (rows.length > 0) await client.query(`vacuum analyze ${rows.map((row) => row.name).join(', ')}`);
    await client.query('checkpoint');
    try {
      await client.query('create extension if not exists pg_prewarm');
      await client.query(`select pg_prewarm(c.oid) from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'i')`);
    } catch {
      // As the reference does: the cache stays cold where the extension is not installed.
    }
  });
}

/** The reference's store as its seed leaves it: it changes its data as it runs, so every operation's series starts on a fresh one. */
async function freshReference(
  bench: Bench,
  store: StoreName,
  operation: Operation,
): Promise<{ server: Service; pgPid: number | null }> {
  const design = STORES[store];
  const env: Record<string, string> = { ...design.design };
  if (store === 'postgres') {
    const url = bench.postgres!.urlOf('airorder');
    await bench.reference.seedPostgres(url);
    env.PG_URL = url;
  } else {
    const file = path.join(bench.workdir, 'data', `reference-${store}.db`);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    fs.copyFileSync(bench.sqliteTemplate!, file);
    // The copy's pages reach the disk now rather than during the runs.
    execFileSync('sync');
    env.DB = file;
  }
  const server = await bench.reference.startServer(
    design.script,
    env,
    path.join(bench.workdir, 'logs', `reference-${store}-${operation}.log`),
  );
  return { server, pgPid: store === 'postgres' ? bench.postgres!.postmasterPid : null };
}

/**
 * A check that the runs measured the work and not refusals: the first and the last booking airorder
 * was sent in the series no longer has a pending change (each operation settles it).
 */
async function checkSettled(
  service: Service,
  token: string,
  data: ReferenceData,
  orders: number,
  operation: Operation,
  ks: number[],
): Promise<void> {
  for (const k of ks) {
    const [orderId, reference] = data.bookingOf(k, orders);
    const response = await fetch(`${service.url.replace('/healthz', '')}/AirOrderRetrieve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ OrderRetrieveRQ: { Query: { OrderID: orderId, GdsBookingReference: [reference] } } }),
    });
    const body = (await response.json()) as {
      OrderViewRS?: { Order?: { Bookings?: { AirlineChanges: { Status: string }[] }[] } };
    };
    const changes = body.OrderViewRS?.Order?.Bookings?.[0]?.AirlineChanges;
    if (!changes || changes.length === 0 || changes.some((change) => change.Status === 'PENDING')) {
      throw new Error(
        `${operation}: booking ${orderId}/${reference} was sent but still has a pending change (${response.status} ${JSON.stringify(body).slice(0, 300)}): the runs did not measure the work`,
      );
    }
  }
}

/**
 * Where a side's runs start in its part of the load sequence. A run that reached the end leaves the
 * next one to start over; every request after that is counted as reused, as the driver counts those
 * it sent again itself.
 */
function sequence(first: number, end: number) {
  let next = first;
  let spent = false;
  return {
    get next() {
      return next;
    },
    record(run: DriverRun): DriverRun {
      const counted = spent ? { ...run, reused: run.total } : run;
      spent ||= run.reused > 0 || run.next >= end;
      next = run.next >= end ? first : run.next;
      return counted;
    },
  };
}

async function benchStore(bench: Bench, store: StoreName): Promise<Pair[]> {
  const { options, reference } = bench;
  const { env, token } = await airorderStore(bench, store);
  const warm = Math.min(3, options.duration);
  const pairs: Pair[] = [];
  const conn = ['--conn', options.connections];
  try {
    for (const operation of OPERATIONS.filter(({ name }) => options.operations.includes(name))) {
      progress(
        `[${store}] ${operation.name}: fresh reference, warm-up, ${options.pairs} pair(s) of ${options.duration} s runs…`,
      );
      // A process per operation, so that with --profile each operation has a profile of its own.
      const profileDir = path.join(ROOT, 'bench', 'results', 'profiles', `${store}-${operation.name}`);
      if (options.profile) fs.rmSync(profileDir, { recursive: true, force: true });
      const port = await freePort();
      const service = await startService(
        [
          ...(options.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
          path.join(ROOT, 'bin', 'airorder.js'),
          'serve',
        ],
        { ...env, PORT: String(port), HOST: '127.0.0.1' },
        `http://127.0.0.1:${port}/healthz`,
        path.join(bench.workdir, 'logs', `airorder-${store}.log`),
      );
      const { server, pgPid } = await freshReference(bench, store, operation.name).catch(async (error: unknown) => {
        await service.stop();
        throw error;
      });
      try {
        const firstK = operation.slot * options.orders;
        const lastK = (operation.slot + 1) * options.orders;
        const pgArgs = pgPid ? ['--pg-pid', pgPid] : [];
        const referenceArgs = [
          '--port',
          new URL(server.url).port,
          '--pid',
          server.child.pid!,
          '--end',
          options.orders * 3,
          ...pgArgs,
          ...conn,
        ];
        const airorderArgs = [
          '--port',
          port,
          '--pid',
          service.child.pid!,
          '--path',
          operation.path,
          '--root',
          operation.root,
          '--auth',
          `Bearer ${token}`,
          '--end',
          lastK,
          ...pgArgs,
          ...conn,
        ];
        const referenceSequence = sequence(0, options.orders * 3);
        const airorderSequence = sequence(firstK, lastK);
        referenceSequence.record(
          await reference.drive([...referenceArgs, '--start', referenceSequence.next, '--secs', warm]),
        );
        airorderSequence.record(
          await reference.drive([...airorderArgs, '--start', airorderSequence.next, '--secs', warm]),
        );
        let lastSent = firstK;
        for (let pair = 0; pair < options.pairs; pair += 1) {
          const referenceRun = referenceSequence.record(
            await detailed(bench, store, 'reference', `${operation.name} #${pair}`, () =>
              reference.drive([...referenceArgs, '--start', referenceSequence.next, '--secs', options.duration]),
            ),
          );
          await sleep(500);
          const airorderRun = airorderSequence.record(
            await detailed(bench, store, 'airorder', `${operation.name} #${pair}`, () =>
              reference.drive([...airorderArgs, '--start', airorderSequence.next, '--secs', options.duration]),
            ),
          );
          lastSent = airorderRun.next - 1;
          await sleep(500);
          pairs.push({ store, operation: operation.name, pair, airorder: airorderRun, reference: referenceRun });
          progress(
            `  #${pair}: airorder ${Math.round(airorderRun.rps)} req/s p99 ${airorderRun.p99} ms, reference ${Math.round(referenceRun.rps)} req/s p99 ${referenceRun.p99} ms: ${(airorderRun.rps / referenceRun.rps).toFixed(2)} ×`,
          );
        }
        await checkSettled(service, token, bench.data, options.orders, operation.name, [firstK, lastSent]);
      } finally {
        await server.stop();
        await service.stop();
      }
      if (options.profile) reportProfile(profileDir, `${store} ${operation.name}`);
    }
  } finally {
    fs.rmSync(path.join(bench.workdir, `airorder-${store}`), { recursive: true, force: true });
  }
  return pairs;
}

/** The databases of both sides in the one cluster (the reference's seed makes its own, `airorder`). */
const DATABASES = { reference: 'airorder', airorder: 'airorder_service' };

/** A driver run, with `--pg-detail` measured apart by PostgreSQL process and statement (postgres-detail.ts). */
async function detailed(
  bench: Bench,
  store: StoreName,
  side: 'reference' | 'airorder',
  title: string,
  drive: () => Promise<DriverRun>,
): Promise<DriverRun> {
  if (!bench.options.pgDetail || store !== 'postgres') return drive();
  let result: DriverRun | null = null;
  const detail = await measureRun(
    bench.postgres!.postmasterPid,
    bench.postgres!.urlOf,
    Object.values(DATABASES),
    async () => {
      result = await drive();
      return result.total;
    },
  );
  progress(formatDetail(`${side} ${title}`, detail, DATABASES[side]));
  bench.details.push({ side, title, detail });
  return result!;
}

/** The summary of the profile airorder's process wrote on exit (the runs, the warm-up and the idle time between them). */
function reportProfile(dir: string, title: string): void {
  const file = fs.existsSync(dir) ? fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile')) : undefined;
  if (!file) {
    progress(`${title}: no profile was written in ${dir}`);
    return;
  }
  const summary = formatSummary(summariseProfileFile(path.join(dir, file), 20));
  fs.writeFileSync(path.join(dir, 'summary.txt'), `${summary}\n`);
  progress(`\nprofile of airorder, ${title} (${path.relative(ROOT, path.join(dir, file))}):\n${summary}\n`);
}

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

function cpu(server: number | null, postgres: number | null): string {
  if (server === null) return '';
  return postgres === null ? String(server) : `${server} + ${postgres} pg`;
}

function printTable(rows: Row[]): void {
  const header = [
    'store',
    'operation',
    'airorder req/s',
    'reference req/s',
    '× reference',
    'p99 × reference',
    'airorder CPU µs/req',
    'reference CPU µs/req',
  ];
  const lines = rows.map((row) => [
    row.store,
    row.operation,
    String(row.airorderRps),
    String(row.referenceRps),
    row.ratio.toFixed(2),
    row.p99Ratio?.toFixed(2) ?? '',
    cpu(row.airorderCpuUsPerRequest, row.airorderPostgresCpuUsPerRequest),
    cpu(row.referenceCpuUsPerRequest, row.referencePostgresCpuUsPerRequest),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  process.stdout.write(
    `${format(header)}\n|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|\n${lines.map(format).join('\n')}\n`,
  );
  for (const row of rows) {
    if (row.failed.airorder || row.failed.reference)
      process.stdout.write(
        `warning: ${row.store} ${row.operation}: failed requests (airorder ${row.failed.airorder}, reference ${row.failed.reference}); see the logs\n`,
      );
    if (row.reused.airorder || row.reused.reference)
      process.stdout.write(
        `warning: ${row.store} ${row.operation}: bookings ran out and were sent again (airorder ${row.reused.airorder}, reference ${row.reused.reference}); raise --limit-orders\n`,
      );
  }
}

export async function runLimit(argv: string[]): Promise<void> {
  const missing = missingReference();
  if (missing) {
    process.stderr.write(`${missing}\n`);
    process.exitCode = 2;
    return;
  }
  let options: LimitOptions;
  try {
    options = parseLimitOptions(argv);
  } catch (error) {
    process.stderr.write(`bench --limit: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-limit-'));
  const logs = path.join(workdir, 'logs');
  fs.mkdirSync(logs);
  const reference = new Reference(workdir, options.orders);
  let postgres: ReferencePostgres | null = null;
  const pairs: Pair[] = [];
  const details: Bench['details'] = [];
  const interrupted = () => {
    postgres?.stopNow();
    fs.rmSync(workdir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    progress(`reference limit: ${REFERENCE_DIR}; work folder ${workdir}`);
    progress('reference: installing its packages (once)…');
    await reference.setUp();
    const data = await referenceData();
    let sqliteTemplate: string | null = null;
    if (options.stores.some((store) => store !== 'postgres')) {
      progress(`reference: seeding SQLite with ${options.orders} orders…`);
      sqliteTemplate = path.join(workdir, 'data', 'reference-template.db');
      await reference.seedSqlite(sqliteTemplate);
    }
    if (options.stores.includes('postgres')) {
      progress('reference: starting its PostgreSQL cluster…');
      postgres = await reference.startPostgres({ statements: options.pgDetail });
    }
    const docsDir = path.join(workdir, 'documents');
    fs.mkdirSync(docsDir, { recursive: true });
    const documents = await writeLimitDocuments(data, docsDir, options.orders);
    const bench: Bench = { options, workdir, reference, data, documents, sqliteTemplate, postgres, details };
    for (const store of options.stores) pairs.push(...(await benchStore(bench, store)));
  } catch (error) {
    // The servers' logs outlive a failed run, to see why.
    fs.renameSync(logs, `${workdir}-logs`);
    progress(`the servers' logs are kept in ${workdir}-logs`);
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await postgres?.stop();
    fs.rmSync(workdir, { recursive: true, force: true });
  }

  const rows = options.stores.flatMap((store) =>
    options.operations.map((name) =>
      summarise(
        store,
        name,
        pairs.filter((pair) => pair.store === store && pair.operation === name),
      ),
    ),
  );
  process.stdout.write(
    `\nairorder against the reference limit — ${options.orders} orders, ${options.connections} connections, ${options.pairs} pair(s) of ${options.duration} s runs, ${os.cpus().length} cores, node ${process.version}\n`,
  );
  process.stdout.write(
    "× reference: median of the per-pair ratios of airorder's req/s to the reference's AirOrderCancel on the same store\n\n",
  );
  printTable(rows);
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  const file = path.join(ROOT, 'bench', 'results', 'limit.json');
  fs.writeFileSync(
    file,
    `${JSON.stringify({ options, reference: REFERENCE_DIR, cores: os.cpus().length, node: process.version, at: new Date().toISOString(), rows, pairs, details }, null, 2)}\n`,
  );
  process.stdout.write(`\nwritten to ${path.relative(ROOT, file)}\n`);
}
