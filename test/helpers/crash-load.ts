/**
 * docs/contract.md §8.3 under load: several clients cancel and involuntarily cancel bookings (each client
 * its own, and bookings several clients hit at once, with and without Idempotency-Key) while the
 * `airorder serve` process is killed with SIGKILL at random instants and restarted on the same
 * database. Then the store must hold every acknowledged change, and be consistent with itself and
 * with its audit trail. Shared by the SQLite (test/cli) and PostgreSQL (test/integration) tests.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import type { ServeProcess } from './cli.js';
import { seededRandom } from './seeded-random.js';
import { cancelRQ, change, familyBooking, involuntaryCancelRQ, order } from './documents.js';
import { scaled } from './time-scale.js';
import { TEST_DATABASE_ENV } from './test-database.js';

export type CrashOperation = 'cancel' | 'involuntaryCancel';

export interface CrashBooking {
  orderId: string;
  reference: string;
  /** [partly flown: coupon S1 USED, S2 OPEN], [unflown: S1 and S2 OPEN]; every coupon 75.05 EUR. */
  tickets: [string, string];
  /** A pending FLIGHT_CANCELLATION of S2, or none (then an involuntary cancel fails NO_PENDING_CHANGE). */
  changeId: string | null;
  role: 'distinct' | 'shared' | 'untouched';
}

export interface CrashJob {
  client: number;
  target: CrashBooking;
  operation: CrashOperation;
  idempotencyKey: string | null;
}

export interface CrashFixture {
  orders: object[];
  changes: object[];
  bookings: CrashBooking[];
  /** One queue per client, in the order the client sends them. */
  queues: CrashJob[][];
}

const COUPON = 7505;

export interface CrashPlanOptions {
  clients: number;
  distinctPerClient: number;
  shared: number;
  untouched: number;
  seed: number;
}

/**
 * Orders of three bookings each. Every client has its own bookings; each shared booking is sent by
 * two to all clients, at about the same point of their queues, some voluntarily and some
 * involuntarily; untouched bookings are never sent. About one booking in eight has no pending change.
 * Half the requests carry an Idempotency-Key, the same for every client sending that booking and operation.
 */
export function crashPlan(options: CrashPlanOptions): CrashFixture {
  const random = seededRandom(options.seed);
  const roles: CrashBooking['role'][] = [
    ...Array.from({ length: options.clients * options.distinctPerClient }, () => 'distinct' as const),
    ...Array.from({ length: options.shared }, () => 'shared' as const),
    ...Array.from({ length: options.untouched }, () => 'untouched' as const),
  ];
  // Mixed across orders, so that requests on one order meet bookings of every role.
  for (let i = roles.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [roles[i], roles[j]] = [roles[j]!, roles[i]!];
  }
  const fixture: CrashFixture = {
    orders: [],
    changes: [],
    bookings: [],
    queues: Array.from({ length: options.clients }, () => []),
  };
  for (let o = 0; o * 3 < roles.length; o += 1) {
    const orderId = `CR-${o}`;
    const bookings = roles.slice(o * 3, o * 3 + 3).map((role, b) => {
      const n = o * 3 + b;
      const reference = `CR${String(n).padStart(5, '0')}`;
      const tickets: [string, string] = [
        `2203${String(n * 2).padStart(9, '0')}`,
        `2203${String(n * 2 + 1).padStart(9, '0')}`,
      ];
      const changeId = random() < 0.875 ? `AIC-${reference}` : null;
      if (changeId) fixture.changes.push(change(changeId, orderId, reference, ['S2'], [], 'FLIGHT_CANCELLATION'));
      fixture.bookings.push({ orderId, reference, tickets, changeId, role });
      return familyBooking(reference, [tickets[0]!, tickets[1]!]);
    });
    fixture.orders.push(order(orderId, 'AG1', 'EUR', bookings));
  }

  const keyed = (target: CrashBooking, operation: CrashOperation) =>
    random() < 0.5 ? `${target.reference}-${operation}` : null;
  const distinct = fixture.bookings.filter((target) => target.role === 'distinct');
  distinct.forEach((target, i) => {
    const client = i % options.clients;
    const operation: CrashOperation = random() < 0.5 ? 'cancel' : 'involuntaryCancel';
    fixture.queues[client]!.push({ client, target, operation, idempotencyKey: keyed(target, operation) });
  });
  for (const queue of fixture.queues) {
    for (let i = queue.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [queue[i], queue[j]] = [queue[j]!, queue[i]!];
    }
  }
  const shared = fixture.bookings.filter((target) => target.role === 'shared');
  shared.forEach((target, s) => {
    const count = 2 + Math.floor(random() * (options.clients - 1));
    const clients = Array.from({ length: options.clients }, (_, c) => c)
      .sort(() => random() - 0.5)
      .slice(0, count);
    // Mostly involuntary, so that refunds race; some clients cancel voluntarily at the same time.
    const voluntary = random() < 0.4;
    for (const client of clients) {
      const operation: CrashOperation = voluntary && random() < 0.5 ? 'cancel' : 'involuntaryCancel';
      const queue = fixture.queues[client]!;
      const at = Math.min(queue.length, Math.floor(((s + 0.5) / shared.length) * queue.length));
      queue.splice(at, 0, { client, target, operation, idempotencyKey: keyed(target, operation) });
    }
  });
  return fixture;
}

export interface Acknowledgement {
  job: CrashJob;
  item: any;
  replayed: boolean;
}

export interface CrashRun {
  acknowledged: Acknowledgement[];
  /** Answers other than 200, 409 IDEMPOTENCY_KEY_IN_USE and 503 UNAVAILABLE, and failures while the server was up. */
  unexpected: string[];
  kills: { inFlight: number; completed: number }[];
  requests: number;
  retries: number;
  /** The server running at the end. */
  server: ServeProcess;
}

export interface CrashRunOptions {
  fixture: CrashFixture;
  token: string;
  /** Starts `airorder serve` on the database under test and waits until it is healthy. */
  serve: () => Promise<ServeProcess>;
  kills: number;
  random: () => number;
}

function requestOf(job: CrashJob) {
  return job.operation === 'cancel'
    ? { path: '/AirOrderCancel', body: cancelRQ(job.target.orderId, [job.target.reference]) }
    : { path: '/AirOrderInvoluntaryCancel', body: involuntaryCancelRQ(job.target.orderId, [job.target.reference]) };
}

/** Runs every client's queue to the end while the server is killed `kills` times at random instants. */
export async function runCrashLoad(options: CrashRunOptions): Promise<CrashRun> {
  const total = options.fixture.queues.reduce((sum, queue) => sum + queue.length, 0);
  let server = await options.serve();
  let generation = 0;
  let dying = false;
  let up: Promise<void> = Promise.resolve();
  let markUp: () => void = () => {};
  let completed = 0;
  let inFlight = 0;
  const run: CrashRun = { acknowledged: [], unexpected: [], kills: [], requests: 0, retries: 0, server };

  const client = async (queue: CrashJob[]): Promise<void> => {
    for (const job of queue) {
      const { path, body } = requestOf(job);
      for (let attempt = 0; ; attempt += 1) {
        if (attempt > 20) {
          run.unexpected.push(`${job.target.reference}: gave up after ${attempt} attempts`);
          break;
        }
        await up;
        const current = server;
        const currentGeneration = generation;
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          authorization: `Bearer ${options.token}`,
        };
        if (job.idempotencyKey) headers['idempotency-key'] = job.idempotencyKey;
        inFlight += 1;
        run.requests += 1;
        let response: Response;
        let text: string;
        try {
          response = await fetch(current.baseUrl + path, {
            method: 'POST',
            headers,
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(scaled(15_000)),
          });
          text = await response.text();
        } catch (error) {
          inFlight -= 1;
          if (!dying && generation === currentGeneration) {
            run.unexpected.push(`${job.target.reference}: ${(error as Error).message} while the server was up`);
            break;
          }
          // The server died under this request: whether it committed is for the store to say. Retry on the next one.
          run.retries += 1;
          while (generation === currentGeneration) await up;
          continue;
        }
        inFlight -= 1;
        if (response.status === 200) {
          const parsed = JSON.parse(text);
          const item =
            job.operation === 'cancel' ? parsed.OrderViewRS.Response[0] : parsed.OrderInvoluntaryCancelRS.Result[0];
          if (item.Status === 'SUCCESS')
            run.acknowledged.push({ job, item, replayed: response.headers.get('idempotent-replayed') === 'true' });
          break;
        }
        if (response.status === 409 || response.status === 503) {
          run.retries += 1;
          await sleep(20);
          continue;
        }
        run.unexpected.push(`${job.target.reference} ${path}: ${response.status} ${text}`);
        break;
      }
      completed += 1;
    }
  };

  const killer = async (): Promise<void> => {
    const thresholds = Array.from({ length: options.kills }, () => 0.1 + options.random() * 0.75).sort((a, b) => a - b);
    for (const threshold of thresholds) {
      while (completed < threshold * total) await sleep(2);
      await sleep(options.random() * 30);
      dying = true;
      up = new Promise((resolve) => {
        markUp = resolve;
      });
      run.kills.push({ inFlight, completed });
      server.child.kill('SIGKILL');
      const exit = await server.exited;
      assert.equal(exit.signal, 'SIGKILL', 'the server was killed, not stopped');
      server = await options.serve();
      run.server = server;
      generation += 1;
      dying = false;
      markUp();
    }
  };

  await Promise.all([killer(), ...options.fixture.queues.map(client)]);
  return run;
}

export function openStoreAt(databaseUrl: string): SqlStore {
  return openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: databaseUrl }));
}

interface StoredCoupon {
  segmentId: string;
  status: string;
  value: number;
}

/**
 * The store after the run: every acknowledged change is in it; no ticket is refunded twice; an
 * involuntarily cancelled booking's refunds equal the value of its coupons now REFUNDED, and only
 * such bookings have REFUNDED coupons; the audit trail matches the state exactly.
 */
export async function assertCrashOutcome(
  store: SqlStore,
  fixture: CrashFixture,
  run: CrashRun,
): Promise<{ voluntary: number; involuntary: number; untouched: number }> {
  const db = store.db;
  const orderIds = fixture.orders.map((o) => (o as { orderId: string }).orderId);
  const bookings = await db.selectFrom('bookings').selectAll().where('order_id', 'in', orderIds).execute();
  const changes = await db.selectFrom('airline_changes').selectAll().where('order_id', 'in', orderIds).execute();
  const refunds = await db
    .selectFrom('refunds')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('position')
    .execute();
  const events = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .where('actor', '=', 'agency')
    .execute();
  const key = (orderId: string, reference: string | null) => `${orderId}/${reference}`;
  const byBooking = <T extends { order_id: string; reference: string | null }>(rows: T[]) => {
    const map = new Map<string, T[]>();
    for (const row of rows)
      map.set(key(row.order_id, row.reference), [...(map.get(key(row.order_id, row.reference)) ?? []), row]);
    return map;
  };
  const refundsOf = byBooking(refunds);
  const eventsOf = byBooking(events);
  const changesOf = byBooking(changes);

  // No ticket is refunded twice, anywhere.
  const perTicket = new Map<string, number>();
  for (const refund of refunds) perTicket.set(refund.ticket_number, (perTicket.get(refund.ticket_number) ?? 0) + 1);
  assert.deepEqual(
    [...perTicket].filter(([, n]) => n > 1),
    [],
    'no ticket has two refund rows',
  );

  const counts = { voluntary: 0, involuntary: 0, untouched: 0 };
  const state = new Map<string, { status: string; cancellation: string | null; refunds: typeof refunds }>();
  for (const target of fixture.bookings) {
    const where = `${target.orderId}/${target.reference} (${target.role}${target.changeId ? '' : ', no change'})`;
    const row = bookings.find(
      (candidate) => candidate.order_id === target.orderId && candidate.reference === target.reference,
    );
    assert.ok(row, where);
    const myRefunds = refundsOf.get(key(target.orderId, target.reference)) ?? [];
    const myEvents = eventsOf.get(key(target.orderId, target.reference)) ?? [];
    const myChanges = changesOf.get(key(target.orderId, target.reference)) ?? [];
    const coupons = (
      JSON.parse(row.passengers) as { ticket?: { ticketNumber: string; coupons: StoredCoupon[] } }[]
    ).flatMap((p) => (p.ticket ? [p.ticket] : []));
    state.set(key(target.orderId, target.reference), {
      status: row.status,
      cancellation: row.cancellation,
      refunds: myRefunds,
    });

    // Coupons are REFUNDED exactly when the booking was cancelled involuntarily; flown ones stay USED.
    const involuntary = row.cancellation === 'INVOLUNTARY';
    assert.deepEqual(
      coupons.map((ticket) => ticket.coupons.map((coupon) => coupon.status)),
      involuntary
        ? [
            ['USED', 'REFUNDED'],
            ['REFUNDED', 'REFUNDED'],
          ]
        : [
            ['USED', 'OPEN'],
            ['OPEN', 'OPEN'],
          ],
      where,
    );
    assert.deepEqual(
      coupons.flatMap((ticket) => ticket.coupons.map((coupon) => coupon.value)),
      [COUPON, COUPON, COUPON, COUPON],
      `${where}: coupon values`,
    );
    // Refunds: one per ticket with the value of that ticket's REFUNDED coupons, and only after an involuntary cancel.
    const refundedValue = (ticket: { coupons: StoredCoupon[] }) =>
      ticket.coupons.filter((coupon) => coupon.status === 'REFUNDED').reduce((sum, coupon) => sum + coupon.value, 0);
    assert.deepEqual(
      myRefunds.map((refund) => [
        refund.ticket_number,
        Number(refund.amount_minor),
        refund.quote_type,
        refund.currency,
      ]),
      involuntary
        ? coupons.map((ticket, i) => [ticket.ticketNumber, refundedValue(ticket), i === 0 ? 'PARTIAL' : 'FULL', 'EUR'])
        : [],
      `${where}: refunds`,
    );
    assert.equal(
      myRefunds.reduce((sum, refund) => sum + Number(refund.amount_minor), 0),
      coupons.reduce((sum, ticket) => sum + refundedValue(ticket), 0),
      `${where}: refund total = REFUNDED coupons`,
    );

    // The change's status follows the booking's.
    const expectedChange = row.status === 'CONFIRMED' ? 'PENDING' : involuntary ? 'CANCELED' : 'CLOSED';
    assert.deepEqual(
      myChanges.map((c) => c.status),
      target.changeId ? [expectedChange] : [],
      `${where}: change status`,
    );
    if (involuntary) assert.ok(target.changeId, `${where}: cancelled involuntarily without a pending change`);
    if (row.status === 'CONFIRMED') assert.equal(row.cancellation, null, where);

    // The audit trail, exactly: nothing for an untouched booking; one status event per cancellation,
    // one change event per resolved change, one refund event per refund row with the same amount.
    const expectedEvents: object[] = [];
    if (row.status === 'CANCELED') {
      expectedEvents.push({
        event: 'BOOKING_STATUS',
        detail: { from: 'CONFIRMED', to: 'CANCELED', cancellation: row.cancellation },
      });
      if (target.changeId)
        expectedEvents.push({
          event: 'CHANGE_STATUS',
          detail: { changeId: target.changeId, from: 'PENDING', to: expectedChange },
        });
      for (const refund of myRefunds) {
        expectedEvents.push({
          event: 'TICKET_REFUNDED',
          detail: {
            ticketNumber: refund.ticket_number,
            amountMinor: Number(refund.amount_minor),
            currency: refund.currency,
            quoteType: refund.quote_type,
          },
        });
      }
    }
    const canonical = (list: object[]) => list.map((event) => JSON.stringify(event)).sort();
    assert.deepEqual(
      canonical(myEvents.map((event) => ({ event: event.event, detail: JSON.parse(event.detail) }))),
      canonical(expectedEvents),
      `${where}: audit trail`,
    );
    // The events of one change were written by one request.
    assert.ok(new Set(myEvents.map((event) => event.request_id)).size <= 1, `${where}: events of one request`);

    if (target.role === 'untouched') assert.equal(row.status, 'CONFIRMED', where);
    if (row.status === 'CONFIRMED') counts.untouched += 1;
    else if (involuntary) counts.involuntary += 1;
    else counts.voluntary += 1;
  }
  assert.equal(
    events.filter(
      (event) =>
        !fixture.bookings.some((target) => target.orderId === event.order_id && target.reference === event.reference),
    ).length,
    0,
    'no events outside the bookings',
  );

  // Every acknowledged change is in the store, as the answer said.
  for (const { job, item } of run.acknowledged) {
    const where = `acknowledged ${job.operation} of ${job.target.reference} by client ${job.client}`;
    const stored = state.get(key(job.target.orderId, job.target.reference))!;
    assert.equal(stored.status, 'CANCELED', where);
    if (job.operation === 'involuntaryCancel') {
      assert.equal(stored.cancellation, 'INVOLUNTARY', where);
      assert.deepEqual(
        item.RefundPaxWiseFare,
        stored.refunds.map((refund) => ({
          TicketNumber: refund.ticket_number,
          Amount: Number(refund.amount_minor) / 100,
        })),
        where,
      );
      assert.equal(
        item.RefundAmount,
        stored.refunds.reduce((sum, refund) => sum + Number(refund.amount_minor), 0) / 100,
        where,
      );
      assert.equal(
        item.RefundText,
        stored.refunds
          .map(
            (refund) =>
              `TicketNumber:${refund.ticket_number} QuoteType:${refund.quote_type} RefundAmount:${(Number(refund.amount_minor) / 100).toFixed(2)}`,
          )
          .join(' '),
        where,
      );
    } else {
      assert.equal(item.BookingStatus, 'CANCELED', where);
    }
  }
  return counts;
}
