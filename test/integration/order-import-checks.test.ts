/**
 * What `orders import` (src/service/order-import.ts) refuses and what it counts, in process on both
 * stores: each refusal names the record, the field and the reason, and a refused file stores nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readRecords } from '../../src/documents/document-reader.js';
import { importOrders } from '../../src/service/order-import.js';
import { preparedHere } from '../../src/service/order-preparation.js';
import { auditTrail } from '../../src/store/repositories/audit-repository.js';
import { engineSql } from '../../src/store/engine-sql.js';
import { runSql } from '../../src/store/raw-sql.js';
import { bearer, change, involuntaryCancelRQ, order, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let now = '2026-11-22T10:00:00.000Z';
const clock = () => now;

before(async () => {
  service = await startTestService({ clock });
  await service.addAgency('AGI');
});
after(() => service?.close());

/** Imports the documents as one file: the summary and the counts reported as it went. */
async function importFile(documents: object[], upsert = false) {
  const progress: number[] = [];
  const summary = await importOrders(
    service.store,
    clock,
    preparedHere(readRecords(JSON.stringify(documents)), clock()),
    upsert,
    (imported) => progress.push(imported),
  );
  return { summary, progress };
}

async function refusal(documents: object[], upsert = false): Promise<string> {
  try {
    await importFile(documents, upsert);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('imported without a refusal');
}

async function storedOrders(prefix: string): Promise<string[]> {
  const rows = await runSql<{ order_id: string }>(
    service.store.db,
    'select order_id from orders where order_id like ? order by order_id',
    [`${prefix}%`],
  );
  return rows.map((row) => row.order_id);
}

/** Each stored order's version and how many rows of the audit log its record's trail names. */
async function storedVersions(prefix: string): Promise<[string, number, number][]> {
  const rows = await runSql<{ order_id: string; version: number | string; record: string | { trail: string[] } }>(
    service.store.db,
    `select order_id, version, ${engineSql(service.store.db).recordOut} as record from order_records where order_id like ? order by order_id`,
    [`${prefix}%`],
  );
  return rows.map((row) => {
    const record = typeof row.record === 'string' ? (JSON.parse(row.record) as { trail: string[] }) : row.record;
    return [row.order_id, Number(row.version), record.trail.length];
  });
}

function orders(prefix: string, count: number) {
  return Array.from({ length: count }, (_, index) => {
    const n = String(index).padStart(5, '0');
    return simpleOrder(`${prefix}${n}`, 'AGI', `REF${n}`, `22000000${n}`);
  });
}

test('an order of an agency that does not exist is refused, naming the command that creates it', async () => {
  const message = await refusal([simpleOrder('ORD-I-A1', 'AGI', 'IAA001'), simpleOrder('ORD-I-A2', 'NOAG', 'IAA002')]);
  assert.equal(
    message,
    'record 2 (order ORD-I-A2): agencyId names no agency: NOAG (create it with: airorder agency add --agency-id NOAG --name NAME)',
  );
  assert.deepEqual(await storedOrders('ORD-I-A'), []);
});

test('an orderId twice in a batch is refused at its second record, naming the first', async () => {
  const message = await refusal([
    simpleOrder('ORD-I-B1', 'AGI', 'IBB001'),
    simpleOrder('ORD-I-B2', 'AGI', 'IBB002'),
    simpleOrder('ORD-I-B1', 'AGI', 'IBB003'),
  ]);
  assert.equal(message, 'record 3 (order ORD-I-B1): orderId repeats ORD-I-B1 of record 1');
  assert.deepEqual(await storedOrders('ORD-I-B'), []);
});

test('an orderId of a batch written before in the same file is refused as a repeat, even with upsert', async () => {
  const documents = [...orders('ORD-I-C', 500), simpleOrder('ORD-I-C00007', 'AGI', 'ICC999')];
  assert.equal(
    await refusal(documents, true),
    'record 501 (order ORD-I-C00007): orderId repeats ORD-I-C00007 of an earlier record',
  );
  assert.deepEqual(await storedOrders('ORD-I-C'), []);
});

test('a file of two batches: progress after each and at the end, and the summary', async () => {
  const { summary, progress } = await importFile(orders('ORD-I-D', 501));
  assert.deepEqual(summary, { imported: 501, replaced: 0 });
  assert.deepEqual(progress, [500, 501, 501]);
});

test('an order that exists is refused without upsert; with it, replaced and counted, and its version and trail go on', async () => {
  await importFile([simpleOrder('ORD-I-E1', 'AGI', 'IEE001')]);
  now = '2026-11-22T10:30:00.000Z';
  assert.equal(
    await refusal([simpleOrder('ORD-I-E2', 'AGI', 'IEE002'), simpleOrder('ORD-I-E1', 'AGI', 'IEE009')]),
    'record 2 (order ORD-I-E1): orderId ORD-I-E1 exists already (use --upsert to replace it)',
  );
  assert.deepEqual(await storedOrders('ORD-I-E'), ['ORD-I-E1']);
  now = '2026-11-22T11:00:00.000Z';
  const { summary } = await importFile(
    [simpleOrder('ORD-I-E2', 'AGI', 'IEE002'), simpleOrder('ORD-I-E1', 'AGI', 'IEE009')],
    true,
  );
  assert.deepEqual(summary, { imported: 2, replaced: 1 });
  // The successor goes on from the replaced order's version (a request that decided on the former
  // must decide again) and from its trail; a new order starts at 0, its trail at its import.
  assert.deepEqual(await storedVersions('ORD-I-E'), [
    ['ORD-I-E1', 1, 2],
    ['ORD-I-E2', 0, 1],
  ]);
  const trail = await auditTrail(service.store.db, 'ORD-I-E1');
  assert.deepEqual(
    trail.map((event) => [event.event, event.detail, event.operation]),
    [
      ['ORDER_IMPORTED', { agencyId: 'AGI', currency: 'EUR', bookings: ['IEE001'] }, 'orders import'],
      ['ORDER_REPLACED', { agencyId: 'AGI', currency: 'EUR', bookings: ['IEE009'] }, 'orders import'],
    ],
  );
});

test('an order with refunds is not replaced: its tickets could be refunded again', async () => {
  now = '2026-11-22T12:00:00.000Z';
  await importFile([simpleOrder('ORD-I-F1', 'AGI', 'IFF001'), simpleOrder('ORD-I-F2', 'AGI', 'IFF002')]);
  await service.importChanges([change('CHG-I-F1', 'ORD-I-F2', 'IFF002', ['S1'], [], 'FLIGHT_CANCELLATION')]);
  const cancelled = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('ORD-I-F2', ['IFF002']),
    bearer(await service.tokenFor('AGI')),
  );
  assert.equal(cancelled.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS', cancelled.text);
  now = '2026-11-22T13:00:00.000Z';
  assert.equal(
    await refusal([simpleOrder('ORD-I-F1', 'AGI', 'IFF009'), simpleOrder('ORD-I-F2', 'AGI', 'IFF008')], true),
    'record 2 (order ORD-I-F2): orderId ORD-I-F2 has refunds: replacing it would erase them and let its tickets be refunded again',
  );
  const kept = await runSql<{ reference: string }>(
    service.store.db,
    "select reference from bookings where order_id like 'ORD-I-F%' order by reference",
    [],
  );
  assert.deepEqual(
    kept.map((row) => row.reference),
    ['IFF001', 'IFF002'],
  );
});

test('an order refunded on one booking of two is not replaced either', async () => {
  now = '2026-11-22T14:00:00.000Z';
  const twoBookings = (first: string, second: string) =>
    order('ORD-I-G1', 'AGI', 'EUR', [
      simpleOrder('X', 'AGI', first, '2201234567001').bookings[0]!,
      simpleOrder('X', 'AGI', second, '2201234567002').bookings[0]!,
    ]);
  await importFile([twoBookings('IGG001', 'IGG002')]);
  await service.importChanges([change('CHG-I-G1', 'ORD-I-G1', 'IGG002', ['S1'], [], 'FLIGHT_CANCELLATION')]);
  const cancelled = await service.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('ORD-I-G1', ['IGG002']),
    bearer(await service.tokenFor('AGI')),
  );
  assert.equal(cancelled.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS', cancelled.text);
  now = '2026-11-22T14:30:00.000Z';
  assert.equal(
    await refusal([twoBookings('IGG001', 'IGG009')], true),
    'record 1 (order ORD-I-G1): orderId ORD-I-G1 has refunds: replacing it would erase them and let its tickets be refunded again',
  );
});

test("a replaced order's pending changes leave the tally of pending changes", async () => {
  now = '2026-11-22T15:00:00.000Z';
  const tally = async () =>
    Number(
      (
        await runSql<{ n: number | string | null }>(
          service.store.db,
          'select sum(pending) as n from change_tallies',
          [],
        )
      )[0]!.n ?? 0,
    );
  await importFile([simpleOrder('ORD-I-H1', 'AGI', 'IHH001')]);
  const before = await tally();
  await service.importChanges([
    change('CHG-I-H1', 'ORD-I-H1', 'IHH001', ['S1'], [], 'FLIGHT_CANCELLATION'),
    change('CHG-I-H2', 'ORD-I-H1', 'IHH001', [], [segment('S9', 3)], 'SCHEDULE_CHANGE', '2026-11-20T09:00:00Z'),
  ]);
  assert.equal(await tally(), before + 2, 'two pending changes counted');
  now = '2026-11-22T15:30:00.000Z';
  await importFile([simpleOrder('ORD-I-H1', 'AGI', 'IHH001')], true);
  assert.equal(await tally(), before, 'the replaced order took its two pending changes with it');
});
