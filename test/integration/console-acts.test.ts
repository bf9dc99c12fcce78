/**
 * A console act that changes an order (accept change, cancel with refund, an import) stores the
 * change, its audit trail (operator's email and reason) and the console's journal row in one
 * transaction, on both stores: when the journal's row cannot be stored, nothing of the change is;
 * when the change cannot be stored, no journal row is.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { addOperator } from '../../src/console/operator-accounts.js';
import { runSql } from '../../src/store/raw-sql.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { change, segment, simpleOrder } from '../helpers/documents.js';
import { testStoreKind } from '../helpers/test-database.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const EMAIL = 'acts@airline.example';
const PASSWORD = 'correct horse battery';
const REFUSED_REASON = 'journal refuses this one';
const now = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;

before(async () => {
  service = await startTestService({ clock: () => new Date(now).toISOString() });
  await service.addAgency('AGA');
  await addOperator(service.store, () => new Date(now).toISOString(), {
    email: EMAIL,
    name: 'Acts Desk',
    password: PASSWORD,
  });
  await service.importOrders([
    simpleOrder('ORD-ACC', 'AGA', 'ACC001', '2203333333331'),
    simpleOrder('ORD-CAN', 'AGA', 'CAN001', '2203333333332'),
    simpleOrder('ORD-BAD', 'AGA', 'BAD001', '2203333333333'),
  ]);
  await service.importChanges([
    change('CHG-ACC', 'ORD-ACC', 'ACC001', ['S1'], [segment('S1B', 1, 14)]),
    change('CHG-CAN', 'ORD-CAN', 'CAN001', ['S1'], [], 'FLIGHT_CANCELLATION'),
    change('CHG-BAD', 'ORD-BAD', 'BAD001', ['S1'], [segment('S1B', 1, 14)]),
  ]);
});
after(() => service?.close());

/** Runs a statement of the test's own on the service's database. */
async function execute(store: SqlStore, text: string): Promise<void> {
  await sql.raw(text).execute(store.db);
}

/** Makes the database refuse, on either store, an insert or update of `table` whose row matches `condition` (SQL over NEW). */
async function refuseWrites(
  store: SqlStore,
  name: string,
  table: string,
  event: 'INSERT' | 'UPDATE',
  condition: string,
): Promise<() => Promise<void>> {
  if (testStoreKind() === 'sqlite') {
    await execute(
      store,
      `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} WHEN ${condition} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    return () => execute(store, `DROP TRIGGER ${name}`);
  }
  await execute(
    store,
    `CREATE FUNCTION ${name}() RETURNS trigger AS $$
    BEGIN
      IF ${condition} THEN RAISE EXCEPTION 'refused by the test'; END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`,
  );
  await execute(store, `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await execute(store, `DROP TRIGGER ${name} ON ${table}`);
    await execute(store, `DROP FUNCTION ${name}()`);
  };
}

/** Everything an act on the order could have stored. */
async function stateOf(orderId: string) {
  const db = service.store.db;
  const rows = async (text: string) => runSql<Record<string, unknown>>(db, text, [orderId]);
  return {
    bookings: await rows('select reference, status, cancellation from bookings where order_id = ? order by reference'),
    changes: await rows('select change_id, status from airline_changes where order_id = ? order by change_id'),
    refunds: (
      await rows('select ticket_number, amount_minor from refunds where order_id = ? order by ticket_number')
    ).map((row) => ({ ...row, amount_minor: Number(row.amount_minor) })),
    audit: await rows(
      "select event, operation, operator_email, reason from audit_events where order_id = ? and actor = 'operator' and operation like 'AirOrder%' order by sequence",
    ),
    journal: await rows(
      "select email, action, target, reason from operator_actions where target like ? || ' %' order by occurred_at, action_id",
    ),
  };
}

async function act(orderId: string, reference: string, action: 'accept' | 'cancel', reason: string) {
  const browser = new ConsoleClient(service.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  const path = `/console/orders/${orderId}/bookings/${reference}/${action}`;
  return browser.submit(path, path, { reason });
}

for (const [action, orderId, reference, journalAction] of [
  ['accept', 'ORD-ACC', 'ACC001', 'change accepted'],
  ['cancel', 'ORD-CAN', 'CAN001', 'cancelled with refund'],
] as const) {
  test(`${action}: when the journal's row cannot be stored, nothing of the change is; then the act stores both`, async () => {
    const before = await stateOf(orderId);
    assert.deepEqual([before.audit, before.journal, before.refunds], [[], [], []]);
    const restore = await refuseWrites(
      service.store,
      `refuse_journal_${action}`,
      'operator_actions',
      'INSERT',
      `NEW.reason = '${REFUSED_REASON}'`,
    );
    try {
      const refused = await act(orderId, reference, action, REFUSED_REASON);
      assert.equal(refused.status, 500, refused.text.slice(0, 300));
    } finally {
      await restore();
    }
    assert.deepEqual(await stateOf(orderId), before, 'the booking, its change, refunds and audit trail are as before');

    const done = await act(orderId, reference, action, 'Agency asked by phone');
    assert.equal(done.status, 303, done.text.slice(0, 300));
    const after = await stateOf(orderId);
    assert.notDeepEqual(
      after.bookings.concat(after.changes),
      before.bookings.concat(before.changes),
      'the order changed',
    );
    assert.ok(after.audit.length > 0);
    for (const record of after.audit)
      assert.deepEqual([record.operator_email, record.reason], [EMAIL, 'Agency asked by phone']);
    assert.deepEqual(after.journal, [
      { email: EMAIL, action: journalAction, target: `${orderId} ${reference}`, reason: 'Agency asked by phone' },
    ]);
    if (action === 'cancel') assert.deepEqual(after.refunds.length, 1, 'the ticket is refunded');
  });
}

test('when the change cannot be stored, no journal row is either', async () => {
  const before = await stateOf('ORD-BAD');
  const restore = await refuseWrites(
    service.store,
    'refuse_booking_bad',
    'order_records',
    'UPDATE',
    "NEW.order_id = 'ORD-BAD'",
  );
  try {
    const refused = await act('ORD-BAD', 'BAD001', 'accept', 'Agency asked by phone');
    assert.equal(refused.status, 500, refused.text.slice(0, 300));
  } finally {
    await restore();
  }
  assert.deepEqual(await stateOf('ORD-BAD'), before);
  assert.deepEqual(before.journal, []);
});

/** Uploads orders on the Imports page and reads the import's progress until it has finished. */
async function importThroughConsole(name: string, documents: object[]): Promise<string> {
  const browser = new ConsoleClient(service.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  const page = await browser.request('/console/imports');
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', 'orders');
  form.set('file', new Blob([JSON.stringify(documents)], { type: 'application/json' }), name);
  const answer = await browser.request('/console/imports', { body: form });
  assert.equal(answer.status, 303, answer.text.slice(0, 300));
  for (;;) {
    const progress = JSON.parse((await browser.request(`${answer.headers.get('location')}/progress`)).text) as {
      status: string;
    };
    if (progress.status !== 'running') return progress.status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('an import whose journal row cannot be stored stores no order; then it stores both', async () => {
  const orders = [
    simpleOrder('ORD-IMP1', 'AGA', 'IMP101', '2203333333341'),
    simpleOrder('ORD-IMP2', 'AGA', 'IMP102', '2203333333342'),
  ];
  const imported = async () =>
    runSql<{ order_id: string }>(
      service.store.db,
      "select order_id from orders where order_id like 'ORD-IMP%' order by order_id",
      [],
    );
  const journal = async () =>
    runSql<{ email: string; target: string }>(
      service.store.db,
      "select email, target from operator_actions where action = 'orders import'",
      [],
    );
  const restore = await refuseWrites(
    service.store,
    'refuse_journal_import',
    'operator_actions',
    'INSERT',
    "NEW.action = 'orders import'",
  );
  try {
    assert.equal(await importThroughConsole('refused.json', orders), 'failed');
  } finally {
    await restore();
  }
  assert.deepEqual([await imported(), await journal()], [[], []]);

  assert.equal(await importThroughConsole('stored.json', orders), 'done');
  assert.deepEqual(await imported(), [{ order_id: 'ORD-IMP1' }, { order_id: 'ORD-IMP2' }]);
  assert.deepEqual(await journal(), [{ email: EMAIL, target: 'stored.json: {"imported":2,"replaced":0}' }]);
});
