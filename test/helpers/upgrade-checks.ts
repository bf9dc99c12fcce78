/**
 * What the upgrade of a database of the former schema (former-database.ts) must leave, checked
 * through the SQL state, the API and the console, and the state a killed upgrade may leave.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { engineSql } from '../../src/store/engine-sql.js';
import { openStore } from '../../src/store/open-store.js';
import { PROJECT_ROOT, type CliSandbox } from './cli.js';
import { ConsoleClient } from './console-client.js';
import { seededRandom } from './seeded-random.js';
import { readFeeds, retrieveAll, SERVE_ENV, snapshot, stop, type FormerDatabase } from './former-database.js';
import { mutationHookOptions } from './mutation-hook.js';
import { scaled } from './time-scale.js';
import { TEST_DATABASE_ENV } from './test-database.js';

/** Every table of the former database is still there with the same rows: the four former tables as views of the records. */
async function assertSameRows(sandbox: CliSandbox, former: FormerDatabase): Promise<void> {
  const after = await snapshot(sandbox.databaseUrl);
  for (const [table, rows] of former.tables) {
    if (table.startsWith('kysely_')) continue;
    assert.deepEqual(after.get(table), rows, `${table}: the same rows after the upgrade`);
  }
  const pending = (former.tables.get('airline_changes') ?? [])
    .map((row) => JSON.parse(row))
    .filter((row) => row.status === 'PENDING');
  assert.ok(pending.length > 0, 'the former database has pending changes');
  const timers = new Map(
    (after.get('airline_change_timers') ?? []).map((row) => JSON.parse(row)).map((row) => [row.change_id, row]),
  );
  for (const change of pending)
    assert.equal(
      timers.get(change.change_id)?.due_at,
      change.action_deadline,
      `${change.change_id}: its deadline is a timer`,
    );
  assert.equal(timers.size, former.tables.get('airline_changes')!.length, 'a timer for every change');
  assert.equal(after.get('order_records')!.length, former.orders.length, 'one record per order');
}

/** Checks the upgraded database, then serves it: every order, feed and the console session answer as before. */
export async function assertUpgraded(sandbox: CliSandbox, former: FormerDatabase): Promise<void> {
  await assertSameRows(sandbox, former);
  const server = await sandbox.serve([], { env: SERVE_ENV });
  try {
    const retrieved = await retrieveAll(server, former.orders, former.tokens);
    assert.equal(retrieved.size, former.retrieved.size);
    for (const [orderId, text] of former.retrieved)
      assert.equal(retrieved.get(orderId), text, `${orderId}: retrieved byte for byte as before`);
    assert.deepEqual(
      await readFeeds(server, former.tokens, sandbox.databaseUrl),
      former.feeds,
      "each agency's event feed as before",
    );
    const desk = new ConsoleClient(server.baseUrl, { cookie: former.consoleCookies });
    const page = await desk.request(`/console/orders/${former.orders[0]!.orderId}`);
    assert.equal(page.status, 200, "the operator's console session is still valid");
    assert.match(page.text, /CHG-000000-1/);
  } finally {
    await stop(server);
  }
}

/** The order ids of the records, the former schema's state, and 011's note, as a killed upgrade left them. */
export async function upgradeState(
  databaseUrl: string,
): Promise<{ records: string[]; bookings: 'table' | 'view' | null; migrated: boolean }> {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: databaseUrl }));
  const db = store.db as unknown as Kysely<unknown>;
  try {
    const { schema } = engineSql(store.db);
    const records =
      (await schema.relationKind(db, 'order_records')) === 'table'
        ? (await sql<{ order_id: string }>`select order_id from order_records order by order_id`.execute(db)).rows.map(
            (row) => row.order_id,
          )
        : [];
    const notes = await sql<{
      name: string;
    }>`select name from kysely_migration where name = '011-order-records'`.execute(db);
    return { records, bookings: await schema.relationKind(db, 'bookings'), migrated: notes.rows.length === 1 };
  } finally {
    await store.close();
  }
}

export interface MigrateProcess {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `airorder migrate` as a child process on the sandbox's database, to be killed at a chosen moment. */
export function startMigrate(sandbox: CliSandbox): MigrateProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_OPTIONS', 'PORT', 'HOST', 'DURABILITY']) delete env[name];
  Object.assign(env, mutationHookOptions());
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'airorder.js'), 'migrate'], {
    cwd: sandbox.dir,
    env: { ...env, DATABASE_URL: sandbox.databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stderr: () => stderr, exited };
}

/** The copied counts of the progress lines written so far (`…: 1,000 of 4,000 (25%)`). */
export function progressCounts(stderr: string): { copied: number; total: number }[] {
  return [...stderr.matchAll(/orders copied into records: ([\d,]+) of ([\d,]+)/g)].map((match) => ({
    copied: Number(match[1]!.replace(/,/g, '')),
    total: Number(match[2]!.replace(/,/g, '')),
  }));
}

export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + scaled(timeoutMs); !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * What a kill may leave: whole batches of records, the first orders by id, beside the former tables;
 * or, once 011 is noted, views over every order's record.
 */
export async function assertKilledState(
  databaseUrl: string,
  orderIds: readonly string[],
  batch: number,
): Promise<number> {
  const state = await upgradeState(databaseUrl);
  if (state.migrated) {
    assert.equal(state.bookings, 'view');
    assert.deepEqual(state.records, orderIds);
    return state.records.length;
  }
  // The one moment 011 committed but Kysely had not noted it yet (SQLite) leaves the views: 011 runs again.
  if (state.bookings === 'table') {
    assert.ok(
      state.records.length % batch === 0 || state.records.length === orderIds.length,
      `whole batches only: ${state.records.length}`,
    );
  }
  assert.deepEqual(state.records, orderIds.slice(0, state.records.length), 'the first orders by id, each once');
  return state.records.length;
}

/**
 * Kills `airorder migrate` with SIGKILL, first once a batch has been committed (the next run must say
 * it starts from there), then at random moments from `seed`, checking after each kill what it left;
 * then lets `airorder serve` finish the upgrade. Returns how many runs were killed.
 */
export async function killUntilUpgraded(
  sandbox: CliSandbox,
  former: FormerDatabase,
  seed: number,
  batch: number,
): Promise<number> {
  const random = seededRandom(seed);
  const orderIds = former.orders.map((o) => o.orderId).sort();
  const first = startMigrate(sandbox);
  await waitUntil(() => progressCounts(first.stderr()).some((line) => line.copied > 0), 'a first batch copied');
  first.child.kill('SIGKILL');
  assert.equal((await first.exited).signal, 'SIGKILL');
  let copied = await assertKilledState(sandbox.databaseUrl, orderIds, batch);
  assert.ok(copied > 0 && copied < orderIds.length, `a first batch copied, not all: ${copied}`);
  let kills = 1;
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const run = startMigrate(sandbox);
    // The first line, before any batch of this run, says where the copy resumes.
    await waitUntil(
      () => progressCounts(run.stderr()).length > 0 || run.child.exitCode !== null,
      'the first progress line',
    );
    const [resumed] = progressCounts(run.stderr());
    if (resumed)
      assert.deepEqual(resumed, { copied, total: orderIds.length }, 'the copy resumes after the batches committed');
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 60)));
    run.child.kill('SIGKILL');
    const exit = await run.exited;
    if (exit.code === 0) break;
    kills += 1;
    copied = await assertKilledState(sandbox.databaseUrl, orderIds, batch);
    if (copied === orderIds.length) break;
  }
  // `serve` upgrades as `migrate` does, showing the same progress from where the copy stopped.
  const state = await upgradeState(sandbox.databaseUrl);
  const server = await sandbox.serve([], { env: SERVE_ENV });
  await stop(server);
  const lines = progressCounts(server.stderr());
  if (!state.migrated && state.bookings === 'table')
    assert.deepEqual(lines[0], { copied: state.records.length, total: orderIds.length }, server.stderr());
  if (lines.length > 0) assert.equal(lines.at(-1)!.copied, orderIds.length);
  return kills;
}
