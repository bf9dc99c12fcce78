/**
 * What `changes import` (src/service/change-import.ts) checks of each change against its booking and
 * the changes before it, in process on both stores: each refusal names the record, the field and
 * the reason, and a refused file stores nothing; what it counts and reports as it reads.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readRecords } from '../../src/documents/document-reader.js';
import { importChanges } from '../../src/service/change-import.js';
import { runSql } from '../../src/store/raw-sql.js';
import { booking, change, familyBooking, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { bookingState, changeStatuses } from '../helpers/booking-state.js';
import { setStoredBookingMember } from '../helpers/stored-records.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
const NOW = '2026-11-22T10:00:00.000Z';
const clock = () => NOW;

before(async () => {
  service = await startTestService({ clock });
  await service.addAgency('AGK');
  await service.importOrders([
    simpleOrder('ORD-K1', 'AGK', 'KAA001', '2205555550001'),
    order('ORD-K2', 'AGK', 'EUR', [
      familyBooking('KBA001', ['2205555550002', '2205555550003']),
      booking('KBB001', [segment('S1')], [passenger('P1', null)]),
    ]),
    // Another order with a booking of the same reference as ORD-K1's.
    simpleOrder('ORD-K3', 'AGK', 'KAA001', '2205555550004'),
    order('ORD-K4', 'AGK', 'EUR', [booking('KDA001', [segment('S1')], [passenger('P1', null)], 'CANCELED')]),
  ]);
});
after(() => service?.close());

async function storedChanges(orderId: string): Promise<string[]> {
  const rows = await runSql<{ change_id: string }>(
    service.store.db,
    'select change_id from airline_changes where order_id = ? order by change_id',
    [orderId],
  );
  return rows.map((row) => row.change_id);
}

/** Imports the documents as one file: the summary and the counts reported as it went. */
async function importFile(documents: object[]) {
  const progress: number[] = [];
  const summary = await importChanges(service.store, clock, readRecords(JSON.stringify(documents)), (read) =>
    progress.push(read),
  );
  return { summary, progress };
}

async function refusal(documents: object[]): Promise<string> {
  try {
    await service.importChanges(documents);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('imported without a refusal');
}

const EARLY = '2026-11-20T08:00:00Z';
const LATER = '2026-11-21T08:00:00Z';

test('a change naming no order is refused, and the good record before it is not stored', async () => {
  const message = await refusal([
    change('K-NO-1', 'ORD-K1', 'KAA001', ['S1'], [segment('S1B', 1, 14)]),
    change('K-NO-2', 'ORD-NONE', 'KAA001', ['S1'], []),
  ]);
  assert.equal(message, 'record 2 (order ORD-NONE): orderId names no order: ORD-NONE');
  assert.deepEqual(await storedChanges('ORD-K1'), []);
});

test('a change naming a booking its order does not have is refused', async () => {
  const message = await refusal([change('K-NB-1', 'ORD-K1', 'NOBOOK', ['S1'], [])]);
  assert.equal(message, 'record 1 (order ORD-K1): gdsBookingReference is not a booking of order ORD-K1: NOBOOK');
});

test('a change removing a segment the booking lacks is refused, naming the removed entry by its index', async () => {
  const message = await refusal([change('K-RS-1', 'ORD-K2', 'KBA001', ['S2', 'S7'], [])]);
  assert.equal(message, 'record 1 (order ORD-K2): removedSegments[1] names no segment of booking KBA001: S7');
  assert.deepEqual(await storedChanges('ORD-K2'), []);
});

test('a change removing a flown segment is refused, naming the entry by its index', async () => {
  const message = await refusal([change('K-FL-1', 'ORD-K2', 'KBA001', ['S2', 'S1'], [])]);
  assert.equal(message, 'record 1 (order ORD-K2): removedSegments[1] S1 has been flown and cannot be changed');
});

test('the second added segment already in the booking is named by its index', async () => {
  const message = await refusal([
    change('K-AD-1', 'ORD-K2', 'KBA001', ['S2'], [segment('S2B', 8, 14), segment('S1', 9)]),
  ]);
  assert.equal(
    message,
    'record 1 (order ORD-K2): addedSegments[1].segmentId S1 is already a segment of booking KBA001',
  );
});

test('a change detected first that removes what a change detected later removes is refused, naming the later one', async () => {
  const message = await refusal([
    change('K-DL-LATE', 'ORD-K1', 'KAA001', ['S1'], [segment('S1B', 1, 14)], 'SCHEDULE_CHANGE', LATER),
    change('K-DL-EARLY', 'ORD-K1', 'KAA001', ['S1'], [segment('S1X', 1, 16)], 'SCHEDULE_CHANGE', EARLY),
  ]);
  assert.equal(
    message,
    'record 2 (order ORD-K1): removedSegments removes S1, which change K-DL-LATE, detected later (2026-11-21T08:00:00.000Z), removes too',
  );
  assert.deepEqual(await storedChanges('ORD-K1'), []);
});

test('a flown segment kept, an unflown one removed, on a booking with a passenger without a ticket: imported as pending', async () => {
  const { summary } = await importFile([change('K-OK-2', 'ORD-K2', 'KBA001', ['S2'], [segment('S2B', 8, 14)])]);
  assert.deepEqual(summary, { imported: 1, alreadyKnown: 0 });
  assert.deepEqual(await changeStatuses(service, 'ORD-K2', 'KBA001'), { 'K-OK-2': 'PENDING' });
});

test('a later change may remove the segment a pending change adds, and a resend in the same file is counted once as known', async () => {
  const first = change('K-CH-1', 'ORD-K2', 'KBB001', ['S1'], [segment('S1B', 1, 14)], 'SCHEDULE_CHANGE', EARLY);
  const { summary, progress } = await importFile([
    first,
    change('K-CH-2', 'ORD-K2', 'KBB001', ['S1B'], [segment('S1C', 1, 16)], 'SCHEDULE_CHANGE', LATER),
    first,
  ]);
  assert.deepEqual(summary, { imported: 2, alreadyKnown: 1 });
  assert.deepEqual(progress, [3]);
  assert.deepEqual(await changeStatuses(service, 'ORD-K2', 'KBB001'), { 'K-CH-1': 'PENDING', 'K-CH-2': 'PENDING' });
});

test('a stored change id resent for another booking of its order, or for a booking of the same reference in another order, is refused', async () => {
  await importFile([change('K-ID-1', 'ORD-K1', 'KAA001', ['S1'], [segment('S1B', 1, 14)])]);
  assert.equal(
    await refusal([change('K-ID-1', 'ORD-K2', 'KBB001', ['S1'], [segment('S1Z', 1, 14)])]),
    'record 1 (order ORD-K2): changeId K-ID-1 is already the id of a change of order ORD-K1, booking KAA001',
  );
  assert.equal(
    await refusal([change('K-ID-1', 'ORD-K3', 'KAA001', ['S1'], [segment('S1Z', 1, 14)])]),
    'record 1 (order ORD-K3): changeId K-ID-1 is already the id of a change of order ORD-K1, booking KAA001',
  );
  assert.equal(
    await refusal([change('K-CH-1', 'ORD-K2', 'KBA001', ['S2'], [segment('S2Z', 8, 14)])]),
    'record 1 (order ORD-K2): changeId K-CH-1 is already the id of a change of order ORD-K2, booking KBB001',
  );
  const { summary } = await importFile([change('K-ID-1', 'ORD-K1', 'KAA001', ['S1'], [segment('S1B', 1, 14)])]);
  assert.deepEqual(summary, { imported: 0, alreadyKnown: 1 });
  assert.deepEqual(await storedChanges('ORD-K3'), []);
});

async function pendingTally(): Promise<number> {
  const [row] = await runSql<{ n: number | string }>(
    service.store.db,
    'select sum(pending) as n from change_tallies',
    [],
  );
  return Number(row!.n);
}

test('a change for a cancelled booking is recorded as closed, without the checks against its segments; it awaits nothing', async () => {
  const pendingBefore = await pendingTally();
  const { summary } = await importFile([
    { ...change('K-CX-1', 'ORD-K4', 'KDA001', ['S9'], [segment('S1', 2)]), actionDeadline: '2026-12-01T08:00:00Z' },
  ]);
  assert.deepEqual(summary, { imported: 1, alreadyKnown: 0 });
  assert.deepEqual(await changeStatuses(service, 'ORD-K4', 'KDA001'), { 'K-CX-1': 'CLOSED' });
  assert.equal(await pendingTally(), pendingBefore, 'no pending change counted');
  assert.deepEqual(
    await runSql(service.store.db, "select due_at from airline_change_timers where change_id = 'K-CX-1'", []),
    [{ due_at: null }],
    'its deadline is not one to apply',
  );
});

test('changes for bookings of one reference in two orders, in one file: each order gets its own', async () => {
  await service.importOrders([
    simpleOrder('ORD-K6', 'AGK', 'KSR001', '2205555550006'),
    simpleOrder('ORD-K7', 'AGK', 'KSR001', '2205555550007'),
  ]);
  await importFile([
    change('K-SR-6', 'ORD-K6', 'KSR001', ['S1'], [segment('S1R', 1, 15)]),
    change('K-SR-7', 'ORD-K7', 'KSR001', ['S1'], [segment('S1T', 1, 17)]),
  ]);
  assert.deepEqual(await changeStatuses(service, 'ORD-K6', 'KSR001'), { 'K-SR-6': 'PENDING' });
  assert.deepEqual(await changeStatuses(service, 'ORD-K7', 'KSR001'), { 'K-SR-7': 'PENDING' });
});

test("changes for 500 orders in one file, two statements' worth of records: every order recorded once, its version moved on by one", async () => {
  const orders = Array.from({ length: 500 }, (_, index) =>
    simpleOrder(
      `ORD-KM${index}`,
      'AGK',
      `KM${String(index).padStart(4, '0')}`,
      `22066${String(index).padStart(8, '0')}`,
    ),
  );
  await service.importOrders(orders);
  const versions = async () =>
    (
      await runSql<{ version: number | string }>(
        service.store.db,
        "select version from order_records where order_id like 'ORD-KM%'",
        [],
      )
    ).map((row) => Number(row.version));
  const before = await versions();
  const { summary } = await importFile(
    orders.map((document, index) =>
      change(
        `K-MANY-${index}`,
        document.orderId,
        `KM${String(index).padStart(4, '0')}`,
        ['S1'],
        [segment('S1M', 1, 15)],
      ),
    ),
  );
  assert.deepEqual(summary, { imported: 500, alreadyKnown: 0 });
  const [row] = await runSql<{ n: number | string }>(
    service.store.db,
    "select count(*) as n from airline_changes where change_id like 'K-MANY-%'",
    [],
  );
  assert.equal(Number(row!.n), 500);
  assert.deepEqual(
    await versions(),
    before.map((version) => version + 1),
  );
});

test("16 changes of one agency in one file, a whole block of event ids: the agency's 16 events in one row of the event log", async () => {
  await service.addAgency('AGB');
  const orders = Array.from({ length: 16 }, (_, index) =>
    simpleOrder(
      `ORD-BL${index}`,
      'AGB',
      `BL${String(index).padStart(4, '0')}`,
      `22077${String(index).padStart(8, '0')}`,
    ),
  );
  await service.importOrders(orders);
  const { summary } = await importFile(
    orders.map((document, index) =>
      change(
        `K-BLOCK-${index}`,
        document.orderId,
        `BL${String(index).padStart(4, '0')}`,
        ['S1'],
        [segment('S1M', 1, 15)],
      ),
    ),
  );
  assert.deepEqual(summary, { imported: 16, alreadyKnown: 0 });
  const rows = await runSql<{ first_id: string | null; entries: string }>(
    service.store.db,
    "select first_id, entries from event_log where agency_id = 'AGB'",
    [],
  );
  assert.equal(rows.length, 1, JSON.stringify(rows));
  const entries = JSON.parse(rows[0]!.entries) as { id: string }[];
  assert.equal(entries.length, 16);
  assert.equal(rows[0]!.first_id, entries[0]!.id);
});

test('a file is written in batches of 500 records: progress after each batch and at the end', async () => {
  const resent = change('K-BT-1', 'ORD-K3', 'KAA001', ['S1'], [segment('S1B', 1, 14)]);
  const { summary, progress } = await importFile(Array.from({ length: 501 }, () => resent));
  assert.deepEqual(summary, { imported: 1, alreadyKnown: 500 });
  assert.deepEqual(progress, [500, 501]);
});

test('a change for an order stored with amounts past what imports now allow is refused, and nothing of the file is stored', async () => {
  await service.importOrders([simpleOrder('ORD-K5', 'AGK', 'KEA001', '2205555550005')]);
  const { passengers } = await bookingState(service, 'ORD-K5', 'KEA001');
  for (const { ticket } of passengers) {
    ticket!.baseFare = Number.MAX_SAFE_INTEGER;
    ticket!.coupons[0]!.value = Number.MAX_SAFE_INTEGER;
  }
  await setStoredBookingMember(service.store.db, 'ORD-K5', 0, 'passengers', JSON.stringify(passengers));
  const message = await refusal([
    change('K-BIG-1', 'ORD-K1', 'KAA001', ['S1B'], [segment('S1C', 1, 16)], 'SCHEDULE_CHANGE', LATER),
    change('K-BIG-2', 'ORD-K5', 'KEA001', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ]);
  assert.match(
    message,
    /^record 2 \(order ORD-K5\): orderId ORD-K5 was stored before imports bounded its amounts: in booking KEA001, passengers\[0\]\.ticket has baseFare \+ taxes of [^;]+ EUR[^;]*; correct the order and import it again \(orders import --upsert\)$/,
  );
  assert.deepEqual(await storedChanges('ORD-K5'), []);
});
