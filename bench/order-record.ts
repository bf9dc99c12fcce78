/**
 * `npm run bench:record [-- --orders 200000] [--cancels 2000] [--encodings json,json@8192,jsonb,deflate] [--pg-columns text,jsonb,deflate] [--stores sqlite,postgres] [--clients 16]`
 * (the same as `npm run bench -- --order-record …`, without the build).
 *
 * The order as one stored record (issue 18), measured before it is built: one row per order
 * (`order_id`, `agency_id`, `version`, the record), read by its key, changed in Node, written back
 * only if the version is unchanged, and the cancel's events and audit rows appended to logs whose
 * keys only grow. Per engine and encoding: pages (SQLite) or WAL records (PostgreSQL) per cancel,
 * time per cancel, and the record's size; and the CPU of encoding and decoding it in Node.
 * An SQLite encoding may name its page size (`json@8192`; 4,096 otherwise). v8 (node:v8's
 * serialisation) can be named too; it is measured in Node in every run. PostgreSQL's `deflate` column
 * (bytea) is made in Node and so adds about a minute of loading at 200,000 orders: named on request.
 * Prints markdown tables and writes bench/results/order-record.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import zlib from 'node:zlib';
import pg from 'pg';
import { startPostgresCluster } from '../scripts/postgres-cluster.js';
import {
  cancelBooking,
  cancelLogs,
  ENCODINGS,
  RECORD_AGENCY,
  recordOrderId,
  scattered,
  storedRecord,
  type OrderRecord,
} from './order-record-data.js';
import { withClient } from './postgres-client.js';
import { ROOT } from './processes.js';

interface Options {
  orders: number;
  cancels: number;
  encodings: string[];
  columns: string[];
  stores: string[];
  clients: number;
  group: number;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  return {
    orders: Number(value('--orders') ?? 200_000),
    cancels: Number(value('--cancels') ?? 2_000),
    encodings: (value('--encodings') ?? 'json,json@8192,jsonb,deflate').split(','),
    columns: (value('--pg-columns') ?? 'text,jsonb').split(','),
    stores: (value('--stores') ?? 'sqlite,postgres').split(','),
    clients: Number(value('--clients') ?? 16),
    group: Number(value('--group') ?? 32),
  };
}

const say = (line: string) => process.stderr.write(`${line}\n`);
const round = (value: number, places = 1) => Number(value.toFixed(places));
const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

/** µs per call of `work`, over enough calls to last about 300 ms. */
function timePerCall(work: () => unknown): number {
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < 300) {
    for (let index = 0; index < 100; index += 1) work();
    calls += 100;
  }
  return ((performance.now() - start) * 1000) / calls;
}

function measureCpu(): Record<string, number | string>[] {
  const record = storedRecord(7);
  cancelBooking(record, 0, 'VOLUNTARY', '2026-11-23T10:00:00Z');
  const sqlite = new Database(':memory:');
  const toJsonb = sqlite.prepare('select jsonb(?) as value').pluck();
  const fromJsonb = sqlite.prepare('select json(?) as value').pluck();
  const jsonText = JSON.stringify(record);
  const jsonbBlob = toJsonb.get(jsonText) as Buffer;
  const rows: Record<string, number | string>[] = [];
  for (const encoding of Object.values(ENCODINGS)) {
    const stored = encoding.encode(record);
    if (encoding.name === 'jsonb') {
      rows.push({
        encoding: 'jsonb (SQLite)',
        bytes: jsonbBlob.length,
        encodeUs: round(
          timePerCall(() => toJsonb.get(JSON.stringify(record))),
          2,
        ),
        decodeUs: round(
          timePerCall(() => JSON.parse(fromJsonb.get(jsonbBlob) as string)),
          2,
        ),
      });
      continue;
    }
    rows.push({
      encoding: encoding.name,
      bytes: Buffer.byteLength(stored),
      encodeUs: round(
        timePerCall(() => encoding.encode(record)),
        2,
      ),
      decodeUs: round(
        timePerCall(() => encoding.decode(stored)),
        2,
      ),
    });
  }
  sqlite.close();
  return rows;
}

// SQLite -------------------------------------------------------------------------------------------

interface SqliteRow {
  encoding: string;
  pageSize: number;
  synchronous: string;
  perCommit: number;
  cancels: number;
  usPerCancel: number;
  cpuUsPerCancel: number;
  walPagesPerCancel: number;
  walKiBPerCancel: number;
  distinctPagesPerCancel: number;
}

/** Frames in the log and the distinct pages they hold (what a checkpoint copies back). */
function walFrames(file: string, pageSize: number): { frames: number; pages: number } {
  if (!fs.existsSync(file)) return { frames: 0, pages: 0 };
  const size = fs.statSync(file).size;
  const frames = size <= 32 ? 0 : Math.floor((size - 32) / (24 + pageSize));
  const handle = fs.openSync(file, 'r');
  const header = Buffer.alloc(4);
  const pages = new Set<number>();
  for (let frame = 0; frame < frames; frame += 1) {
    fs.readSync(handle, header, 0, 4, 32 + frame * (24 + pageSize));
    pages.add(header.readUInt32BE(0));
  }
  fs.closeSync(handle);
  return { frames, pages: pages.size };
}

function loadSqlite(file: string, encodingName: string, pageSize: number, orders: number): Database.Database {
  const encoding = ENCODINGS[encodingName]!;
  const db = new Database(file);
  db.pragma(`page_size = ${pageSize}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('wal_autocheckpoint = 0');
  db.exec(`create table order_records (order_id text primary key, agency_id text not null, version integer not null, record ${encodingName === 'json' ? 'text' : 'blob'} not null);
    create index order_records_agency on order_records (agency_id, order_id);
    create table order_events (position integer primary key, agency_id text not null, type text not null, occurred_at text not null, data text not null);
    create table order_audit (sequence integer primary key, order_id text not null, event text not null, detail text not null, request_id text not null, occurred_at text not null)`);
  const insert = db.prepare(
    `insert into order_records (order_id, agency_id, version, record) values (?, ?, 1, ${encoding.sqlIn})`,
  );
  const batch = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index += 1)
      insert.run(recordOrderId(index), RECORD_AGENCY, encoding.encode(storedRecord(index)));
  });
  for (let from = 0; from < orders; from += 10_000) {
    batch(from, Math.min(orders, from + 10_000));
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
  return db;
}

function runSqlite(
  db: Database.Database,
  file: string,
  encodingName: string,
  synchronous: string,
  perCommit: number,
  positions: number[],
): SqliteRow {
  const encoding = ENCODINGS[encodingName]!;
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const read = db.prepare(`select ${encoding.sqlOut}, version from order_records where order_id = ?`);
  const write = db.prepare(
    `update order_records set record = ${encoding.sqlIn}, version = version + 1 where order_id = ? and version = ?`,
  );
  const event = db.prepare('insert into order_events (agency_id, type, occurred_at, data) values (?, ?, ?, ?)');
  const audit = db.prepare(
    'insert into order_audit (order_id, event, detail, request_id, occurred_at) values (?, ?, ?, ?, ?)',
  );
  const walk = scattered(Number(db.prepare('select count(*) from order_records').pluck().get()));
  const cancel = (position: number) => {
    const orderId = recordOrderId(walk(position));
    const now = new Date().toISOString();
    const row = read.get(orderId) as { record: string | Buffer; version: number };
    const record = encoding.decode(row.record);
    cancelBooking(record, 0, 'VOLUNTARY', now);
    if (write.run(encoding.encode(record), orderId, row.version).changes !== 1)
      throw new Error(`${orderId} changed meanwhile`);
    const logs = cancelLogs(record, `req-${position}`, now);
    for (const item of logs.events) event.run(record.agencyId, item.type, now, item.data);
    for (const item of logs.audit) audit.run(orderId, item.event, item.detail, item.requestId, now);
  };
  const commit = db.transaction((batch: number[]) => {
    for (const position of batch) cancel(position);
  });
  const cpuStart = cpuMicros();
  const start = performance.now();
  for (let index = 0; index < positions.length; index += perCommit)
    commit.immediate(positions.slice(index, index + perCommit));
  const micros = (performance.now() - start) * 1000;
  const cpu = cpuMicros() - cpuStart;
  const { frames, pages } = walFrames(`${file}-wal`, pageSize);
  const count = positions.length;
  return {
    encoding: encodingName,
    pageSize,
    synchronous,
    perCommit,
    cancels: count,
    usPerCancel: round(micros / count),
    cpuUsPerCancel: round(cpu / count),
    walPagesPerCancel: round(frames / count, 2),
    walKiBPerCancel: round((frames * (pageSize + 24)) / 1024 / count),
    distinctPagesPerCancel: round(pages / count, 2),
  };
}

function benchSqlite(
  options: Options,
  takePositions: (count: number) => number[],
): { rows: SqliteRow[]; sizes: Record<string, unknown>[] } {
  const rows: SqliteRow[] = [];
  const sizes: Record<string, unknown>[] = [];
  for (const variant of options.encodings) {
    const [encodingName = 'json', pageSize = '4096'] = variant.split('@');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-record-'));
    const file = path.join(dir, 'records.db');
    try {
      say(`[sqlite ${variant}] loading ${options.orders} orders…`);
      const loadStart = performance.now();
      const db = loadSqlite(file, encodingName, Number(pageSize), options.orders);
      const pageCount = Number(db.pragma('page_count', { simple: true }));
      const averageBytes = Number(db.prepare('select avg(length(record)) from order_records').pluck().get());
      sizes.push({
        encoding: encodingName,
        pageSize: Number(pageSize),
        recordBytes: Math.round(averageBytes),
        databaseBytesPerOrder: Math.round((pageCount * Number(pageSize)) / options.orders),
        loadSeconds: round((performance.now() - loadStart) / 1000),
      });
      for (const synchronous of ['NORMAL', 'FULL']) {
        for (const perCommit of [options.group, 1]) {
          say(`[sqlite ${variant}] synchronous ${synchronous}, ${perCommit} per commit…`);
          rows.push(runSqlite(db, file, encodingName, synchronous, perCommit, takePositions(options.cancels)));
        }
      }
      db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return { rows, sizes };
}

// PostgreSQL ---------------------------------------------------------------------------------------

interface PostgresRow {
  column: string;
  round: number;
  cancels: number;
  clients: number;
  usPerCancel: number;
  walRecordsPerCancel: number;
  walBytesPerCancel: number;
  fpiPerCancel: number;
  buffersPerCancel: number;
  hotShare: number;
  lostRacesPerCancel: number;
  unavailable: number;
}

/** The record's column: JSON text, jsonb, or JSON deflated in Node (bytea, small enough that PostgreSQL neither compresses nor toasts it). */
const PG_TYPES: Record<string, string> = { text: 'text', jsonb: 'jsonb', deflate: 'bytea' };

async function loadPostgres(url: string, orders: number, columns: string[]): Promise<void> {
  await withClient(url, async (client) => {
    for (const column of Object.keys(PG_TYPES)) {
      await client.query(`create table order_records_${column} (order_id text primary key, agency_id text not null, version integer not null,
        record ${PG_TYPES[column]} not null) with (fillfactor = 90, autovacuum_enabled = off)`);
      await client.query(
        `create index order_records_${column}_agency on order_records_${column} (agency_id, order_id)`,
      );
    }
    await client.query(`create table order_events (position bigint generated always as identity primary key, agency_id text not null, type text not null,
      occurred_at timestamptz not null, data text not null) with (autovacuum_enabled = off)`);
    await client.query(`create table order_audit (sequence bigint generated always as identity primary key, order_id text not null, event text not null,
      detail text not null, request_id text not null, occurred_at timestamptz not null) with (autovacuum_enabled = off)`);
    // The text records are made in PostgreSQL from one order's, its id replaced (a record of the same size
    // and shape per order, and a load ten times faster); the deflated ones, which only Node can make, in Node.
    const template = JSON.stringify(storedRecord(0));
    await client.query(
      `insert into order_records_text select id, $1, 1, replace($2, $3, id)
      from (select 'BO-' || lpad(i::text, 8, '0') as id from generate_series(0, $4 - 1) as i) as ids`,
      [RECORD_AGENCY, template, recordOrderId(0), orders],
    );
    for (let from = 0; columns.includes('deflate') && from < orders; from += 2_000) {
      const ids: string[] = [];
      const deflated: Buffer[] = [];
      for (let index = from; index < Math.min(orders, from + 2_000); index += 1) {
        ids.push(recordOrderId(index));
        deflated.push(zlib.deflateRawSync(JSON.stringify(storedRecord(index)), { level: 1 }));
      }
      await client.query(
        `insert into order_records_deflate select id, $2, 1, record from unnest($1::text[], $3::bytea[]) as t (id, record)`,
        [ids, RECORD_AGENCY, deflated],
      );
    }
    await client.query(
      'insert into order_records_jsonb select order_id, agency_id, version, record::jsonb from order_records_text',
    );
    for (const column of columns) await client.query(`vacuum analyze order_records_${column}`);
    await client.query('checkpoint');
  });
}

interface Counters {
  walRecords: number;
  walBytes: number;
  fpi: number;
  buffers: number;
  updates: number;
  hotUpdates: number;
}

async function counters(url: string, column: string): Promise<Counters> {
  return withClient(url, async (client) => {
    const wal = (
      await client.query(
        'select wal_records::float8 as records, wal_bytes::float8 as bytes, wal_fpi::float8 as fpi from pg_stat_wal',
      )
    ).rows[0];
    const database = (
      await client.query(
        'select (blks_hit + blks_read)::float8 as buffers from pg_stat_database where datname = current_database()',
      )
    ).rows[0];
    const table = (
      await client.query(
        `select n_tup_upd::float8 as upd, n_tup_hot_upd::float8 as hot from pg_stat_user_tables where relname = $1`,
        [`order_records_${column}`],
      )
    ).rows[0];
    return {
      walRecords: wal.records,
      walBytes: wal.bytes,
      fpi: wal.fpi,
      buffers: database.buffers,
      updates: table.upd,
      hotUpdates: table.hot,
    };
  });
}

/** Statistics reach the shared counters when a backend is idle for a while or ends: the pool is ended first, then this waits. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_200));

/**
 * One cancel: one read, then one statement that updates the record if its version is unchanged and
 * appends the events and audit rows only if it did. A lost race reads again (at most 8 times).
 */
function postgresCancel(pool: pg.Pool, column: string, oneRowPerLog: boolean) {
  const table = `order_records_${column}`;
  const read = { name: `read_${column}`, text: `select record, version from ${table} where order_id = $1` };
  const write = `with moved as (update ${table} set record = $2::${PG_TYPES[column]}, version = version + 1 where order_id = $1 and version = $3 returning agency_id),
    events as (insert into order_events (agency_id, type, occurred_at, data) select moved.agency_id, e.type, $4, e.data
      from moved, unnest($5::text[], $6::text[]) as e (type, data) returning 1),
    audit as (insert into order_audit (order_id, event, detail, request_id, occurred_at) select $1, a.event, a.detail, a.request_id, $4
      from moved, unnest($7::text[], $8::text[], $9::text[]) as a (event, detail, request_id) returning 1)
    select (select count(*) from moved)::int as moved, (select count(*) from events) + (select count(*) from audit) as logged`;
  /** Lost races before the cancel was stored; null when it was not (answered 503). */
  return async (orderId: string, requestId: string): Promise<number | null> => {
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const row = (
        await pool.query<{ record: string | Buffer | OrderRecord; version: number }>({ ...read, values: [orderId] })
      ).rows[0]!;
      const record =
        typeof row.record === 'string'
          ? (JSON.parse(row.record) as OrderRecord)
          : Buffer.isBuffer(row.record)
            ? ENCODINGS.deflate!.decode(row.record)
            : row.record;
      const now = new Date().toISOString();
      cancelBooking(record, 0, 'VOLUNTARY', now);
      const logs = cancelLogs(record, requestId, now);
      if (oneRowPerLog) {
        // The request's events in one row of the feed, its audit in one row of the trail.
        logs.events = [
          {
            type: logs.events.map((item) => item.type).join(' '),
            data: `[${logs.events.map((item) => item.data).join(',')}]`,
          },
        ];
        logs.audit = [
          {
            event: logs.audit.map((item) => item.event).join(' '),
            detail: `[${logs.audit.map((item) => item.detail).join(',')}]`,
            requestId,
          },
        ];
      }
      const stored = column === 'deflate' ? ENCODINGS.deflate!.encode(record) : JSON.stringify(record);
      const result = await pool.query<{ moved: number }>({
        name: `write_${column}`,
        text: write,
        values: [
          orderId,
          stored,
          row.version,
          now,
          logs.events.map((item) => item.type),
          logs.events.map((item) => item.data),
          logs.audit.map((item) => item.event),
          logs.audit.map((item) => item.detail),
          logs.audit.map((item) => item.requestId),
        ],
      });
      if (result.rows[0]!.moved === 1) return attempt - 1;
    }
    return null;
  };
}

/** WAL records per cancel by kind (pg_walinspect) between two positions in the log. */
async function walKinds(url: string, from: string, to: string, count: number): Promise<Record<string, number>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ kind: string; count: string }>(
      `select "resource_manager/record_type" as kind, count from pg_get_wal_stats($1, $2, true) where count > 0 order by count desc`,
      [from, to],
    );
    return Object.fromEntries(rows.map((row) => [row.kind, round(Number(row.count) / count, 2)]));
  });
}

const currentLsn = (url: string) =>
  withClient(
    url,
    async (client) => (await client.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0]!.lsn,
  );

async function runPostgres(
  url: string,
  column: string,
  clients: number,
  orderIds: string[],
  walByKind: Record<string, Record<string, number>>,
  runRound: number,
  oneRowPerLog = false,
): Promise<PostgresRow> {
  const before = await counters(url, column);
  const fromLsn = await currentLsn(url);
  const pool = new pg.Pool({ connectionString: url, max: clients });
  const cancel = postgresCancel(pool, column, oneRowPerLog);
  let next = 0;
  let lostRaces = 0;
  let unavailable = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < orderIds.length) {
        const index = next;
        next += 1;
        const lost = await cancel(orderIds[index]!, `req-${index}`);
        if (lost === null) unavailable += 1;
        else lostRaces += lost;
      }
    }),
  );
  const micros = (performance.now() - start) * 1000;
  await pool.end();
  await settle();
  const after = await counters(url, column);
  const count = orderIds.length;
  walByKind[`${column}${oneRowPerLog ? ', one row per log' : ''}, round ${runRound}`] = await walKinds(
    url,
    fromLsn,
    await currentLsn(url),
    count,
  );
  const updates = after.updates - before.updates;
  return {
    column: `${column}${oneRowPerLog ? ', one row per log' : ''}`,
    round: runRound,
    cancels: count,
    clients,
    usPerCancel: round(micros / count),
    walRecordsPerCancel: round((after.walRecords - before.walRecords) / count, 2),
    walBytesPerCancel: Math.round((after.walBytes - before.walBytes) / count),
    fpiPerCancel: round((after.fpi - before.fpi) / count, 2),
    buffersPerCancel: round((after.buffers - before.buffers) / count),
    hotShare: round((after.hotUpdates - before.hotUpdates) / Math.max(1, updates), 3),
    lostRacesPerCancel: round(lostRaces / count, 2),
    unavailable,
  };
}

async function benchPostgres(
  options: Options,
  takePositions: (count: number) => number[],
): Promise<{
  rows: PostgresRow[];
  sizes: Record<string, unknown>[];
  walByKind: Record<string, Record<string, number>>;
}> {
  const walk = scattered(options.orders);
  const cluster = await startPostgresCluster();
  const rows: PostgresRow[] = [];
  const sizes: Record<string, unknown>[] = [];
  const walByKind: Record<string, Record<string, number>> = {};
  try {
    await withClient(cluster.url, (client) => client.query('create database record_bench'));
    const url = cluster.socketUrl.replace('/postgres?', '/record_bench?');
    say(`[postgres] loading ${options.orders} orders…`);
    const loadStart = performance.now();
    await loadPostgres(url, options.orders, options.columns);
    await withClient(url, (client) => client.query('create extension pg_walinspect'));
    const loadSeconds = round((performance.now() - loadStart) / 1000);
    await withClient(url, async (client) => {
      for (const column of options.columns) {
        const size = (
          await client.query(`select avg(pg_column_size(record))::float8 as stored, avg(octet_length(record::text))::float8 as text,
          pg_relation_size('order_records_${column}')::float8 as heap, pg_total_relation_size('order_records_${column}')::float8 as total from order_records_${column}`)
        ).rows[0];
        sizes.push({
          column,
          recordBytes: Math.round(size.text),
          storedBytes: Math.round(size.stored),
          heapBytesPerOrder: Math.round(size.heap / options.orders),
          totalBytesPerOrder: Math.round(size.total / options.orders),
          loadSeconds,
        });
      }
    });
    // Two rounds, alternated, so that neither column always runs first on the machine's moment.
    for (const runRound of [1, 2]) {
      for (const column of options.columns) {
        say(`[postgres ${column}] round ${runRound}: ${options.cancels * 2} cancels from ${options.clients} clients…`);
        rows.push(
          await runPostgres(
            url,
            column,
            options.clients,
            takePositions(options.cancels * 2).map((position) => recordOrderId(walk(position))),
            walByKind,
            runRound,
          ),
        );
      }
    }
    const oneRow = options.columns[0]!;
    say(`[postgres ${oneRow}] the events and the audit of a cancel in one row each…`);
    rows.push(
      await runPostgres(
        url,
        oneRow,
        options.clients,
        takePositions(options.cancels * 2).map((position) => recordOrderId(walk(position))),
        walByKind,
        3,
        true,
      ),
    );
    // The version check under contention: every client changes the same eight orders (400 changes,
    // each adding two refunds: only its lost races and 503s compare, not its costs).
    say(`[postgres] contention: ${options.clients} clients on 8 orders…`);
    const hot = takePositions(8).map((position) => recordOrderId(walk(position)));
    rows.push({
      ...(await runPostgres(
        url,
        'jsonb',
        options.clients,
        Array.from({ length: 400 }, (_, index) => hot[index % 8]!),
        walByKind,
        3,
      )),
      column: 'jsonb, 8 orders contended',
    });
  } finally {
    await cluster.stop();
  }
  return { rows, sizes, walByKind };
}

// Output -------------------------------------------------------------------------------------------

function table(rows: object[]): string {
  if (rows.length === 0) return '';
  const header = Object.keys(rows[0]!);
  const line = (cells: unknown[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map((row) => line(Object.values(row)))].join('\n');
}

export async function runOrderRecord(argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  // Every cancel of the run on an order no other cancel touched, in one scattered walk shared by all stores.
  let used = 0;
  const takePositions = (count: number) => {
    if (used + count > options.orders)
      say(`fewer orders (${options.orders}) than cancels: some orders are cancelled twice`);
    const positions = Array.from({ length: count }, (_, index) => (used + index) % options.orders);
    used += count;
    return positions;
  };
  say('[cpu] encoding and decoding one record…');
  const cpu = measureCpu();
  const sqlite = options.stores.includes('sqlite') ? benchSqlite(options, takePositions) : { rows: [], sizes: [] };
  used = 0;
  const postgres = options.stores.includes('postgres')
    ? await benchPostgres(options, takePositions)
    : { rows: [], sizes: [], walByKind: {} };
  process.stdout.write(
    `\norder as one record — ${options.orders} orders, ${options.cancels} cancels per SQLite run, ${os.cpus().length} cores, node ${process.version}\n\n`,
  );
  process.stdout.write(
    `Encoding in Node (one record, after the cancel)\n\n${table(cpu)}\n\nSQLite sizes\n\n${table(sqlite.sizes)}\n\nPostgreSQL sizes\n\n${table(postgres.sizes)}\n\n`,
  );
  process.stdout.write(
    `SQLite (WAL, one process)\n\n${table(sqlite.rows)}\n\nPostgreSQL (${options.clients} clients)\n\n${table(postgres.rows)}\n\n`,
  );
  process.stdout.write(
    `PostgreSQL WAL records per cancel by kind (pg_walinspect)\n\n${Object.entries(postgres.walByKind)
      .map(([run, kinds]) => `${run}: ${JSON.stringify(kinds)}`)
      .join('\n')}\n`,
  );
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench', 'results', 'order-record.json'),
    `${JSON.stringify({ options, cpu, sqlite, postgres }, null, 2)}\n`,
  );
}
