/**
 * `startServer` called in process: what it makes ready before it answers, and how `stop` closes.
 * What only a process shows (signals, the exit and its status, the log's lines) is in
 * test/cli/shutdown.test.ts and the other files that run `airorder serve`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, mock, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { HALF_REQUEST, waitFor } from '../helpers/held-connections.js';
import { scaled } from '../helpers/time-scale.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-server-start-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const configOf = (name: string) =>
  loadConfig({ LOG_LEVEL: 'silent' }, { DATABASE_URL: `sqlite:${path.join(dir, name)}`, PORT: '0', HOST: '127.0.0.1' });

/** The migrations recorded in the database file, read beside the service. */
function migrationsIn(name: string): number {
  const db = new SqliteDatabase(path.join(dir, name), { readonly: true });
  try {
    const table = db.prepare("select name from sqlite_master where name = 'kysely_migration'").get();
    return table ? (db.prepare('select count(*) as n from kysely_migration').get() as { n: number }).n : 0;
  } finally {
    db.close();
  }
}

/** A connection to `port` once it is open. */
function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on `socket` until it closes it. */
function untilClosed(socket: net.Socket): Promise<string> {
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(received)));
}

test('an empty database is migrated before the service answers, at the address it returns', async () => {
  const server = await startServer(configOf('fresh.db'));
  try {
    assert.match(server.address, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(migrationsIn('fresh.db') > 0, 'the migrations ran');
    const ready = await fetch(`${server.address}/readyz`);
    assert.deepEqual([ready.status, await ready.json()], [200, { status: 'ready' }]);
  } finally {
    await server.stop();
  }
  // Closed, the store leaves the whole database in its file: the write-ahead log is folded back and removed.
  assert.equal(fs.existsSync(path.join(dir, 'fresh.db-wal')), false);
});

test('told not to migrate, it leaves the database as it is', async () => {
  const server = await startServer(configOf('unmigrated.db'), { migrate: false });
  try {
    assert.equal(migrationsIn('unmigrated.db'), 0);
  } finally {
    await server.stop();
  }
});

test('stop ends idle and half-sent connections at once, lets a request in flight finish, then stops listening', async () => {
  const server = await startServer(configOf('stop.db'));
  const port = Number(new URL(server.address).port);
  // Sent all of a request but its body: in flight until the body comes.
  const inFlight = await connect(port);
  const inFlightAnswer = untilClosed(inFlight);
  inFlight.write(
    'POST /AirOrderRetrieve HTTP/1.1\r\nHost: airorder\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
  );
  // Only part of a request's headers.
  const half = await connect(port);
  const halfAnswer = untilClosed(half);
  half.write(HALF_REQUEST);
  // Answered, then kept open for the next request.
  const idle = await connect(port);
  const idleAnswer = untilClosed(idle);
  idle.write('GET /healthz HTTP/1.1\r\nHost: airorder\r\n\r\n');
  await new Promise<void>((resolve) => idle.once('data', () => resolve()));

  const stopping = server.stop();
  assert.equal(server.stop(), stopping, 'a second stop is the same stop');
  assert.equal(await halfAnswer, '', 'the half-sent request is closed without an answer');
  assert.match(await idleAnswer, /^HTTP\/1\.1 200 /);
  assert.equal(inFlight.destroyed, false, 'the request in flight is still open');
  inFlight.write('{}');
  assert.match(await inFlightAnswer, /^HTTP\/1\.1 401 /, 'and is answered');
  await stopping;
  await assert.rejects(connect(port), { code: 'ECONNREFUSED' });
});

// The purge's schedule, with the process's interval timers mocked (Node's MockTimers): what a running
// service does every ten minutes (docs/decisions.md, "Events are kept 30 days"), without waiting ten.
test('while the service runs, the purge runs every ten minutes, not sooner', async () => {
  mock.timers.enable({ apis: ['setInterval'] });
  const server = await startServer(configOf('purge.db'));
  const db = new SqliteDatabase(path.join(dir, 'purge.db'));
  try {
    db.prepare(
      `insert into idempotency_keys (agency_id, operation, idempotency_key, request_hash, response_status,
         response_body, request_id, created_at, expires_at)
       values ('AGX', 'AirOrderCancel', 'expired-key', 'hash', 200, '{}', 'req', ?, ?)`,
    ).run('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
    const kept = () => (db.prepare('select count(*) as n from idempotency_keys').get() as { n: number }).n;
    mock.timers.tick(10 * 60_000 - 1);
    // A pass, had one started, is a write of the store's: given time to finish before looking.
    await new Promise((resolve) => setTimeout(resolve, scaled(500)));
    assert.equal(kept(), 1, 'no pass before ten minutes');
    mock.timers.tick(1);
    await waitFor(() => kept() === 0, 'the expired response removed by the pass at ten minutes');
  } finally {
    db.close();
    mock.timers.reset();
    await server.stop();
  }
});
