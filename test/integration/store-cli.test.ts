/**
 * The operator CLI and the migrations on the store this run is about (TEST_STORE): every command
 * works the same on SQLite and PostgreSQL, and migrations run, roll back and run again cleanly.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { sql, type RawBuilder } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { engineSql } from '../../src/store/engine-sql.js';
import { migrateDown, migrateToLatest } from '../../src/store/migrator.js';
import { openStore } from '../../src/store/open-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { booking, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { snapshotAllTables } from '../helpers/table-rows.js';
import { createTestDatabase, TEST_DATABASE_ENV, type TestDatabase, testStoreKind } from '../helpers/test-database.js';
import { setStoredBookingMember } from '../helpers/stored-records.js';
import { mutationHookOptions } from '../helpers/mutation-hook.js';
import { scaled } from '../helpers/time-scale.js';

const run = promisify(execFile);
const BIN = path.resolve('bin', 'airorder.js');
const TABLES = [
  'access_tokens',
  'agencies',
  'airline_change_timers',
  'audit_events_before_012',
  'audit_log',
  'auth_state',
  'background_leases',
  'change_tallies',
  'console_imports',
  'event_log',
  'events_before_013',
  'idempotency_keys',
  'kept_response_counts',
  'operator_actions',
  'operator_sessions',
  'operator_sign_in_attempts',
  'operators',
  'order_records',
  'refund_quotes',
  'request_counts',
  'token_last_use',
  'webhook_deliveries',
  'webhook_endpoints',
];
const UP = [
  'Up 001-initial-schema',
  'Up 002-idempotency-and-audit',
  'Up 003-events-webhooks-deadlines',
  'Up 004-order-versions-auth-state',
  'Up 005-operator-console',
  'Up 006-console-progress-and-counts',
  'Up 007-one-index-for-pending-changes',
  'Up 008-room-for-updates-in-place',
  'Up 009-sign-in-attempt-counts',
  'Up 010-token-last-use',
  'Up 011-order-records',
  'Up 012-audit-log',
  'Up 013-event-log',
  'Up 014-refund-quotes',
  'Up 015-kept-response-counts',
];

let dir: string;
let database: TestDatabase;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-store-cli-'));
  database = await createTestDatabase(dir);
});
after(async () => {
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function airorder(args: string[], input?: string): Promise<{ stdout: string; stderr: string; code: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url };
  delete env.NODE_OPTIONS;
  Object.assign(env, mutationHookOptions());
  const child = run(process.execPath, [BIN, ...args], { env, cwd: dir, timeout: scaled(30_000) });
  if (input !== undefined) {
    child.child.stdin!.end(input);
  }
  try {
    const { stdout, stderr } = await child;
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}

async function tableNames(): Promise<string[]> {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  try {
    const tables = await store.db.introspection.getTables();
    return tables
      .filter((table) => !table.isView)
      .map((table) => table.name)
      .filter((name) => !name.startsWith('kysely_'))
      .sort();
  } finally {
    await store.close();
  }
}

/** PostgreSQL's storage options of the tables migration 008 leaves room in. */
async function fillFactors(store: ReturnType<typeof openStore>): Promise<Record<string, string[] | null>> {
  const { rows } = await sql<{ relname: string; reloptions: string[] | null }>`select relname, reloptions from pg_class
    where relname in ('orders', 'bookings', 'order_records') and relkind = 'r' order by relname`.execute(store.db);
  return Object.fromEntries(rows.map((row) => [row.relname, row.reloptions]));
}

test(`migrations run, roll back and run again on ${testStoreKind()}`, async () => {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  try {
    assert.deepEqual(await migrateToLatest(store), UP);
    assert.deepEqual(await migrateToLatest(store), []);
    if (testStoreKind() === 'postgres')
      assert.deepEqual(await fillFactors(store), { order_records: ['fillfactor=70'] });
    assert.deepEqual(await migrateDown(store), ['Down 015-kept-response-counts']);
    assert.deepEqual(await migrateDown(store), ['Down 014-refund-quotes']);
    assert.deepEqual(await migrateDown(store), ['Down 013-event-log']);
    assert.deepEqual(await migrateDown(store), ['Down 012-audit-log']);
    assert.deepEqual(await migrateDown(store), ['Down 011-order-records']);
    assert.deepEqual(await migrateDown(store), ['Down 010-token-last-use']);
    assert.deepEqual(await migrateDown(store), ['Down 009-sign-in-attempt-counts']);
    if (testStoreKind() === 'postgres')
      assert.deepEqual(await fillFactors(store), { bookings: ['fillfactor=80'], orders: ['fillfactor=90'] });
    assert.deepEqual(await migrateDown(store), ['Down 008-room-for-updates-in-place']);
    if (testStoreKind() === 'postgres') assert.deepEqual(await fillFactors(store), { bookings: null, orders: null });
    assert.deepEqual(await migrateDown(store), ['Down 007-one-index-for-pending-changes']);
    assert.deepEqual(await migrateDown(store), ['Down 006-console-progress-and-counts']);
    assert.deepEqual(await migrateDown(store), ['Down 005-operator-console']);
    assert.deepEqual(await migrateDown(store), ['Down 004-order-versions-auth-state']);
    const functions = await sql<{ proname: string }>`select proname from pg_proc where proname like 'airorder_%'`
      .execute(store.db)
      .catch(() => ({ rows: [] }));
    assert.deepEqual(functions.rows, [], 'the functions and triggers of 004 are gone (PostgreSQL)');
    assert.deepEqual(await migrateDown(store), ['Down 003-events-webhooks-deadlines']);
    assert.deepEqual(await migrateDown(store), ['Down 002-idempotency-and-audit']);
    assert.deepEqual(await migrateDown(store), ['Down 001-initial-schema']);
    const left = await store.db.introspection.getTables();
    assert.deepEqual(
      left.map((table) => table.name).filter((name) => !name.startsWith('kysely_')),
      [],
    );
    assert.deepEqual(await migrateToLatest(store), UP);
    await sql`select count(*) from refunds`.execute(store.db);
  } finally {
    await store.close();
  }
  assert.deepEqual(await tableNames(), TABLES);
});

/** Migrations 015 to 012, in the order they roll back. */
const AFTER_011 = ['015-kept-response-counts', '014-refund-quotes', '013-event-log', '012-audit-log'];

/**
 * Rolls the database back to migration 010 and adds a former order with one pending change: agency
 * AG-<tag>, order ORD-<tag>, change CHG-<tag> due on 2026-02-01, on booking `reference`.
 */
async function formerOrderWithPendingChange(store: SqlStore, tag: string, reference: string): Promise<void> {
  const q = <T>(query: RawBuilder<T>) => query.execute(store.db);
  const [agency, order, changeId] = [`AG-${tag}`, `ORD-${tag}`, `CHG-${tag}`];
  await migrateToLatest(store);
  for (const name of [...AFTER_011, '011-order-records']) assert.deepEqual(await migrateDown(store), [`Down ${name}`]);
  await q(
    sql`insert into agencies (agency_id, name, created_at) values (${agency}, 'Former', '2026-01-01T00:00:00.000Z')`,
  );
  await q(sql`insert into orders (order_id, agency_id, currency, created_at, updated_at, version)
    values (${order}, ${agency}, 'EUR', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 3)`);
  await q(sql`insert into bookings (order_id, reference, position, status, cancellation, segments, passengers)
    values (${order}, ${reference}, 0, 'CONFIRMED', null, '[]', '[]')`);
  await q(sql`insert into airline_changes (change_id, order_id, reference, kind, detected_at, removed_segments,
    added_segments, status, created_at, resolved_at, action_deadline, consequence)
    values (${changeId}, ${order}, ${reference}, 'FLIGHT_CANCELLATION', '2026-01-02T00:00:00.000Z', '[]', '[]', 'PENDING',
    '2026-01-02T00:00:00.000Z', null, '2026-02-01T00:00:00.000Z', 'CANCEL')`);
}

/** Takes away, once upgraded, what `formerOrderWithPendingChange` added. */
async function removeFormerOrder(store: SqlStore, tag: string): Promise<void> {
  const q = <T>(query: RawBuilder<T>) => query.execute(store.db);
  await q(sql`delete from airline_change_timers where change_id = ${`CHG-${tag}`}`);
  await q(sql`update change_tallies set pending = 0`);
  await q(sql`delete from order_records where order_id = ${`ORD-${tag}`}`);
  await q(sql`delete from agencies where agency_id = ${`AG-${tag}`}`);
}

/** What the former tables' names are: tables up to migration 010, views of the records from 011. */
function formerKinds(store: SqlStore): Promise<(string | null)[]> {
  return Promise.all(
    ['orders', 'bookings', 'airline_changes', 'refunds'].map((name) =>
      engineSql(store.db).schema.relationKind(store.db as never, name),
    ),
  );
}

test(`migration 011 that fails part-way leaves the former tables as they were, and runs once mended, on ${testStoreKind()}`, async () => {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  const q = <T>(query: RawBuilder<T>) => query.execute(store.db);
  try {
    // A former order with one pending change, and a tally table that refuses a count of 1: the
    // upgrade copies the order into its record, then 011 makes the change's timer and fails as it
    // counts the pending changes. SQLite runs 011 in a transaction of its own, PostgreSQL in the
    // migrator's: either way the timer goes with it and the former tables stay.
    await formerOrderWithPendingChange(store, 'F11', 'FAU011');
    await q(sql`create table change_tallies (shard integer primary key, pending bigint not null check (pending <> 1))`);
    await assert.rejects(migrateToLatest(store));
    assert.deepEqual(await formerKinds(store), ['table', 'table', 'table', 'table'], 'the former tables, not views');
    const timers = await q(sql<{ n: number | string }>`select count(*) as n from airline_change_timers`);
    assert.equal(Number(timers.rows[0]!.n), 0, 'the timer 011 made went with it');
    const applied = await q(sql<{ name: string }>`select name from kysely_migration where name = '011-order-records'`);
    assert.deepEqual(applied.rows, []);

    await q(sql`drop table change_tallies`);
    assert.deepEqual(await migrateToLatest(store), UP.slice(UP.indexOf('Up 011-order-records')));
    const timer = await q(
      sql<{
        order_id: string;
        due_at: string;
      }>`select order_id, due_at from airline_change_timers where change_id = 'CHG-F11'`,
    );
    assert.deepEqual(
      timer.rows.map((row) => [row.order_id, row.due_at]),
      [['ORD-F11', '2026-02-01T00:00:00.000Z']],
    );
    await removeFormerOrder(store, 'F11');
  } finally {
    await store.close();
  }
});

test(`migration 011 run again after it committed but before the migrator noted it finds the records made and changes nothing, on ${testStoreKind()}`, async () => {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  const q = <T>(query: RawBuilder<T>) => query.execute(store.db);
  try {
    await formerOrderWithPendingChange(store, 'R11', 'RRR011');
    assert.deepEqual(await migrateToLatest(store), UP.slice(UP.indexOf('Up 011-order-records')));
    for (const name of AFTER_011) assert.deepEqual(await migrateDown(store), [`Down ${name}`]);
    const recorded = async () => ({
      records: (
        await q(
          sql<{
            version: number | string;
            record: unknown;
          }>`select version, record from order_records where order_id = 'ORD-R11'`,
        )
      ).rows.map((row) => ({ version: Number(row.version), record: String(row.record) })),
      timers: (await q(sql<{ due_at: string }>`select due_at from airline_change_timers where change_id = 'CHG-R11'`))
        .rows,
      pending: Number((await q(sql<{ n: number | string }>`select sum(pending) as n from change_tallies`)).rows[0]!.n),
    });
    const before = await recorded();
    assert.equal(before.records.length, 1);
    assert.deepEqual(before.timers, [{ due_at: '2026-02-01T00:00:00.000Z' }]);

    // The crash: 011's work committed, its row in the migrator's table never written.
    await q(sql`delete from kysely_migration where name = '011-order-records'`);
    assert.deepEqual(await migrateToLatest(store), UP.slice(UP.indexOf('Up 011-order-records')));
    for (const name of AFTER_011) assert.deepEqual(await migrateDown(store), [`Down ${name}`]);
    assert.deepEqual(await recorded(), before, 'the record, its timer and the tally as the first run left them');
    assert.deepEqual(await formerKinds(store), ['view', 'view', 'view', 'view']);

    await migrateToLatest(store);
    await removeFormerOrder(store, 'R11');
  } finally {
    await store.close();
  }
});

test(`migration 009 keeps the sign-in failures counted, and its rollback keeps the attempts, on ${testStoreKind()}`, async () => {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  try {
    await migrateToLatest(store);
    assert.deepEqual(await migrateDown(store), ['Down 015-kept-response-counts']);
    assert.deepEqual(await migrateDown(store), ['Down 014-refund-quotes']);
    assert.deepEqual(await migrateDown(store), ['Down 013-event-log']);
    assert.deepEqual(await migrateDown(store), ['Down 012-audit-log']);
    assert.deepEqual(await migrateDown(store), ['Down 011-order-records']);
    assert.deepEqual(await migrateDown(store), ['Down 010-token-last-use']);
    assert.deepEqual(await migrateDown(store), ['Down 009-sign-in-attempt-counts']);
    const failures = [
      ...['08:00', '08:01', '08:02'].map((minute) => ['email:desk@airline.example', `2026-11-25T${minute}:00.000Z`]),
      ...Array.from({ length: 25 }, () => ['address:10.0.0.9', '2026-11-25T08:03:00.000Z']),
    ];
    for (const [key, at] of failures)
      await sql`insert into operator_login_failures (failure_key, failed_at) values (${key}, ${at})`.execute(store.db);

    assert.deepEqual(await migrateToLatest(store), [
      'Up 009-sign-in-attempt-counts',
      'Up 010-token-last-use',
      'Up 011-order-records',
      'Up 012-audit-log',
      'Up 013-event-log',
      'Up 014-refund-quotes',
      'Up 015-kept-response-counts',
    ]);
    const counts = await sql<{
      attempt_key: string;
      window_started_at: string;
      attempts: number | string;
    }>`select attempt_key, window_started_at, attempts
      from operator_sign_in_attempts order by attempt_key`.execute(store.db);
    assert.deepEqual(
      counts.rows.map((row) => [row.attempt_key, row.window_started_at, Number(row.attempts)]),
      [
        ['address:10.0.0.9', '2026-11-25T08:03:00.000Z', 25],
        ['email:desk@airline.example', '2026-11-25T08:02:00.000Z', 3],
      ],
      "each key's failures, in a window from the latest",
    );

    assert.deepEqual(await migrateDown(store), ['Down 015-kept-response-counts']);
    assert.deepEqual(await migrateDown(store), ['Down 014-refund-quotes']);
    assert.deepEqual(await migrateDown(store), ['Down 013-event-log']);
    assert.deepEqual(await migrateDown(store), ['Down 012-audit-log']);
    assert.deepEqual(await migrateDown(store), ['Down 011-order-records']);
    assert.deepEqual(await migrateDown(store), ['Down 010-token-last-use']);
    assert.deepEqual(await migrateDown(store), ['Down 009-sign-in-attempt-counts']);
    const back = await sql<{
      failure_key: string;
      failed_at: string;
      failures: number | string;
    }>`select failure_key, failed_at, count(*) as failures
      from operator_login_failures group by failure_key, failed_at order by failure_key`.execute(store.db);
    assert.deepEqual(
      back.rows.map((row) => [row.failure_key, row.failed_at, Number(row.failures)]),
      [
        ['address:10.0.0.9', '2026-11-25T08:03:00.000Z', 20],
        ['email:desk@airline.example', '2026-11-25T08:02:00.000Z', 3],
      ],
      "as many failures as reach either limit, at the window's start",
    );
    assert.deepEqual(await migrateToLatest(store), [
      'Up 009-sign-in-attempt-counts',
      'Up 010-token-last-use',
      'Up 011-order-records',
      'Up 012-audit-log',
      'Up 013-event-log',
      'Up 014-refund-quotes',
      'Up 015-kept-response-counts',
    ]);
    await sql`delete from operator_sign_in_attempts`.execute(store.db);
  } finally {
    await store.close();
  }
});

test(`migration 015 counts the kept responses each agency has, and its rollback keeps them, on ${testStoreKind()}`, async () => {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  try {
    await migrateToLatest(store);
    assert.deepEqual(await migrateDown(store), ['Down 015-kept-response-counts']);
    // Kept under 014, one of them past its expiry: it is counted until the purge removes it.
    const kept = [
      ['AG1', 'cancel', 'a', '2026-11-26T10:00:00.000Z'],
      ['AG1', 'cancel', 'b', '2026-11-24T10:00:00.000Z'],
      ['AG1', 'refund', 'a', '2026-11-26T11:00:00.000Z'],
      ['AG2', 'cancel', 'a', '2026-11-26T12:00:00.000Z'],
    ];
    for (const [agencyId, operation, key, expiresAt] of kept)
      await sql`insert into idempotency_keys (agency_id, operation, idempotency_key, request_hash, response_status,
        response_body, request_id, created_at, expires_at)
        values (${agencyId}, ${operation}, ${key}, 'h', 200, '{}', 'r', '2026-11-25T10:00:00.000Z', ${expiresAt})`.execute(
        store.db,
      );
    assert.deepEqual(await migrateToLatest(store), ['Up 015-kept-response-counts']);
    const counts = async () =>
      (
        await sql<{ agency_id: string; kept: number | string }>`select agency_id, kept from kept_response_counts
          order by agency_id`.execute(store.db)
      ).rows.map((row) => [row.agency_id, Number(row.kept)]);
    assert.deepEqual(await counts(), [
      ['AG1', 3],
      ['AG2', 1],
    ]);
    assert.equal(await store.write((tx) => tx.purgeExpiredKeptResponses('2026-11-25T12:00:00.000Z')), 1);
    assert.deepEqual(await counts(), [
      ['AG1', 2],
      ['AG2', 1],
    ]);
    assert.deepEqual(await migrateDown(store), ['Down 015-kept-response-counts']);
    const left = await sql<{ n: number | string }>`select count(*) as n from idempotency_keys`.execute(store.db);
    assert.equal(Number(left.rows[0]!.n), 3, 'the kept responses stay');
    assert.deepEqual(await migrateToLatest(store), ['Up 015-kept-response-counts']);
    await sql`delete from idempotency_keys`.execute(store.db);
    await sql`delete from kept_response_counts`.execute(store.db);
  } finally {
    await store.close();
  }
});

test(`every operator command works on ${testStoreKind()}`, async () => {
  const migrated = await airorder(['migrate']);
  assert.equal(migrated.code, 0, migrated.stderr);

  const added = await airorder([
    'agency',
    'add',
    '--agency-id',
    'AGS1',
    '--name',
    'Store Travel',
    '--iata',
    '1234567',
    '--email',
    'desk@store.example',
  ]);
  assert.equal(added.code, 0, added.stderr);
  const duplicate = await airorder(['agency', 'add', '--agency-id', 'AGS1', '--name', 'Again']);
  assert.equal(duplicate.code, 1);
  assert.match(duplicate.stderr, /exists already/);

  const issued = await airorder(['token', 'issue', '--agency-id', 'AGS1', '--expires-in', '1h']);
  assert.equal(issued.code, 0, issued.stderr);
  const token = issued.stdout.trim();
  assert.match(token, /^aot_[A-Za-z0-9_-]{43}$/);

  const ndjson = [
    simpleOrder('ORD-S1', 'AGS1', 'STO001', '2200000000101'),
    simpleOrder('ORD-S2', 'AGS1', 'STO002', '2200000000102'),
  ]
    .map((document) => JSON.stringify(document))
    .join('\n');
  const imported = await airorder(['orders', 'import', '-'], ndjson);
  assert.equal(imported.code, 0, imported.stderr);
  assert.deepEqual(JSON.parse(imported.stdout), { imported: 2, replaced: 0 });
  const again = await airorder(['orders', 'import', '-'], ndjson);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /^error: line 1 \(order ORD-S1\): orderId ORD-S1 exists already/);
  const upserted = await airorder(['orders', 'import', '--upsert', '-'], ndjson);
  assert.deepEqual(JSON.parse(upserted.stdout), { imported: 2, replaced: 2 });

  const changes = JSON.stringify([change('AIC-S1', 'ORD-S1', 'STO001', ['S1'], [segment('S1B', 1, 14)])]);
  const changed = await airorder(['changes', 'import', '-'], changes);
  assert.deepEqual(JSON.parse(changed.stdout), { imported: 1, alreadyKnown: 0 });
  const resent = await airorder(['changes', 'import', '-'], changes);
  assert.deepEqual(JSON.parse(resent.stdout), { imported: 0, alreadyKnown: 1 });

  const shown = JSON.parse((await airorder(['orders', 'show', 'ORD-S1'])).stdout);
  assert.equal(shown.currency, 'EUR');
  assert.equal(shown.bookings[0].status, 'CONFIRMED');
  assert.deepEqual(
    shown.bookings[0].changes.map((item: { changeId: string; status: string }) => [item.changeId, item.status]),
    [['AIC-S1', 'PENDING']],
  );
  assert.equal(shown.bookings[0].passengers[0].ticket.coupons[0].value, '570.50');

  const revoked = await airorder(['token', 'revoke', token]);
  assert.equal(revoked.code, 0, revoked.stderr);
  const unknown = await airorder(['token', 'revoke', 'aot_unknown']);
  assert.equal(unknown.code, 1);

  const demo = await airorder(['demo', '--orders', '3']);
  assert.equal(demo.code, 0, demo.stderr);
  const summary = JSON.parse(demo.stdout);
  assert.equal(summary.orders, 3);
  assert.match(summary.token, /^aot_/);
  const demoOrder = JSON.parse((await airorder(['orders', 'show', 'DEMO-000003'])).stdout);
  assert.equal(demoOrder.agencyId, 'DEMO01');
});

test(`amounts whose sums would pass 10^15 - 1 minor units are refused in one line, storing nothing, on ${testStoreKind()}`, async () => {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  try {
    const limit =
      'more than 9999999999999.99 EUR (999999999999999 minor units), the largest sum the service keeps exact';
    const atMost = 'must be at most 9999999999999.99 EUR (999999999999999 minor units)';
    const ticket = (ticketNumber: string, baseFare: string, taxes: string) => ({
      ticketNumber,
      baseFare,
      taxes,
      coupons: [{ segmentId: 'S1' }],
    });
    const twoTickets = (orderId: string, reference: string, fare: string) =>
      order(orderId, 'AGS1', 'EUR', [
        booking(
          reference,
          [segment('S1')],
          [
            passenger('P1', ticket('2200000000911', fare, '0.00')),
            passenger('P2', ticket('2200000000912', fare, '0.00')),
          ],
        ),
      ]);
    const before = await snapshotAllTables(store.db);
    // The finding's documents: two tickets of 2^53 - 1 minor units; baseFare and taxes of half that. Each amount is past the bound.
    const tooMuch = await airorder(
      ['orders', 'import', '-'],
      JSON.stringify(twoTickets('ORD-BIG', 'BIG001', '90071992547409.91')),
    );
    assert.equal(tooMuch.code, 1);
    assert.equal(
      tooMuch.stderr,
      `error: line 1 (order ORD-BIG): bookings[0].passengers[0].ticket.baseFare ${atMost}, got "90071992547409.91"\n`,
    );
    const halves = order('ORD-HALF', 'AGS1', 'EUR', [
      booking(
        'HALF01',
        [segment('S1')],
        [passenger('P1', ticket('2200000000901', '45035996273704.96', '45035996273704.96'))],
      ),
    ]);
    const tooMuchTicket = await airorder(['orders', 'import', '-'], JSON.stringify([halves]));
    assert.equal(tooMuchTicket.code, 1);
    assert.equal(
      tooMuchTicket.stderr,
      `error: record 1 (order ORD-HALF): bookings[0].passengers[0].ticket.baseFare ${atMost}, got "45035996273704.96"\n`,
    );
    // The same at this bound: each amount fits, their sums do not.
    const tooMuchBooking = await airorder(
      ['orders', 'import', '-'],
      JSON.stringify(twoTickets('ORD-BIG', 'BIG001', '9999999999999.99')),
    );
    assert.equal(tooMuchBooking.code, 1);
    assert.equal(
      tooMuchBooking.stderr,
      `error: line 1 (order ORD-BIG): bookings[0].passengers[1].ticket brings the tickets of its booking to ${limit}\n`,
    );
    const fives = order('ORD-HALF', 'AGS1', 'EUR', [
      booking(
        'HALF01',
        [segment('S1')],
        [passenger('P1', ticket('2200000000901', '5000000000000.00', '5000000000000.00'))],
      ),
    ]);
    const tooMuchTotal = await airorder(['orders', 'import', '-'], JSON.stringify([fives]));
    assert.equal(tooMuchTotal.code, 1);
    assert.equal(
      tooMuchTotal.stderr,
      `error: record 1 (order ORD-HALF): bookings[0].passengers[0].ticket has baseFare + taxes of ${limit}\n`,
    );
    assert.deepEqual(await snapshotAllTables(store.db), before);

    // An order stored before imports bounded amounts (written here through SQL): changes import refuses the file.
    assert.equal(
      (await airorder(['orders', 'import', '-'], JSON.stringify(twoTickets('ORD-OLD', 'OLD001', '1.00')))).code,
      0,
    );
    const {
      rows: [row],
    } = await sql<{ passengers: string }>`select passengers from bookings where order_id = 'ORD-OLD'`.execute(store.db);
    const storeTickets = async (minor: number) => {
      const passengers = JSON.parse(row!.passengers) as {
        ticket: { baseFare: number; coupons: { value: number }[] };
      }[];
      for (const { ticket: stored } of passengers) {
        stored.baseFare = minor;
        stored.coupons[0]!.value = minor;
      }
      await setStoredBookingMember(store.db, 'ORD-OLD', 0, 'passengers', JSON.stringify(passengers));
    };
    const file = JSON.stringify([
      change('AIC-FINE', 'ORD-S2', 'STO002', ['S1'], [segment('S1B', 1, 14)]),
      change('AIC-OLD', 'ORD-OLD', 'OLD001', ['S1'], [], 'FLIGHT_CANCELLATION'),
    ]);
    const refusal = (problem: string) =>
      `error: record 2 (order ORD-OLD): orderId ORD-OLD was stored before imports bounded its amounts: in booking OLD001, ${problem}; correct the order and import it again (orders import --upsert)\n`;
    // Before any bound: two tickets of 2^53 - 1 minor units. Under the earlier bound (2^53 - 1): two of 5000000000000.00 EUR.
    for (const [minor, problem] of [
      [Number.MAX_SAFE_INTEGER, `passengers[0].ticket has baseFare + taxes of ${limit}`],
      [500_000_000_000_000, `passengers[1].ticket brings the tickets of its booking to ${limit}`],
    ] as const) {
      await storeTickets(minor);
      const stored = await snapshotAllTables(store.db);
      const changed = await airorder(['changes', 'import', '-'], file);
      assert.equal(changed.code, 1);
      assert.equal(changed.stderr, refusal(problem));
      assert.deepEqual(await snapshotAllTables(store.db), stored);
    }
  } finally {
    await store.close();
  }
});
