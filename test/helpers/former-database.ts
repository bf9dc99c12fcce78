/**
 * A database of the schema before the order as one record (migrations 001–010), filled the way the
 * service fills it, for the upgrade tests (test/cli/upgrade.test.ts, test/integration/upgrade-postgres.test.ts).
 *
 * The data is made by the real service rather than by hand-written rows: orders and airline changes
 * imported with the CLI (some changes pending with a deadline, one past its deadline), bookings
 * cancelled and changes accepted or cancelled through the API, a webhook endpoint whose deliveries
 * stay pending (it listens nowhere), an operator signed in to the console. What every order's
 * retrieval and each agency's event feed answer is recorded; then migrations 013 and 012 are rolled
 * back, which write the event log's and the audit log's entries as rows of `events` and
 * `audit_events`, and 011, which
 * writes the former tables (orders, bookings, airline_changes, refunds) from the records, so that
 * the database is as 010 left it, with the same data. Upgrading it again must give back every
 * answer byte for byte.
 */
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import type { CliSandbox, ServeProcess } from './cli.js';
import { ConsoleClient } from './console-client.js';
import { storedEventCount, untilFeedSettled } from './settled-feed.js';
import {
  acceptRQ,
  bearer,
  booking,
  cancelRQ,
  change,
  involuntaryCancelRQ,
  order,
  passenger,
  segment,
} from './documents.js';
import { snapshotAllTables, type TableRows } from './table-rows.js';
import { scaled } from './time-scale.js';
import { TEST_DATABASE_ENV } from './test-database.js';

export const AGENCIES = ['AG1', 'AG2'] as const;
const OPERATOR = { email: 'desk@airline.example', password: 'correct horse battery staple' };
/** Lets the test read thousands of orders quickly, and the webhook endpoint be on loopback. */
export const SERVE_ENV = {
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

export interface FormerOrder {
  orderId: string;
  agencyId: string;
  references: string[];
}

export interface FormerDatabase {
  orders: FormerOrder[];
  tokens: Record<string, string>;
  /** Each order's AirOrderRetrieve answer (all its bookings), as sent, but for the response id. */
  retrieved: Map<string, string>;
  /** Each agency's event feed (every event, pages of 500), as sent, but for the response ids. */
  feeds: Map<string, string>;
  /** The console session's cookies. */
  consoleCookies: string;
  /** Every table of the database at 010, rows as canonical JSON (table-rows.ts). */
  tables: TableRows;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const reference = (prefix: string, n: number) => `${prefix}${n.toString(36).toUpperCase().padStart(5, '0')}`;

/** The i-th order: one or two bookings, one to three passengers (an infant without a ticket now and then), one or two segments. */
function orderDocument(i: number): { document: object; summary: FormerOrder } {
  const agencyId = AGENCIES[i % 5 === 4 ? 1 : 0]!;
  const orderId = `ORD-${pad(i, 6)}`;
  const bookings = (i % 3 === 0 ? ['A', 'B'] : ['A']).map((prefix, b) => {
    const segments =
      i % 2 === 0
        ? [segment('S1', 1 + (i % 28), 8), segment('S2', 1 + (i % 28), 14, ['JFK', 'BOS'])]
        : [segment('S1', 1 + (i % 28), 9 + b)];
    const passengers = Array.from({ length: 1 + (i % 3) }, (_, p) => {
      const ticketed = !(p === 2 && i % 6 === 2);
      const ticketNumber = `220${pad(i * 10 + b * 4 + p, 10)}`;
      const fare = 100 + (i % 97) * 7 + p;
      const coupons = segments.map((s) => ({
        segmentId: s.segmentId,
        status: 'OPEN',
        value: `${(fare / segments.length + 25.25).toFixed(2)}`,
      }));
      return passenger(
        `P${p + 1}`,
        ticketed
          ? { ticketNumber, baseFare: `${fare}.00`, taxes: `${(25.25 * segments.length).toFixed(2)}`, coupons }
          : null,
        ticketed ? 'ADT' : 'INF',
      );
    });
    return booking(reference(prefix, i), segments, passengers);
  });
  const currency = i % 7 === 3 ? 'USD' : 'EUR';
  return {
    document: order(orderId, agencyId, currency, bookings),
    summary: { orderId, agencyId, references: bookings.map((b) => b.gdsBookingReference) },
  };
}

/** Airline changes of every fourth order: pending with a deadline (accept or cancel by default), some with two changes. */
function changeDocuments(orders: readonly FormerOrder[], pastDeadline: string): object[] {
  const changes: object[] = [];
  orders.forEach((summary, i) => {
    if (i % 4 !== 0) return;
    const ref = summary.references[0]!;
    const later = change(
      `CHG-${pad(i, 6)}-1`,
      summary.orderId,
      ref,
      ['S1'],
      [segment('S1X', 1 + (i % 28), 12)],
      'SCHEDULE_CHANGE',
      `2026-11-2${i % 10}T08:00:00Z`,
    );
    const deadline = i === 8 ? pastDeadline : `2027-0${1 + (i % 9)}-15T12:00:00Z`;
    changes.push({ ...later, actionDeadline: deadline, consequenceOfInaction: i % 8 === 0 ? 'CANCEL' : 'ACCEPT' });
    // A second change detected earlier than the first, imported after it: the order shows it first.
    if (i % 8 === 0 && i % 2 === 0) {
      changes.push(
        change(
          `CHG-${pad(i, 6)}-0`,
          summary.orderId,
          ref,
          ['S2'],
          [segment('S2X', 2 + (i % 27), 16, ['JFK', 'BOS'])],
          'ROUTING_CHANGE',
          `2026-11-1${i % 10}T07:30:00Z`,
        ),
      );
    }
  });
  return changes;
}

/** The answer's text without what differs per request (the response id echoes X-Request-Id). */
export function withoutRequestIds(text: string): string {
  return text.replace(/"ShoppingResponseId":"[^"]*"/g, '"ShoppingResponseId":"-"');
}

export async function retrieveAll(
  server: ServeProcess,
  orders: readonly FormerOrder[],
  tokens: Record<string, string>,
): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  const queue = [...orders];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const rq = { OrderRetrieveRQ: { Query: { OrderID: next.orderId, GdsBookingReference: next.references } } };
        const response = await server.post('/AirOrderRetrieve', rq, bearer(tokens[next.agencyId]!));
        assert.equal(response.status, 200, response.text);
        answers.set(next.orderId, withoutRequestIds(response.text));
      }
    }),
  );
  return answers;
}

/**
 * Each agency's feed, page by page, once it lists every event the database holds for the agency:
 * on PostgreSQL an event is listed only once every older transaction of the server has ended
 * (settled-feed.ts), and other test files run transactions on the same server.
 */
export async function readFeeds(
  server: ServeProcess,
  tokens: Record<string, string>,
  databaseUrl: string,
): Promise<Map<string, string>> {
  const feeds = new Map<string, string>();
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: databaseUrl }));
  try {
    for (const agencyId of AGENCIES) {
      const feed = await untilFeedSettled(
        () => storedEventCount(store.reader, agencyId),
        () => feedPages(server, tokens[agencyId]!),
      );
      feeds.set(agencyId, feed.pages.join('\n'));
    }
  } finally {
    await store.close();
  }
  return feeds;
}

/** The agency's feed as the server answers it, page by page, and the events it lists. */
async function feedPages(server: ServeProcess, token: string): Promise<{ pages: string[]; events: unknown[] }> {
  const pages: string[] = [];
  const events: unknown[] = [];
  for (let after = ''; ;) {
    const response = await server.post(
      '/AirOrderEventList',
      { OrderEventListRQ: { Query: after ? { After: after, Limit: 500 } : { Limit: 500 } } },
      bearer(token),
    );
    assert.equal(response.status, 200, response.text);
    pages.push(withoutRequestIds(response.text));
    const rs = response.body.OrderEventListRS;
    if (rs.Events.length === 0) return { pages, events };
    events.push(...rs.Events);
    after = rs.NextAfter;
  }
}

export async function snapshot(databaseUrl: string): Promise<TableRows> {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: databaseUrl }));
  try {
    return await snapshotAllTables(store.db);
  } finally {
    await store.close();
  }
}

/** Stops a server as the operator would (SIGTERM) and waits for it. */
export async function stop(server: ServeProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Builds the database of `count` orders in `sandbox`'s database (see the file's comment); ends at migration 010. */
export async function buildFormerDatabase(sandbox: CliSandbox, count: number): Promise<FormerDatabase> {
  await sandbox.ok(['migrate']);
  const tokens: Record<string, string> = {};
  for (const agencyId of AGENCIES) {
    await sandbox.ok(['agency', 'add', '--agency-id', agencyId, '--name', `Agency ${agencyId}`]);
    tokens[agencyId] = (await sandbox.ok(['token', 'issue', '--agency-id', agencyId])).stdout.trim();
  }
  // Nothing listens there: each delivery stays pending, retried later.
  await sandbox.ok(['webhook', 'add', '--agency-id', 'AG1', '--url', 'http://127.0.0.1:9/hooks'], { env: SERVE_ENV });
  await sandbox.ok(['operator', 'add', '--email', OPERATOR.email, '--name', 'Desk', '--password-stdin'], {
    stdin: `${OPERATOR.password}\n`,
  });
  const built = Array.from({ length: count }, (_, i) => orderDocument(i));
  const orders = built.map((b) => b.summary);
  sandbox.write('orders.ndjson', `${built.map((b) => JSON.stringify(b.document)).join('\n')}\n`);
  await sandbox.ok(['orders', 'import', 'orders.ndjson'], { timeoutMs: 120_000 });
  const pastDeadline = new Date(Date.now() + 1500).toISOString().replace(/\.\d+Z$/, 'Z');
  sandbox.write('changes.json', JSON.stringify(changeDocuments(orders, pastDeadline)));
  await sandbox.ok(['changes', 'import', 'changes.json'], { timeoutMs: 120_000 });

  const server = await sandbox.serve([], { env: SERVE_ENV });
  let retrieved: Map<string, string>;
  let feeds: Map<string, string>;
  const desk = new ConsoleClient(server.baseUrl);
  try {
    const agency = (i: number) => tokens[orders[i]!.agencyId]!;
    // Voluntary cancellations (refunds), accepted changes and involuntary cancellations (resolved, refunded).
    for (const i of [1, 2, 5])
      assert.equal(
        (
          await server.post(
            '/AirOrderCancel',
            cancelRQ(orders[i]!.orderId, orders[i]!.references[0]!),
            bearer(agency(i)),
          )
        ).status,
        200,
      );
    for (const i of [4, 12])
      assert.equal(
        (
          await server.post(
            '/AirOrderInvoluntaryAccept',
            acceptRQ(orders[i]!.orderId, orders[i]!.references[0]!),
            bearer(agency(i)),
          )
        ).status,
        200,
      );
    for (const i of [0, 16]) {
      const response = await server.post(
        '/AirOrderInvoluntaryCancel',
        involuntaryCancelRQ(orders[i]!.orderId, orders[i]!.references[0]!),
        bearer(agency(i)),
      );
      assert.equal(response.status, 200, response.text);
    }
    assert.equal((await desk.signIn(OPERATOR.email, OPERATOR.password)).status, 303);
    // The scheduler applies the deadline that passed (order 8's change, CANCEL by default).
    for (const deadline = Date.now() + scaled(15_000); ;) {
      const answer = await server.post(
        '/AirOrderRetrieve',
        { OrderRetrieveRQ: { Query: { OrderID: orders[8]!.orderId, GdsBookingReference: orders[8]!.references } } },
        bearer(agency(8)),
      );
      if (/"CANCELLED"/.test(answer.text) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    retrieved = await retrieveAll(server, orders, tokens);
    feeds = await readFeeds(server, tokens, sandbox.databaseUrl);
  } finally {
    await stop(server);
  }
  assert.equal((await sandbox.ok(['migrate', '--rollback'])).stdout, 'Down 015-kept-response-counts\n');
  assert.equal((await sandbox.ok(['migrate', '--rollback'])).stdout, 'Down 014-refund-quotes\n');
  assert.equal((await sandbox.ok(['migrate', '--rollback'])).stdout, 'Down 013-event-log\n');
  assert.equal((await sandbox.ok(['migrate', '--rollback'])).stdout, 'Down 012-audit-log\n');
  const rolledBack = await sandbox.ok(['migrate', '--rollback']);
  assert.equal(rolledBack.stdout, 'Down 011-order-records\n');
  return {
    orders,
    tokens,
    retrieved,
    feeds,
    consoleCookies: desk.cookieHeader(),
    tables: await snapshot(sandbox.databaseUrl),
  };
}
