/**
 * `--pg-detail` of `npm run bench -- --limit`: where PostgreSQL's CPU goes during one driver run.
 *
 * - CPU and page faults of every process of the cluster by kind (backends per database, autovacuum
 *   workers per database, checkpointer, walwriter…), read from /proc while the run lasts, so that a
 *   process that starts or ends during the run is counted for its part in it. (The driver counts the
 *   processes alive when the run starts, and a process that ends during it takes its whole CPU off.)
 * - The cluster's statistics before and after: WAL records, full-page images and bytes
 *   (pg_stat_wal), checkpoints and buffers written (pg_stat_bgwriter), per database its buffers and
 *   per table its inserts, updates, heap-only updates, dead rows, vacuums and analyses.
 * - Per statement (pg_stat_statements, reset before the run): calls, time, buffers hit, read,
 *   dirtied and written, WAL records, full-page images and bytes.
 * Everything is divided by the run's requests.
 */
import fs from 'node:fs';
import { withClient } from './postgres-client.js';

const TICK_US = 1e6 / 100;

interface ProcessSample {
  kind: string;
  utime: number;
  stime: number;
  minflt: number;
  majflt: number;
}

/** The fields of /proc/PID/stat after the process's name (which may hold spaces): [0] is its state, [1] its parent. */
function statFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function readProcess(pid: number): ProcessSample | null {
  try {
    const fields = statFields(pid);
    const title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return {
      kind: kindOf(title),
      minflt: Number(fields[7]),
      majflt: Number(fields[9]),
      utime: Number(fields[11]),
      stime: Number(fields[12]),
    };
  } catch {
    return null;
  }
}

/** "postgres: postgres airorder_service [local] idle" → "backend airorder_service"; "postgres: autovacuum worker x" → "autovacuum worker x". */
function kindOf(title: string): string {
  const rest = title.replace(/^postgres:\s*/, '');
  if (rest.startsWith('autovacuum worker')) return rest.split(/\s+/).slice(0, 3).join(' ');
  const backend = /^\S+ (\S+) (\[local\]|\d+\.\d+\.\d+\.\d+)/.exec(rest);
  if (backend) return `backend ${backend[1]}`;
  return rest.replace(/\s+/g, ' ');
}

function childrenOf(root: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(entry)[1]) === root) out.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return out;
}

export interface KindCpu {
  userUs: number;
  systemUs: number;
  minorFaults: number;
  majorFaults: number;
  processes: number;
}

/** Samples the cluster's processes every 100 ms from start() to stop(). */
export class ClusterSampler {
  private readonly first = new Map<number, ProcessSample>();
  private readonly last = new Map<number, ProcessSample>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly postmasterPid: number) {}

  private sample(baseline: boolean): void {
    for (const pid of [this.postmasterPid, ...childrenOf(this.postmasterPid)]) {
      const now = readProcess(pid);
      if (!now) continue;
      // A process first seen after the start was born during the run: all of its CPU is the run's.
      if (!this.first.has(pid))
        this.first.set(pid, baseline ? now : { ...now, utime: 0, stime: 0, minflt: 0, majflt: 0 });
      this.last.set(pid, now);
    }
  }

  start(): void {
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), 100);
  }

  stop(): Record<string, KindCpu> {
    if (this.timer) clearInterval(this.timer);
    this.sample(false);
    const kinds: Record<string, KindCpu> = {};
    for (const [pid, last] of this.last) {
      const first = this.first.get(pid)!;
      const kind = (kinds[last.kind] ??= { userUs: 0, systemUs: 0, minorFaults: 0, majorFaults: 0, processes: 0 });
      kind.userUs += (last.utime - first.utime) * TICK_US;
      kind.systemUs += (last.stime - first.stime) * TICK_US;
      kind.minorFaults += last.minflt - first.minflt;
      kind.majorFaults += last.majflt - first.majflt;
      kind.processes += 1;
    }
    return kinds;
  }
}

type Numbers = Record<string, number>;

export interface StatsSnapshot {
  wal: Numbers;
  bgwriter: Numbers;
  databases: Record<string, Numbers>;
  tables: Record<string, Record<string, Numbers>>;
}

const numbers = (row: Record<string, unknown>): Numbers =>
  Object.fromEntries(
    Object.entries(row)
      .filter(([, value]) => value !== null && !Number.isNaN(Number(value)))
      .map(([key, value]) => [key, Number(value)]),
  );

export async function statsSnapshot(urlOf: (database: string) => string, databases: string[]): Promise<StatsSnapshot> {
  const snapshot: StatsSnapshot = { wal: {}, bgwriter: {}, databases: {}, tables: {} };
  await withClient(urlOf('postgres'), async (client) => {
    snapshot.wal = numbers(
      (
        await client.query(
          'select wal_records, wal_fpi, wal_bytes, wal_buffers_full, wal_write, wal_sync from pg_stat_wal',
        )
      ).rows[0],
    );
    snapshot.bgwriter = numbers(
      (
        await client.query(`select checkpoints_timed, checkpoints_req, buffers_checkpoint, buffers_clean,
      buffers_backend, buffers_backend_fsync, buffers_alloc from pg_stat_bgwriter`)
      ).rows[0],
    );
    const { rows } = await client.query(
      `select datname, blks_hit, blks_read, xact_commit, xact_rollback, tup_inserted, tup_updated
      from pg_stat_database where datname = any($1)`,
      [databases],
    );
    for (const row of rows) snapshot.databases[row.datname as string] = numbers(row);
  });
  for (const database of databases) {
    snapshot.tables[database] = await withClient(urlOf(database), async (client) => {
      const { rows } =
        await client.query(`select t.relname, t.n_tup_ins, t.n_tup_upd, t.n_tup_hot_upd, t.n_dead_tup, t.n_live_tup,
        t.vacuum_count, t.autovacuum_count, t.autoanalyze_count, s.heap_blks_hit, s.heap_blks_read, s.idx_blks_hit, s.idx_blks_read,
        pg_relation_size(t.relid) as heap_bytes, pg_indexes_size(t.relid) as index_bytes
        from pg_stat_user_tables t join pg_statio_user_tables s using (relid)`);
      return Object.fromEntries(rows.map((row) => [row.relname as string, numbers(row)]));
    });
  }
  return snapshot;
}

function difference(after: Numbers, before: Numbers | undefined, keepAsIs: string[] = []): Numbers {
  return Object.fromEntries(
    Object.entries(after).map(([key, value]) => [key, keepAsIs.includes(key) ? value : value - (before?.[key] ?? 0)]),
  );
}

/** What changed between two snapshots; dead and live rows and sizes are the later snapshot's. */
export function statsDifference(before: StatsSnapshot, after: StatsSnapshot) {
  const asIs = ['n_dead_tup', 'n_live_tup', 'heap_bytes', 'index_bytes'];
  return {
    wal: difference(after.wal, before.wal),
    bgwriter: difference(after.bgwriter, before.bgwriter),
    databases: Object.fromEntries(
      Object.entries(after.databases).map(([name, row]) => [name, difference(row, before.databases[name])]),
    ),
    tables: Object.fromEntries(
      Object.entries(after.tables).map(([database, tables]) => [
        database,
        Object.fromEntries(
          Object.entries(tables).map(([name, row]) => [name, difference(row, before.tables[database]?.[name], asIs)]),
        ),
      ]),
    ),
  };
}

export interface StatementFigures {
  database: string;
  query: string;
  calls: number;
  plans: number;
  planMs: number;
  ms: number;
  hit: number;
  read: number;
  dirtied: number;
  written: number;
  walRecords: number;
  walFpi: number;
  walBytes: number;
}

/** Statements of pg_stat_statements, where the cluster loads it (shared_preload_libraries); null otherwise. */
export async function statements(url: string, reset: boolean): Promise<StatementFigures[] | null> {
  return withClient(url, async (client) => {
    try {
      await client.query('create extension if not exists pg_stat_statements');
      if (reset) {
        await client.query('select pg_stat_statements_reset()');
        return [];
      }
      const { rows } =
        await client.query(`select d.datname, regexp_replace(left(s.query, 90), '\\s+', ' ', 'g') as query, s.calls, s.plans, s.total_plan_time,
        s.total_exec_time, s.shared_blks_hit, s.shared_blks_read, s.shared_blks_dirtied, s.shared_blks_written, s.wal_records, s.wal_fpi, s.wal_bytes
        from pg_stat_statements s join pg_database d on d.oid = s.dbid where s.calls > 100 order by s.total_exec_time desc limit 12`);
      return rows.map((row) => ({
        database: row.datname as string,
        query: row.query as string,
        calls: Number(row.calls),
        plans: Number(row.plans),
        planMs: Number(row.total_plan_time),
        ms: Number(row.total_exec_time),
        hit: Number(row.shared_blks_hit),
        read: Number(row.shared_blks_read),
        dirtied: Number(row.shared_blks_dirtied),
        written: Number(row.shared_blks_written),
        walRecords: Number(row.wal_records),
        walFpi: Number(row.wal_fpi),
        walBytes: Number(row.wal_bytes),
      }));
    } catch {
      return null;
    }
  });
}

export interface RunDetail {
  requests: number;
  cpu: Record<string, KindCpu>;
  stats: ReturnType<typeof statsDifference>;
  statements: StatementFigures[] | null;
}

/** Wraps one driver run: `run` returns the run's request count. */
export async function measureRun(
  postmasterPid: number,
  urlOf: (database: string) => string,
  databases: string[],
  run: () => Promise<number>,
): Promise<RunDetail> {
  await statements(urlOf('postgres'), true);
  const before = await statsSnapshot(urlOf, databases);
  const sampler = new ClusterSampler(postmasterPid);
  sampler.start();
  let requests: number;
  let cpu: Record<string, KindCpu>;
  try {
    requests = await run();
  } finally {
    cpu = sampler.stop();
  }
  // Backends report their table statistics when idle for a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const after = await statsSnapshot(urlOf, databases);
  return {
    requests,
    cpu,
    stats: statsDifference(before, after),
    statements: await statements(urlOf('postgres'), false),
  };
}

const per = (value: number, requests: number, places = 0) => (value / requests).toFixed(places);

/** A few lines per run, per request. */
export function formatDetail(title: string, detail: RunDetail, database: string): string {
  const n = detail.requests;
  const lines = [`  ${title}: ${n} requests; PostgreSQL per request:`];
  const kinds = Object.entries(detail.cpu)
    .filter(([, kind]) => kind.userUs + kind.systemUs + kind.minorFaults > 0)
    .sort(([, a], [, b]) => b.userUs + b.systemUs - (a.userUs + a.systemUs));
  for (const [kind, cpu] of kinds) {
    lines.push(
      `    ${kind.padEnd(34)} ${per(cpu.userUs + cpu.systemUs, n).padStart(5)} µs (user ${per(cpu.userUs, n)}, system ${per(cpu.systemUs, n)}), ${per(cpu.minorFaults, n, 1)} minor faults, ${cpu.processes} process(es)`,
    );
  }
  const { wal, bgwriter } = detail.stats;
  lines.push(
    `    WAL: ${per(wal.wal_records ?? 0, n, 1)} records, ${per(wal.wal_fpi ?? 0, n, 2)} full pages, ${per(wal.wal_bytes ?? 0, n)} bytes, buffers full ${wal.wal_buffers_full}, writes ${wal.wal_write}, syncs ${wal.wal_sync}`,
  );
  lines.push(
    `    checkpoints ${(bgwriter.checkpoints_timed ?? 0) + (bgwriter.checkpoints_req ?? 0)}, buffers written: checkpoint ${bgwriter.buffers_checkpoint}, bgwriter ${bgwriter.buffers_clean}, backends ${bgwriter.buffers_backend}`,
  );
  const db = detail.stats.databases[database];
  if (db)
    lines.push(
      `    ${database}: ${per(db.blks_hit ?? 0, n, 1)} buffers hit, ${per(db.blks_read ?? 0, n, 2)} read, ${per(db.xact_commit ?? 0, n, 2)} commits`,
    );
  for (const [name, tables] of Object.entries(detail.stats.tables)) {
    for (const [table, row] of Object.entries(tables)) {
      const touched =
        (row.n_tup_ins ?? 0) + (row.n_tup_upd ?? 0) + (row.autovacuum_count ?? 0) + (row.autoanalyze_count ?? 0);
      if (touched === 0) continue;
      lines.push(
        `    ${name}.${table}: ins ${per(row.n_tup_ins ?? 0, n, 2)}, upd ${per(row.n_tup_upd ?? 0, n, 2)} (hot ${per(row.n_tup_hot_upd ?? 0, n, 2)}), heap hit ${per(row.heap_blks_hit ?? 0, n, 1)}, idx hit ${per(row.idx_blks_hit ?? 0, n, 1)}, dead ${row.n_dead_tup}, autovacuum ${row.autovacuum_count}, autoanalyze ${row.autoanalyze_count}, ${Math.round((row.heap_bytes ?? 0) / 1e6)} + ${Math.round((row.index_bytes ?? 0) / 1e6)} MB`,
      );
    }
  }
  for (const statement of detail.statements ?? []) {
    const c = statement.calls;
    lines.push(
      `    [${statement.database}] ${per(c, n, 2)}/req ${((statement.ms * 1000) / c).toFixed(0)} µs (plans ${per(statement.plans, c, 2)}/call, ${statement.plans ? ((statement.planMs * 1000) / statement.plans).toFixed(0) : 0} µs each): hit ${per(statement.hit, c, 1)} read ${per(statement.read, c, 2)} dirtied ${per(statement.dirtied, c, 2)} written ${per(statement.written, c, 2)}; WAL ${per(statement.walRecords, c, 1)} rec ${per(statement.walFpi, c, 2)} fpi ${per(statement.walBytes, c)} B: ${statement.query.slice(0, 70)}`,
    );
  }
  return lines.join('\n');
}
