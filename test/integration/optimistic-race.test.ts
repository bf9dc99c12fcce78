import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { asNdjson, CliSandbox } from '../helpers/cli.js';
import { bearer, involuntaryCancelRQ } from '../helpers/documents.js';
import { openStoreAt, raceFixture, refundItem, storedBooking, ticketsRefundedTwice } from '../helpers/cancel-race.js';
import { untilSessionsWaitForLock } from '../helpers/store-hold.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * On PostgreSQL a change of an order is read, decided, then written by one statement that holds
 * only if the order's version is still the one read (docs/decisions.md, "Optimistic writes on
 * PostgreSQL"). Here two serve processes are made to lose and win that race for certain: both read
 * the booking, then both writes wait behind a lock on the refunds table until both are waiting.
 * One refund is stored; the loser reads again, finds the booking cancelled by the winner, and
 * answers with the very same refund.
 */
const postgres = testStoreKind() === 'postgres';
const sandbox = new CliSandbox();
let database: TestDatabase | null = null;
let token = '';
const fixture = raceFixture('OR', 'AG1', 1, 7);

before(async () => {
  if (!postgres) return;
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson(fixture.orders))]);
  await sandbox.ok(['changes', 'import', sandbox.write('changes.ndjson', asNdjson(fixture.changes))]);
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

test(
  'two serve processes lose and win the optimistic race on one booking: one refund, one outcome, both answers alike',
  {
    skip: postgres ? false : "the optimistic write is PostgreSQL's; SQLite has one writer at a time",
    timeout: scaled(60_000),
  },
  async () => {
    const servers = await Promise.all([
      sandbox.serve([], { env: { RATE_LIMIT_PER_SECOND: '0' } }),
      sandbox.serve([], { env: { RATE_LIMIT_PER_SECOND: '0' } }),
    ]);
    const target = fixture.bookings[0]!;
    const hold = new pg.Client(database!.url);
    await hold.connect();
    let responses;
    try {
      // Reads go on (ACCESS SHARE); every write of a refund waits.
      await hold.query('begin');
      await hold.query('lock table refunds in exclusive mode');
      const pending = servers.map((server) =>
        server.post(
          '/AirOrderInvoluntaryCancel',
          involuntaryCancelRQ(target.orderId, [target.reference]),
          bearer(token),
        ),
      );
      // Both decided on the same version and sent their writes.
      await Promise.race([
        untilSessionsWaitForLock(database!.url, 2),
        Promise.all(pending).then((answers) => {
          throw new Error(`answered before both waited: ${answers.map((answer) => answer.text).join(' | ')}`);
        }),
      ]);
      await hold.query('commit');
      responses = await Promise.all(pending);
    } finally {
      await hold.end();
    }
    for (const response of responses) {
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body.OrderInvoluntaryCancelRS.Result, [refundItem(target)]);
    }
    const store = openStoreAt(database!.url);
    try {
      const stored = await storedBooking(store, target);
      assert.equal(stored.cancellation, 'INVOLUNTARY');
      assert.deepEqual(await ticketsRefundedTwice(store), []);
      const refunds = await store.db
        .selectFrom('refunds')
        .select(['ticket_number', 'amount_minor'])
        .where('order_id', '=', target.orderId)
        .orderBy('position')
        .execute();
      assert.deepEqual(
        refunds.map((row) => [row.ticket_number, Number(row.amount_minor)]),
        [
          [target.tickets[0], 7505],
          [target.tickets[1], 15010],
        ],
      );
      const audited = await store.db
        .selectFrom('audit_events')
        .select(['event', 'request_id'])
        .where('order_id', '=', target.orderId)
        .where('actor', '=', 'agency')
        .execute();
      assert.equal(new Set(audited.map((row) => row.request_id)).size, 1, 'one request changed the booking');
      assert.equal(audited.filter((row) => row.event === 'TICKET_REFUNDED').length, 2);
      const refunded = await store.db
        .selectFrom('events')
        .select('type')
        .where('agency_id', '=', 'AG1')
        .where('type', '=', 'booking.refunded')
        .execute();
      assert.equal(refunded.length, 1, 'one booking.refunded event');
    } finally {
      await store.close();
    }
    for (const server of servers) assert.equal(server.child.exitCode, null, `serve exited: ${server.stderr()}`);
  },
);
