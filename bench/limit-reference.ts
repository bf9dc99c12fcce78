/**
 * The reference limit, `../shared/bench/limit` beside the project: minimal AirOrderCancel servers in
 * the store designs airorder can choose from, their seeds and their load driver. It is a measuring
 * stick, so nothing of it is copied here: its own scripts run as separate processes from where they
 * stand, with everything they write in a temporary WORKDIR. Its packages go to a DEPS_DIR in the
 * system's temporary folder that outlives the run, so that a second run does not install them again
 * (its setup.sh does nothing when the same lock file is installed there already).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../scripts/postgres-cluster.js';
import { ROOT, startService, type Service } from './processes.js';

export const REFERENCE_DIR = path.resolve(ROOT, '..', 'shared', 'bench', 'limit');
const DEPS_DIR = path.join(os.tmpdir(), 'airorder-limit-deps');

/** The line to fail with when the reference is not there, or null when it is. */
export function missingReference(): string | null {
  const needed = [
    'README.md',
    'setup.sh',
    'driver.mjs',
    'common.mjs',
    'seed-sqlite.mjs',
    'seed-pg.mjs',
    'start-pg.sh',
    'sqlite-server.mjs',
    'pg-server.mjs',
  ];
  const missing = needed.filter((file) => !fs.existsSync(path.join(REFERENCE_DIR, file)));
  if (missing.length === needed.length)
    return `bench --limit needs the reference limit at ${REFERENCE_DIR} (../shared/bench/limit from the project root); it is not there`;
  if (missing.length > 0) return `bench --limit: the reference limit at ${REFERENCE_DIR} lacks ${missing.join(', ')}`;
  return null;
}

/** The part of the reference's common.mjs (its data model) that airorder's store is built from. */
export interface ReferenceData {
  PER_ORDER: number;
  AGENCY: { id: string; name: string };
  orderId(n: number): string;
  ref(n: number, slot: number): string;
  bookingOf(k: number, orders: number): [string, string];
  segmentsJson(n: number): string;
  passengersJson(n: number): string;
}

/** Its data model is imported rather than restated, so that both stores hold the same orders by construction. */
export async function referenceData(): Promise<ReferenceData> {
  return (await import(pathToFileURL(path.join(REFERENCE_DIR, 'common.mjs')).href)) as ReferenceData;
}

/** One load run of driver.mjs, as it prints it (latency in ms, CPU in µs per request). */
export interface DriverRun {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  next: number;
  reused: number;
  serverUsPerReq: number | null;
  pgUsPerReq: number | null;
  loadgenUsPerReq: number;
  machineBusy: number;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(
            `${path.basename(args[0] ?? file)} failed: ${stderr.trim().split('\n').slice(-5).join(' | ') || error.message}`,
          ),
        );
      else resolve(stdout);
    });
  });
}

export class Reference {
  readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly workdir: string,
    readonly orders: number,
  ) {
    // One cluster holds both databases: the reference's 2 GB of shared buffers would hold its own
    // and leave airorder's (events, audit trail and refunds make it larger) to the OS cache.
    this.env = {
      ...process.env,
      WORKDIR: workdir,
      DEPS_DIR,
      ORDERS: String(orders),
      NODE_NO_WARNINGS: '1',
      PG_SHARED_BUFFERS: process.env.PG_SHARED_BUFFERS ?? '6GB',
    };
  }

  private script(name: string): string {
    return path.join(REFERENCE_DIR, name);
  }

  private node(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<string> {
    return run(process.execPath, [this.script(script), ...args], { ...this.env, ...env });
  }

  /** Its packages, with its own lock file (npm ci; about a minute the first time). */
  async setUp(): Promise<void> {
    await run(this.script('setup.sh'), [], this.env);
  }

  async seedSqlite(file: string): Promise<void> {
    await this.node('seed-sqlite.mjs', [file]);
  }

  /** Its throwaway PostgreSQL 15 cluster (start-pg.sh), in WORKDIR/pg. */
  async startPostgres(options: { statements?: boolean } = {}): Promise<ReferencePostgres> {
    await run(this.script('start-pg.sh'), ['start'], this.env);
    const dir = path.join(this.workdir, 'pg');
    if (options.statements) restartWithStatements(path.join(dir, 'data'), path.join(dir, 'log'));
    const port = Number(fs.readFileSync(path.join(dir, 'port'), 'utf8').trim());
    const postmasterPid = Number(fs.readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    // Both sides connect over the cluster's Unix socket: the way airorder's own benchmark connects
    // (README), and one transport for both, so that the ratio compares the designs.
    const urlOf = (database: string) => `postgres://postgres@/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
    return {
      urlOf,
      postmasterPid,
      stop: async () => {
        await run(this.script('start-pg.sh'), ['stop'], this.env);
      },
      stopNow: () => {
        execFileSync(this.script('start-pg.sh'), ['stop'], { env: this.env, stdio: 'ignore' });
      },
    };
  }

  /** Replaces the reference's schema and data in that database (seed-pg.mjs: COPY, VACUUM ANALYZE, CHECKPOINT, prewarm). */
  async seedPostgres(url: string): Promise<void> {
    await this.node('seed-pg.mjs', [url]);
  }

  /** One of its servers, until stopped; `env` chooses the design (SYNC, GROUP, CKPT, MODE, DB, PG_URL). */
  async startServer(script: string, env: Record<string, string>, logFile: string): Promise<Service> {
    const port = await freePort();
    const all = { ...this.env, ...env, PORT: String(port), LOG: `${logFile}.pino` } as Record<string, string>;
    return startService([this.script(script)], all, `http://127.0.0.1:${port}/`, logFile);
  }

  /** One load run of its driver, against either side. */
  async drive(args: (string | number)[]): Promise<DriverRun> {
    const out = await this.node('driver.mjs', ['--orders', String(this.orders), ...args.map(String)]);
    return JSON.parse(out.trim().split('\n').pop()!) as DriverRun;
  }
}

/**
 * For `--pg-detail`: the cluster again with pg_stat_statements loaded, its other settings as
 * start-pg.sh gave them (pg_ctl restart starts it with the same options). As start-pg.sh does, the
 * server runs as the user postgres when this runs as root.
 */
function restartWithStatements(data: string, log: string): void {
  const bin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  fs.appendFileSync(
    path.join(data, 'postgresql.auto.conf'),
    "shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track_planning = on\n",
  );
  const command = [path.join(bin, 'pg_ctl'), '-D', data, '-l', log, '-m', 'fast', '-w', 'restart'];
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? 'runuser' : command[0]!, asRoot ? ['-u', 'postgres', '--', ...command] : command.slice(1), {
    cwd: '/',
    stdio: 'ignore',
  });
}

export interface ReferencePostgres {
  urlOf(database: string): string;
  postmasterPid: number;
  stop(): Promise<void>;
  /** For an interrupted run: the cluster runs detached from this process and would outlive it. */
  stopNow(): void;
}
