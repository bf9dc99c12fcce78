/**
 * Requests that arrive together may be committed together (SQLite's group commit). One of them
 * failing must undo only itself: the others are committed and acknowledged, the failed one is
 * answered 500 and leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { testStoreKind } from '../helpers/test-database.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;
const COUNT = 24;
const BAD = 7;
const reference = (index: number) => `GRP${String(index).padStart(3, '0')}`;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AGG');
  await service.importOrders(Array.from({ length: COUNT }, (_, index) =>
    simpleOrder(`ORD-G${index}`, 'AGG', reference(index), `22055${String(index).padStart(8, '0')}`)));
  if (testStoreKind() === 'sqlite') {
    await sql.raw(`CREATE TRIGGER fail_group BEFORE UPDATE ON bookings WHEN NEW.reference = '${reference(BAD)}'
      BEGIN SELECT RAISE(ABORT, 'refused'); END`).execute(service.store.db);
  } else {
    await sql.raw(`CREATE FUNCTION fail_group() RETURNS trigger AS $$ BEGIN
      IF NEW.reference = '${reference(BAD)}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`).execute(service.store.db);
    await sql.raw('CREATE TRIGGER fail_group BEFORE UPDATE ON bookings FOR EACH ROW EXECUTE FUNCTION fail_group()').execute(service.store.db);
  }
});
after(() => service.close());

test('a failing request among concurrent ones undoes only itself', async () => {
  const responses = await Promise.all(Array.from({ length: COUNT }, (_, index) =>
    service.post('/AirOrderCancel', cancelRQ(`ORD-G${index}`, [reference(index)]), bearer(token))));
  const rows = await service.store.db.selectFrom('bookings').select(['reference', 'status']).where('order_id', 'like', 'ORD-G%').execute();
  const status = new Map(rows.map((row) => [row.reference, row.status]));
  const events = await service.store.db.selectFrom('audit_events').select('reference').where('event', '=', 'BOOKING_STATUS').execute();
  responses.forEach((response, index) => {
    if (index === BAD) {
      assert.equal(response.status, 500, response.text);
      assert.equal(status.get(reference(index)), 'CONFIRMED');
    } else {
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED');
      assert.equal(status.get(reference(index)), 'CANCELED');
    }
  });
  assert.deepEqual(events.map((event) => event.reference).sort(), Array.from({ length: COUNT }, (_, index) => reference(index)).filter((_, index) => index !== BAD).sort());
});
