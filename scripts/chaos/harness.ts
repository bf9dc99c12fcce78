/**
 * One chaos run: the service (three `serve` processes on one PostgreSQL, or one on SQLite), two
 * agencies acting on their orders and reading their feeds, webhook receivers that fail some
 * attempts, deadlines falling due, and faults at random from a seed. Then everything up, the work
 * drained, and the checks of checks.ts. `npm run chaos` (run.ts) and the short form in `npm test`
 * (test/integration/chaos.test.ts) both run this.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { asNdjson, CliSandbox } from '../../test/helpers/cli.js';
import { runSql } from '../../src/store/raw-sql.js';
import { openStoreAt } from '../../test/helpers/cancel-race.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';
import { startPostgresCluster, type PostgresCluster } from '../postgres-cluster.js';
import { checkRun, type Figures } from './checks.js';
import { Faults, type FaultCounts, type FaultKind } from './faults.js';
import { Fleet } from './fleet.js';
import { FeedReader, fullFeed, JobQueue, runClient, Traffic, type Acknowledged } from './integrator.js';
import { AgencyEndpoint } from './receivers.js';
import { planWorkload } from './workload.js';
import { scaled } from '../../test/helpers/time-scale.js';

export type ChaosStore = 'postgres' | 'sqlite';

export interface ChaosOptions {
  seed: number;
  durationS: number;
  store: ChaosStore;
  log: (line: string) => void;
}

export interface ChaosReport {
  options: Omit<ChaosOptions, 'log'>;
  startedAt: string;
  elapsedS: number;
  faults: FaultCounts;
  requests: { attempts: number; feedRequests: number; connectionErrors: number; statuses: Record<string, number> };
  figures: Figures | null;
  /** Lines the service logged at error level or worse: not a failed check by themselves, but worth reading. */
  errorLines: string[];
  failures: string[];
}

/** A webhook attempt fails after this; the delivery's lease is this and 5 s. */
const WEBHOOK_TIMEOUT_MS = 1_500;
const DELIVERY_LEASE_MS = WEBHOOK_TIMEOUT_MS + 5_000;
const SHUTDOWN_GRACE_MS = 3_000;
/** Clients per agency: enough that jobs keep being taken while others wait on a stopped process or a 503. */
const CLIENTS_PER_AGENCY = 12;
/** How long the run may take, past its duration, to bring every deadline, delivery and reader to its end. */
const DRAIN_LIMIT_MS = scaled(180_000);

function serviceEnv(durationS: number): Record<string, string> {
  return {
    RATE_LIMIT_PER_SECOND: '0',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    // The most retries allowed, quick ones: a delivery fails for good only if 31 attempts in a row fail.
    WEBHOOK_RETRY_SCHEDULE: [...Array.from({ length: 20 }, () => '1s'), ...Array.from({ length: 10 }, () => '2s')].join(
      ',',
    ),
    // Warnings of approaching deadlines come during the run too.
    DEADLINE_WARNING: `${Math.max(5, Math.round(durationS / 4))}s`,
    REQUEST_TIMEOUT_MS: '5000',
  };
}

async function createDatabase(cluster: PostgresCluster): Promise<string> {
  const admin = new pg.Client(cluster.url);
  await admin.connect();
  try {
    await admin.query('create database chaos');
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = '/chaos';
  return url.toString();
}

async function until(what: string, limitAt: number, done: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await done())) {
    if (Date.now() > limitAt) throw new Error(`the run did not drain: ${what}`);
    await sleep(250);
  }
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const { seed, durationS, store } = options;
  const stream = (n: number) => seededRandom(seed * 101 + n);
  const report: ChaosReport = {
    options: { seed, durationS, store },
    startedAt: new Date().toISOString(),
    elapsedS: 0,
    faults: { kill: 0, stop: 0, 'postgres-fast': 0, 'postgres-immediate': 0 },
    requests: { attempts: 0, feedRequests: 0, connectionErrors: 0, statuses: {} },
    figures: null,
    errorLines: [],
    failures: [],
  };
  const sandbox = new CliSandbox();
  let cluster: PostgresCluster | null = null;
  const endpoints: AgencyEndpoint[] = [];
  let fleet: Fleet | null = null;
  const began = Date.now();
  try {
    if (store === 'postgres') {
      cluster = await startPostgresCluster({ commitsSurviveCrash: true });
      sandbox.useDatabase(await createDatabase(cluster));
    }
    const env = serviceEnv(durationS);
    const tokens = new Map<string, string>();
    // The plan's deadlines fall between a sixth and three quarters of the run, counted from after the set-up.
    const setUpMs = 8_000;
    const workload = planWorkload(
      stream(1),
      Math.ceil(durationS * 4),
      Date.now() + setUpMs + durationS * 150,
      Date.now() + setUpMs + durationS * 750,
    );
    // The first command migrates the new database; the agencies are then set up side by side.
    await sandbox.ok([
      'agency',
      'add',
      '--agency-id',
      workload.agencies[0]!,
      '--name',
      `Agency ${workload.agencies[0]}`,
    ]);
    await Promise.all(
      workload.agencies.map(async (agencyId, a) => {
        if (a > 0) await sandbox.ok(['agency', 'add', '--agency-id', agencyId, '--name', `Agency ${agencyId}`]);
        tokens.set(agencyId, (await sandbox.ok(['token', 'issue', '--agency-id', agencyId])).stdout.trim());
        endpoints[a] = await AgencyEndpoint.open(sandbox, agencyId, env, stream(2 + a));
      }),
    );
    await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson(workload.orders))]);
    await sandbox.ok(['changes', 'import', sandbox.write('changes.ndjson', asNdjson(workload.changes))]);

    fleet = new Fleet(sandbox, store === 'postgres' ? 3 : 1, { env, shutdownGraceMs: SHUTDOWN_GRACE_MS });
    await Promise.all(fleet.slots.map((slot) => fleet!.start(slot)));
    const runStart = Date.now();
    const runEnd = runStart + durationS * 1000;
    options.log(
      `seed ${seed}, ${store}, ${durationS} s: ${workload.bookings.length} bookings, ${[...workload.jobs.values()].reduce((n, jobs) => n + jobs.length, 0)} jobs, ${fleet.slots.length} serve processes`,
    );

    const traffic = new Traffic();
    const readers = workload.agencies.map(
      (agencyId, a) => new FeedReader(fleet!, traffic, stream(10 + a), tokens.get(agencyId)!, agencyId),
    );
    for (const reader of readers) reader.start();
    const acknowledged: Acknowledged[] = [];
    const clients = workload.agencies.flatMap((agencyId, a) => {
      const jobs = new JobQueue(workload.jobs.get(agencyId)!, runStart, runEnd);
      return Array.from({ length: CLIENTS_PER_AGENCY }, (_, c) =>
        runClient({
          fleet: fleet!,
          traffic,
          random: stream(20 + a * CLIENTS_PER_AGENCY + c),
          token: tokens.get(agencyId)!,
          jobs,
          keyPrefix: `s${seed}`,
          acknowledged,
        }),
      );
    });
    const kinds: FaultKind[] = store === 'postgres' ? ['kill', 'stop', 'postgres'] : ['kill'];
    const faults = new Faults(
      fleet,
      cluster,
      { kill: stream(3), stop: stream(4), postgres: stream(5) },
      {
        kinds,
        // About 45 kills and stops in five minutes, and as many PostgreSQL restarts of each mode
        // (a restart is over in a second or two, and waits for the one before); a short run gets a few.
        meanIntervalMs: {
          kill: Math.max(3_000, (durationS * 1000) / 45),
          stop: Math.max(3_000, (durationS * 1000) / 45),
          postgres: Math.max(2_000, (durationS * 1000) / 90),
        },
        stopMs: [DELIVERY_LEASE_MS + 1_000, DELIVERY_LEASE_MS + 3_000],
      },
      options.log,
      () => traffic.inFlight > 0,
    );
    await faults.run(runEnd);
    report.faults = faults.counts;
    options.log(
      `faults over after ${((Date.now() - runStart) / 1000).toFixed(1)} s: ${JSON.stringify(faults.counts)}; finishing the requests under way`,
    );

    // Everything up: the clients' last requests answered, every deadline passed and applied, the outbox empty, the readers at the end.
    await Promise.all(clients);
    options.log(`requests answered after ${((Date.now() - runStart) / 1000).toFixed(1)} s`);
    const sql = openStoreAt(sandbox.databaseUrl);
    try {
      const drainLimit = Date.now() + DRAIN_LIMIT_MS;
      const lastDeadline = Math.max(
        ...workload.bookings.flatMap((target) => (target.deadline ? [Date.parse(target.deadline.at)] : [0])),
      );
      const counted = async (text: string, parameters: unknown[]) =>
        Number((await runSql<{ n: number | string }>(sql.db, text, parameters))[0]!.n);
      const drainStart = Date.now();
      const since = () => `${((Date.now() - drainStart) / 1000).toFixed(1)} s`;
      await until(
        'deadlines',
        drainLimit,
        async () =>
          Date.now() > lastDeadline &&
          (await counted('select count(*) as n from airline_change_timers where due_at <= ?', [
            new Date().toISOString(),
          ])) === 0,
      );
      options.log(`deadlines applied after ${since()}`);
      await until(
        'webhook deliveries',
        drainLimit,
        async () => (await counted("select count(*) as n from webhook_deliveries where status = 'PENDING'", [])) === 0,
      );
      const stored = (agencyId: string) => counted('select count(*) as n from events where agency_id = ?', [agencyId]);
      options.log(`webhook deliveries drained after ${since()}`);
      for (const reader of readers)
        await until(
          `the feed reader of ${reader.agencyId}`,
          drainLimit,
          async () => reader.caughtUp && reader.seen.length >= (await stored(reader.agencyId)),
        );
      options.log(`feed readers at the end after ${since()}`);
    } finally {
      await sql.close();
    }
    for (const reader of readers) await reader.stop();
    const feeds = new Map<string, { reader: string[]; full: string[] }>();
    for (const reader of readers) {
      const full = await fullFeed(fleet, traffic, tokens.get(reader.agencyId)!, reader.agencyId);
      feeds.set(reader.agencyId, { reader: reader.seen, full: full.seen });
      report.failures.push(...reader.violations, ...full.violations);
    }

    // The final SIGTERM: every process gone within its grace and 2 s, having exited 0.
    report.failures.push(...(await fleet.terminate()));
    report.failures.push(...traffic.violations);
    report.requests = {
      attempts: traffic.attempts,
      feedRequests: traffic.feedRequests,
      connectionErrors: traffic.connectionErrors,
      statuses: Object.fromEntries(traffic.statuses),
    };
    const checked = openStoreAt(sandbox.databaseUrl);
    try {
      report.figures = await checkRun(checked, workload, acknowledged, feeds, endpoints, report.failures);
    } finally {
      await checked.close();
    }
  } catch (error) {
    report.failures.push(`the run stopped: ${(error as Error).stack ?? String(error)}`);
  } finally {
    if (fleet) {
      await fleet.terminate().catch(() => []);
      report.errorLines = fleet.errorLines();
    }
    await Promise.all(endpoints.filter(Boolean).map((endpoint) => endpoint.close()));
    await sandbox.cleanup();
    await cluster?.stop();
    report.elapsedS = Math.round((Date.now() - began) / 1000);
  }
  return report;
}

/** The summary printed at the end of a run. */
export function summary(report: ChaosReport): string {
  const f = report.figures;
  const lines = [
    `chaos run: seed ${report.options.seed}, ${report.options.store}, ${report.options.durationS} s of faults, ${report.elapsedS} s in all (started ${report.startedAt})`,
    `replay: npm run chaos -- --seed ${report.options.seed} --duration ${report.options.durationS} --store ${report.options.store}`,
    `faults: kill -9 ${report.faults.kill}, SIGSTOP ${report.faults.stop}, PostgreSQL fast shutdown ${report.faults['postgres-fast']}, immediate shutdown ${report.faults['postgres-immediate']}`,
    `requests: ${report.requests.attempts} change requests and ${report.requests.feedRequests} feed pages sent, ${report.requests.connectionErrors} of them refused, reset or not answered in time; answers by status ${JSON.stringify(report.requests.statuses)}`,
  ];
  if (f) {
    lines.push(
      `change requests acknowledged: ${f.acknowledged} (${f.retriedKeys} of them retried under their key); outcomes checked against the store: ${f.outcomesChecked}, bookings ${f.bookingsChecked}, deadlines applied ${f.deadlinesApplied}`,
      `events: ${f.events}; deliveries answered 2xx: ${f.deliveries}, duplicates ${f.duplicateDeliveries} (allowed), lost ${f.lost}`,
    );
  }
  lines.push(
    `lines the service logged at error level: ${report.errorLines.length}${report.errorLines.length > 0 ? `, e.g.\n  ${report.errorLines.slice(0, 3).join('\n  ')}` : ''}`,
  );
  lines.push(
    report.failures.length === 0
      ? 'every check passed'
      : `${report.failures.length} checks failed:\n${report.failures.map((line) => `  - ${line}`).join('\n')}`,
  );
  return lines.join('\n');
}
