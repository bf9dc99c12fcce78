import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { startPostgresCluster, type PostgresCluster } from '../../scripts/postgres-cluster.js';
import { asNdjson, CliSandbox, httpJson, type HttpResult, type ServeProcess } from '../helpers/cli.js';
import { bearer, cancelRQ, involuntaryCancelRQ } from '../helpers/documents.js';
import {
  assertInvoluntarilyCancelled,
  assertVoluntarilyCancelled,
  cancelItem,
  openStoreAt,
  raceFixture,
  refundItem,
  storedBooking,
  ticketsRefundedTwice,
  type RaceBooking,
} from '../helpers/cancel-race.js';
import { testStoreKind } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * docs/contract.md §9: with the database away, the service answers 503 UNAVAILABLE with Retry-After, quickly,
 * never hangs, and recovers by itself when the database is back. PostgreSQL is shut down under
 * traffic on a cluster of this file's own (the shared one serves other files meanwhile) and started
 * again on the same data; the service process keeps running throughout.
 */
const POSTGRES = testStoreKind() === 'postgres';
const OPTIONS = POSTGRES ? { timeout: scaled(150_000) } : { skip: 'PostgreSQL only: runs in the postgres group' };

/**
 * How long a client waits for an answer: a limit on waiting, not an assertion. The outage lasts until
 * every request sent during it has been answered, so a request that waited for the database to come
 * back would never be answered and fail the test here.
 */
const CLIENT_TIMEOUT_MS = scaled(10_000);
const IN_FLIGHT = 4;
const PAUSE_BETWEEN_REQUESTS_MS = 25;

let cluster: PostgresCluster | null = null;
let sandbox: CliSandbox | null = null;
let token = '';
const fixture = raceFixture('PO', 'AG1', 40, 3);
/** Half the bookings are cancelled voluntarily, half involuntarily, alternating. */
const operationOf = (target: RaceBooking) => (fixture.bookings.indexOf(target) % 2 === 0 ? 'involuntary' : 'cancel');

before(async () => {
  if (!POSTGRES) return;
  cluster = await startPostgresCluster();
  const admin = new pg.Client(cluster.url);
  await admin.connect();
  try {
    await admin.query('create database outage');
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = '/outage';
  sandbox = new CliSandbox();
  sandbox.useDatabase(url.toString());
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson(fixture.orders))]);
  await sandbox.ok(['changes', 'import', sandbox.write('changes.ndjson', asNdjson(fixture.changes))]);
});

after(async () => {
  await sandbox?.cleanup();
  await cluster?.stop();
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: () => string,
  limitMs: number,
): Promise<void> {
  const timeoutMs = scaled(limitMs);
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await sleep(50);
  }
}

/** Where the outage stands: `down` from PostgreSQL's shutdown until the test starts it again. */
type Phase = 'up' | 'down' | 'back';
let phase: Phase = 'up';

interface Attempt {
  target: RaceBooking;
  sentAt: number;
  /** The outage's phase when the request was sent, and when its answer (or failure) arrived. */
  sentIn: Phase;
  answeredIn: Phase;
  response: HttpResult | null;
  error: string | null;
}

const rootOf = (target: RaceBooking) => (operationOf(target) === 'cancel' ? 'OrderViewRS' : 'OrderInvoluntaryCancelRS');
const itemOf = (target: RaceBooking, response: HttpResult): any =>
  operationOf(target) === 'cancel'
    ? response.body?.OrderViewRS?.Response?.[0]
    : response.body?.OrderInvoluntaryCancelRS?.Result?.[0];
const isAcknowledged = (attempt: Attempt) =>
  attempt.response?.status === 200 && itemOf(attempt.target, attempt.response)?.Status === 'SUCCESS';

/**
 * Sends each booking's operation with IN_FLIGHT requests at a time, and sends it again later until
 * it is acknowledged (200 SUCCESS), as an agency retrying after 503 would.
 */
class Traffic {
  readonly attempts: Attempt[] = [];
  readonly acknowledged = new Map<RaceBooking, Attempt>();
  private readonly queue: RaceBooking[];
  private running = true;
  private holding = false;
  private inFlight = 0;
  private readonly workers: Promise<void>[];

  constructor(
    private readonly server: ServeProcess,
    targets: RaceBooking[],
  ) {
    this.queue = [...targets];
    this.workers = Array.from({ length: IN_FLIGHT }, () => this.work());
  }

  /** How many answers of each kind so far, for failure messages. */
  summary(): string {
    const counts = new Map<string, number>();
    for (const attempt of this.attempts) {
      const key =
        attempt.error ??
        `${attempt.response!.status} ${attempt.response!.body?.[rootOf(attempt.target)]?.Errors?.[0]?.Code ?? 'SUCCESS'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const errorLines = this.server
      .stdout()
      .split('\n')
      .filter((line) => /"level":[56]0/.test(line))
      .slice(0, 2);
    return `${this.acknowledged.size} acknowledged; answers: ${JSON.stringify(Object.fromEntries(counts))}; service errors: ${errorLines.join('\n') || 'none'}`;
  }

  get unacknowledged(): number {
    return fixture.bookings.length - this.acknowledged.size;
  }

  private async work(): Promise<void> {
    while (this.running) {
      const target = this.holding ? undefined : this.queue.shift();
      if (!target) {
        await sleep(PAUSE_BETWEEN_REQUESTS_MS);
        continue;
      }
      this.inFlight += 1;
      const attempt = await this.send(target);
      this.inFlight -= 1;
      this.attempts.push(attempt);
      if (isAcknowledged(attempt)) this.acknowledged.set(target, attempt);
      else this.queue.push(target);
      await sleep(PAUSE_BETWEEN_REQUESTS_MS);
    }
  }

  private async send(target: RaceBooking): Promise<Attempt> {
    const [pathName, body] =
      operationOf(target) === 'cancel'
        ? ['/AirOrderCancel', cancelRQ(target.orderId, [target.reference])]
        : ['/AirOrderInvoluntaryCancel', involuntaryCancelRQ(target.orderId, [target.reference])];
    const sentAt = Date.now();
    const sentIn = phase;
    try {
      const response = await httpJson(this.server.baseUrl + pathName, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      return { target, sentAt, sentIn, answeredIn: phase, response, error: null };
    } catch (error) {
      return { target, sentAt, sentIn, answeredIn: phase, response: null, error: String(error) };
    }
  }

  /** Sends nothing more until release(), and returns once every request sent has its answer. */
  async hold(): Promise<void> {
    this.holding = true;
    await waitFor(
      () => this.inFlight === 0,
      () => `the requests in flight to be answered: ${this.summary()}`,
      CLIENT_TIMEOUT_MS * 2,
    );
  }

  release(): void {
    this.holding = false;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }
}

async function readiness(
  server: ServeProcess,
): Promise<{ status: number; sentIn: Phase; answeredIn: Phase; response: HttpResult }> {
  const sentIn = phase;
  try {
    const response = await httpJson(`${server.baseUrl}/readyz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    return { status: response.status, sentIn, answeredIn: phase, response };
  } catch (error) {
    const state = server.child.exitCode ?? server.child.signalCode ?? 'running';
    throw new Error(
      `GET /readyz got no answer (${String(error)}); serve is ${state}; its stderr:\n${server.stderr()}\nstdout (end):\n${server.stdout().slice(-3000)}`,
      { cause: error },
    );
  }
}

/** A 503 in the operation's envelope: UNAVAILABLE, no Success, the item FAILED, and Retry-After. */
function assertUnavailableAnswer(attempt: Attempt): void {
  const { target, response } = attempt;
  const where = `${operationOf(target)} ${target.reference}: ${response!.text}`;
  assert.equal(response!.status, 503, where);
  assert.match(response!.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/, `Retry-After on ${where}`);
  const rs = response!.body?.[rootOf(target)];
  assert.ok(rs, `the operation's envelope on ${where}`);
  assert.deepEqual(
    rs.Errors.map((error: any) => error.Code),
    ['UNAVAILABLE'],
    where,
  );
  assert.equal('Success' in rs, false, where);
  assert.equal(typeof rs.ShoppingResponseId, 'string', where);
  const item = itemOf(target, response!);
  assert.equal(item.Status, 'FAILED', where);
  assert.match(operationOf(target) === 'cancel' ? item.Msg : item.ErrorMsg, /^UNAVAILABLE: /, where);
}

test(
  'PostgreSQL shut down under traffic: 503 UNAVAILABLE with Retry-After while it is down, then recovery without a restart and nothing lost or doubled',
  OPTIONS,
  async () => {
    phase = 'up';
    const server = await sandbox!.serve([], { env: { RATE_LIMIT_PER_SECOND: '0' } });
    let exited = false;
    void server.exited.then(() => {
      exited = true;
    });
    assert.equal((await readiness(server)).status, 200);

    const traffic = new Traffic(server, fixture.bookings);
    let readyAt = 0;
    try {
      await waitFor(
        () => traffic.acknowledged.size >= 8,
        () => `the first acknowledgements: ${traffic.summary()}`,
        20_000,
      );

      await cluster!.pause();
      phase = 'down';
      assert.ok(traffic.unacknowledged > 0, 'bookings are left to act on while PostgreSQL is down');
      // Down: readiness and every operation answer 503 without waiting for PostgreSQL to come back.
      const readyWhileDown = [];
      for (let i = 0; i < 5; i += 1) {
        readyWhileDown.push(await readiness(server));
        await sleep(500);
      }
      for (const probe of readyWhileDown) {
        assert.equal(probe.status, 503, `/readyz while PostgreSQL is down: ${probe.response.text}`);
        assert.equal(probe.answeredIn, 'down', '/readyz answered while PostgreSQL was still down');
        assert.match(probe.response.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
        assert.equal(probe.response.body?.Errors?.[0]?.Code, 'UNAVAILABLE');
      }

      // The outage ends only once every request sent during it has its answer.
      await traffic.hold();
      phase = 'back';
      await cluster!.resume();
      traffic.release();
      // Up again: the same process becomes ready by itself, then every request succeeds.
      await waitFor(
        async () => (await readiness(server)).status === 200,
        () => `/readyz to answer 200 again: ${traffic.summary()}`,
        20_000,
      );
      readyAt = Date.now();
      await waitFor(
        () => traffic.unacknowledged === 0,
        () => `every booking to be acknowledged: ${traffic.summary()}`,
        30_000,
      );
    } finally {
      await traffic.stop();
    }

    const transportErrors = traffic.attempts.filter((attempt) => attempt.error !== null);
    assert.deepEqual(
      transportErrors.map((attempt) => attempt.error),
      [],
      'every request got an HTTP answer',
    );
    for (const attempt of traffic.attempts) {
      if (!isAcknowledged(attempt)) assertUnavailableAnswer(attempt);
    }
    const whileDown = traffic.attempts.filter((attempt) => attempt.sentIn === 'down');
    assert.ok(whileDown.length >= 20, `requests kept coming while PostgreSQL was down (${whileDown.length})`);
    for (const attempt of whileDown) {
      // Answered before the outage ended: the database's absence, not its return, ended each wait.
      assert.equal(
        attempt.answeredIn,
        'down',
        `${attempt.target.reference}, sent while PostgreSQL was down, answered before it came back`,
      );
      assert.equal(attempt.response!.status, 503, 'answered 503 while PostgreSQL was down');
    }
    const afterReady = traffic.attempts.filter((attempt) => attempt.sentAt >= readyAt);
    assert.ok(afterReady.length > 0, 'requests were sent after recovery');
    for (const attempt of afterReady)
      assert.ok(
        isAcknowledged(attempt),
        `after /readyz is 200 again: ${attempt.response!.status} ${attempt.response!.text}`,
      );
    assert.ok(
      traffic.attempts.some((attempt) => isAcknowledged(attempt) && attempt.sentIn === 'up'),
      'acknowledged before the outage',
    );
    assert.ok(
      traffic.attempts.some((attempt) => isAcknowledged(attempt) && attempt.sentIn === 'back'),
      'acknowledged after the outage',
    );

    // Every acknowledged change is in the store, and nothing happened twice.
    const store = openStoreAt(sandbox!.databaseUrl);
    try {
      for (const [target, attempt] of traffic.acknowledged) {
        const stored = await storedBooking(store, target);
        if (operationOf(target) === 'cancel') {
          assert.deepEqual(itemOf(target, attempt.response!), cancelItem(target));
          assertVoluntarilyCancelled(stored, target);
        } else {
          assert.deepEqual(itemOf(target, attempt.response!), refundItem(target), 'the acknowledged refund');
          assertInvoluntarilyCancelled(stored, target);
        }
      }
      assert.deepEqual(await ticketsRefundedTwice(store), [], 'no ticket has more than one refund row');
    } finally {
      await store.close();
    }

    assert.equal(exited, false, `the service process never exited: ${server.stderr()}`);
    assert.equal(server.child.exitCode, null);
    assert.equal(server.child.signalCode, null);
  },
);
