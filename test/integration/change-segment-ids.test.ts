/**
 * An imported airline change adds only segment ids its booking never had (src/service/change-import.ts),
 * on both stores: each check alone, the change otherwise valid, and the same change with a fresh id
 * accepted. A refused import stores nothing of its file.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import { bearer, change, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;

before(async () => {
  service = await startTestService();
  await service.addAgency('AGS');
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

test('a change adding the segment id that a stored pending change of the booking adds is refused', async () => {
  await service.importOrders([simpleOrder('ORD-SC1', 'AGS', 'SEG001', '2205555555551')]);
  await service.importChanges([
    change('CHG-SC1-A', 'ORD-SC1', 'SEG001', ['S1'], [segment('S1B', 2)], undefined, EARLY),
  ]);
  const message = await refusal([
    change('CHG-SC1-B', 'ORD-SC1', 'SEG001', ['S1B'], [segment('S1B', 3)], undefined, LATER),
  ]);
  assert.equal(
    message,
    'record 1 (order ORD-SC1): addedSegments[0].segmentId S1B is already a segment of booking SEG001',
  );
  assert.deepEqual(await storedChanges('ORD-SC1'), ['CHG-SC1-A']);
});

test('the same change adding a fresh segment id is imported', async () => {
  await service.importOrders([simpleOrder('ORD-SC2', 'AGS', 'SEG002', '2205555555552')]);
  await service.importChanges([
    change('CHG-SC2-A', 'ORD-SC2', 'SEG002', ['S1'], [segment('S1B', 2)], undefined, EARLY),
  ]);
  await service.importChanges([
    change('CHG-SC2-B', 'ORD-SC2', 'SEG002', ['S1B'], [segment('S1C', 3)], undefined, LATER),
  ]);
  assert.deepEqual(await storedChanges('ORD-SC2'), ['CHG-SC2-A', 'CHG-SC2-B']);
});

test('a change adding the segment id that an earlier change of the same file adds is refused, and the file stores nothing', async () => {
  await service.importOrders([simpleOrder('ORD-SC3', 'AGS', 'SEG003', '2205555555553')]);
  const message = await refusal([
    change('CHG-SC3-A', 'ORD-SC3', 'SEG003', ['S1'], [segment('S1B', 2)], undefined, EARLY),
    change('CHG-SC3-B', 'ORD-SC3', 'SEG003', ['S1B'], [segment('S1B', 3)], undefined, LATER),
  ]);
  assert.equal(
    message,
    'record 2 (order ORD-SC3): addedSegments[0].segmentId S1B is already a segment of booking SEG003',
  );
  assert.deepEqual(await storedChanges('ORD-SC3'), []);
});

test('a change adding a segment id the booking has is refused', async () => {
  await service.importOrders([simpleOrder('ORD-SC4', 'AGS', 'SEG004', '2205555555554')]);
  const message = await refusal([change('CHG-SC4-A', 'ORD-SC4', 'SEG004', [], [segment('S1', 2)], undefined, EARLY)]);
  assert.equal(
    message,
    'record 1 (order ORD-SC4): addedSegments[0].segmentId S1 is already a segment of booking SEG004',
  );
  assert.deepEqual(await storedChanges('ORD-SC4'), []);
});

test('a change adding the id of a segment an accepted change removed is refused; a fresh id is imported', async () => {
  await service.importOrders([simpleOrder('ORD-SC5', 'AGS', 'SEG005', '2205555555555')]);
  await service.importChanges([
    change('CHG-SC5-A', 'ORD-SC5', 'SEG005', ['S1'], [segment('S1B', 2)], undefined, EARLY),
  ]);
  const accepted = await service.post(
    '/AirOrderInvoluntaryAccept',
    { OrderInvoluntaryAcceptRQ: { Query: { OrderID: 'ORD-SC5', GdsBookingReference: ['SEG005'] } } },
    bearer(await service.tokenFor('AGS')),
  );
  assert.equal(accepted.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'SUCCESS', accepted.text);
  const message = await refusal([
    change('CHG-SC5-B', 'ORD-SC5', 'SEG005', ['S1B'], [segment('S1', 3)], undefined, LATER),
  ]);
  assert.equal(
    message,
    'record 1 (order ORD-SC5): addedSegments[0].segmentId S1 was a segment of booking SEG005 that an airline change removed; an added segment takes an id the booking never had',
  );
  await service.importChanges([
    change('CHG-SC5-C', 'ORD-SC5', 'SEG005', ['S1B'], [segment('S1C', 3)], undefined, LATER),
  ]);
  assert.deepEqual(await storedChanges('ORD-SC5'), ['CHG-SC5-A', 'CHG-SC5-C']);
});
