import { sql, type Kysely } from 'kysely';
import { engineSql } from '../../src/store/engine-sql.js';

/**
 * Writes one member of a stored booking (its `segments` or `passengers`) as the given JSON, in the
 * order's record (src/store/order-record.ts): what a store written by hand, or by an older release,
 * may hold. `position` is the booking's place in the order.
 */
export async function setStoredBookingMember(
  db: Kysely<any>,
  orderId: string,
  position: number,
  member: 'segments' | 'passengers',
  json: string,
): Promise<void> {
  if (engineSql(db).schema.recordColumn === 'blob') {
    await sql`update order_records set record = jsonb_set(record, ${`$.bookings[${position}].${member}`}, jsonb(${json})) where order_id = ${orderId}`.execute(
      db,
    );
  } else {
    await sql`update order_records set record = jsonb_set(record::jsonb, array['bookings', ${String(position)}, ${member}], ${json}::jsonb)::text
      where order_id = ${orderId}`.execute(db);
  }
}

/**
 * Makes the store refuse to update order records that meet `condition` (SQL over the new row,
 * `NEW.order_id = '…'`), with `message`, until the returned function is called: a store failing
 * in the middle of a request.
 */
export async function refuseRecordWrites(
  db: Kysely<any>,
  name: string,
  condition: string,
  message = 'refused',
): Promise<() => Promise<void>> {
  if (engineSql(db).schema.recordColumn === 'blob') {
    await sql
      .raw(
        `CREATE TRIGGER ${name} BEFORE UPDATE ON order_records WHEN ${condition} BEGIN SELECT RAISE(ABORT, '${message}'); END`,
      )
      .execute(db);
    return async () => {
      await sql.raw(`DROP TRIGGER ${name}`).execute(db);
    };
  }
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger AS $$
    BEGIN IF ${condition} THEN RAISE EXCEPTION '${message}'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER ${name} BEFORE UPDATE ON order_records FOR EACH ROW EXECUTE FUNCTION ${name}()`)
    .execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER ${name} ON order_records`).execute(db);
    await sql.raw(`DROP FUNCTION ${name}()`).execute(db);
  };
}
