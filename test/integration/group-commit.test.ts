/**
 * Requests that arrive together may be committed together (SQLite's group commit). One of them
 * failing must undo only itself: the others are committed and acknowledged, the failed one is
 * answered 500 and leaves nothing behind; the same when it is the first of its commit, which is
 * undone by rolling back the transaction it is alone in so far (group-commit.ts).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { refuseRecordWrites } from '../helpers/stored-records.js';

let service: TestService;
let token: string;
const COUNT = 24;
const BAD = 7;
const reference = (index: number) => `GRP${String(index).padStart(3, '0')}`;
const firstReference = (index: number) => `GRF${String(index).padStart(3, '0')}`;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AGG');
  await service.importOrders(
    Array.from({ length: COUNT }, (_, index) =>
      simpleOrder(`ORD-G${index}`, 'AGG', reference(index), `22055${String(index).padStart(8, '0')}`),
    ),
  );
  await service.importOrders(
    Array.from({ length: COUNT }, (_, index) =>
      simpleOrder(`ORD-F${index}`, 'AGG', firstReference(index), `22056${String(index).padStart(8, '0')}`),
    ),
  );
  // The orders of the two bookings whose cancel the store refuses.
  await refuseRecordWrites(service.store.db, 'fail_group', `NEW.order_id IN ('ORD-G${BAD}', 'ORD-F0')`);
});
after(() => service.close());

async function cancelTogether(orderPrefix: string, referenceOf: (index: number) => string, bad: number): Promise<void> {
  // Sent in one go, in index order: they reach the store together, the first of them first.
  const responses = await Promise.all(
    Array.from({ length: COUNT }, (_, index) =>
      service.post('/AirOrderCancel', cancelRQ(`${orderPrefix}${index}`, [referenceOf(index)]), bearer(token)),
    ),
  );
  const rows = await service.store.db
    .selectFrom('bookings')
    .select(['reference', 'status'])
    .where('order_id', 'like', `${orderPrefix}%`)
    .execute();
  const status = new Map(rows.map((row) => [row.reference, row.status]));
  const events = await service.store.db
    .selectFrom('audit_events')
    .select('reference')
    .where('event', '=', 'BOOKING_STATUS')
    .where('order_id', 'like', `${orderPrefix}%`)
    .execute();
  responses.forEach((response, index) => {
    if (index === bad) {
      assert.equal(response.status, 500, response.text);
      assert.equal(status.get(referenceOf(index)), 'CONFIRMED');
    } else {
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED');
      assert.equal(status.get(referenceOf(index)), 'CANCELED');
    }
  });
  assert.deepEqual(
    events.map((event) => event.reference).sort(),
    Array.from({ length: COUNT }, (_, index) => referenceOf(index))
      .filter((_, index) => index !== bad)
      .sort(),
  );
}

test('a failing request among concurrent ones undoes only itself', () => cancelTogether('ORD-G', reference, BAD));

test('a failing request first among concurrent ones undoes only itself', () =>
  cancelTogether('ORD-F', firstReference, 0));
