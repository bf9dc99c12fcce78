import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asNdjson, CliSandbox, type ServeProcess } from '../helpers/cli.js';
import { bearer, cancelRQ, involuntaryCancelRQ } from '../helpers/documents.js';
import {
  assertRaceOutcome,
  openStoreAt,
  raceFixture,
  refundRowCount,
  storedBooking,
  ticketsRefundedTwice,
  type RaceBooking,
  type RaceFixture,
  type RaceKind,
} from '../helpers/cancel-race.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * docs/contract.md §8.2 and §8.4: separate service processes on one database (the store that TEST_STORE
 * names) serialise concurrent requests on an order between them. Voluntary and involuntary cancels
 * of the same bookings arrive at both processes at once; every booking must end in one consistent
 * state, with one refund per ticket at most, and every answer must agree with it.
 */
const sandbox = new CliSandbox();
let database: TestDatabase | null = null;
let token = '';
// Two independent sets of orders: one for two `serve` processes, one for `serve --workers 2`.
const separate = raceFixture('MP', 'AG1', 5, 1);
const workers = raceFixture('WK', 'AG1', 5, 2);
const REQUESTS_PER_BOOKING = 8;
// Bursts of one token are the point here, not the per-token rate limit.
const NO_RATE_LIMIT = { RATE_LIMIT_PER_SECOND: '0' };

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write('orders.ndjson', asNdjson([...separate.orders, ...workers.orders])),
  ]);
  await sandbox.ok([
    'changes',
    'import',
    sandbox.write('changes.ndjson', asNdjson([...separate.changes, ...workers.changes])),
  ]);
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

interface Sent {
  target: RaceBooking;
  kind: RaceKind;
  server: ServeProcess;
}

/**
 * REQUESTS_PER_BOOKING requests per booking, all sent at once. Every third booking gets involuntary
 * cancels only; the others alternate voluntary and involuntary, starting with either. Requests on a
 * booking alternate between the servers given.
 */
function plan(fixture: RaceFixture, servers: ServeProcess[]): Sent[] {
  const sent: Sent[] = [];
  for (let r = 0; r < REQUESTS_PER_BOOKING; r += 1) {
    fixture.bookings.forEach((target, b) => {
      const kind: RaceKind = b % 3 === 0 || (r + b) % 2 === 0 ? 'involuntary' : 'cancel';
      sent.push({ target, kind, server: servers[(r + b) % servers.length]! });
    });
  }
  return sent;
}

async function race(fixture: RaceFixture, servers: ServeProcess[]): Promise<void> {
  const sent = plan(fixture, servers);
  const responses = await Promise.all(
    sent.map(({ target, kind, server }) =>
      kind === 'cancel'
        ? server.post('/AirOrderCancel', cancelRQ(target.orderId, [target.reference]), bearer(token))
        : server.post(
            '/AirOrderInvoluntaryCancel',
            involuntaryCancelRQ(target.orderId, [target.reference]),
            bearer(token),
          ),
    ),
  );

  responses.forEach((response, i) =>
    assert.equal(response.status, 200, `${sent[i]!.kind} ${sent[i]!.target.reference}: ${response.text}`),
  );
  const store = openStoreAt(database!.url);
  try {
    let involuntarilyCancelled = 0;
    for (const [b, target] of fixture.bookings.entries()) {
      const answers = sent.flatMap((request, i) =>
        request.target === target
          ? [
              {
                kind: request.kind,
                item:
                  request.kind === 'cancel'
                    ? responses[i]!.body.OrderViewRS.Response[0]
                    : responses[i]!.body.OrderInvoluntaryCancelRS.Result[0],
              },
            ]
          : [],
      );
      assert.equal(answers.length, REQUESTS_PER_BOOKING);
      const stored = await storedBooking(store, target);
      assertRaceOutcome(stored, target, answers);
      if (b % 3 === 0)
        assert.equal(stored.cancellation, 'INVOLUNTARY', `${target.reference} had involuntary cancels only`);
      if (stored.cancellation === 'INVOLUNTARY') involuntarilyCancelled += 1;
    }
    assert.deepEqual(await ticketsRefundedTwice(store), [], 'no ticket has more than one refund row');
    assert.equal(
      await refundRowCount(store, fixture.bookings),
      involuntarilyCancelled * 2,
      'refund rows exist only for involuntarily cancelled bookings',
    );
  } finally {
    await store.close();
  }
}

/** Fastify's "Server listening" lines on the process's standard output. */
function listeningLines(server: ServeProcess): number {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.includes('Server listening')).length;
}

/** The processes that logged a served request, from the JSON lines on standard output. */
function requestPids(server: ServeProcess): Set<number> {
  return new Set(
    server
      .stdout()
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        try {
          const entry = JSON.parse(line) as { msg?: string; pid?: number };
          return entry.msg === 'request' && entry.pid ? [entry.pid] : [];
        } catch {
          return [];
        }
      }),
  );
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test(
  `two serve processes on one ${testStoreKind()} database: parallel cancels of the same bookings stay consistent`,
  { timeout: scaled(90_000) },
  async () => {
    const servers = await Promise.all([
      sandbox.serve([], { env: NO_RATE_LIMIT }),
      sandbox.serve([], { env: NO_RATE_LIMIT }),
    ]);
    assert.notEqual(servers[0]!.child.pid, servers[1]!.child.pid);
    await race(separate, servers);
    for (const server of servers) assert.equal(server.child.exitCode, null, `serve exited: ${server.stderr()}`);
  },
);

test(
  `serve --workers 2 on one ${testStoreKind()} database: parallel cancels of the same bookings stay consistent`,
  { timeout: scaled(90_000) },
  async () => {
    const server = await sandbox.serve(['--workers', '2'], { env: NO_RATE_LIMIT });
    await waitFor(() => listeningLines(server) >= 2, 'both workers to listen');
    await race(workers, [server]);

    // Each worker writes its log lines in chunks, at the latest every 200 ms: wait for both to have written.
    await waitFor(() => requestPids(server).size >= 2, 'request log lines from both worker processes', 10_000).catch(
      () => {},
    );
    const pids = requestPids(server);
    assert.equal(pids.size, 2, `requests were served by both worker processes: ${[...pids].join(', ')}`);
    // The workers share one standard output: no line may be cut by another process's write.
    const written = server.stdout();
    const lines = written.slice(0, written.lastIndexOf('\n')).split('\n').filter(Boolean);
    const whole = lines.filter((line) => {
      try {
        JSON.parse(line);
        return true;
      } catch {
        return false;
      }
    });
    assert.deepEqual(
      lines.filter((line) => !whole.includes(line)),
      [],
      'every line on standard output is one whole JSON log line',
    );

    server.child.kill('SIGTERM');
    const exit = await Promise.race([
      server.exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), scaled(15_000))),
    ]);
    assert.deepEqual(exit, { code: 0, signal: null }, 'serve --workers 2 stops gracefully on SIGTERM');
  },
);
