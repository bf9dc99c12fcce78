import { sql, type Kysely, type Migration } from 'kysely';
import { engineSql } from '../engine-sql.js';

/**
 * The agency events of one request as one row of a log, their entries together, where each event
 * was a row of `events` with two indexes: a request now writes one row and its index entries once,
 * not once per event. Its events' ids are a block (sortable-id.ts, `nextEventIdBlock`) whose first
 * is the row's key, so any of them finds its row by that key. The rows written before stay in
 * `events_before_013`, with their indexes, never written again; `events` becomes a view of both, one
 * row per event, with the columns of before (docs/decisions.md, "The event log").
 */
export const eventLog: Migration = {
  async up(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    await db.schema.alterTable('events').renameTo('events_before_013').execute();
    // `position` and `tx` as in `events` (migration 003): the feed's order.
    await db.schema
      .createTable('event_log')
      .addColumn('position', schema.eventPosition, (c) => (schema.eventLogKey === 'position' ? c.primaryKey() : c))
      // The id of the row's first event.
      .addColumn('first_id', 'varchar(40)', (c) =>
        schema.eventLogKey === 'first_id' ? c.primaryKey() : c.notNull().unique(),
      )
      .addColumn('tx', 'bigint', (c) => c.notNull().defaultTo(schema.eventTransaction))
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
      // JSON: [{ id, type, data }], in the order they happened; the i-th id ends its counter with the digit i.
      .addColumn('entries', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('event_log_feed_idx')
      .on('event_log')
      .columns(['agency_id', 'tx', 'position'])
      .execute();
    await schema.createEventView(db);
  },

  async down(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    // Every entry of the log back as a row of the table of before, which takes its name again: after
    // its rows, in the feed's order, as if it had been written there.
    await sql`insert into events_before_013 (position, event_id, tx, agency_id, type, occurred_at, data)${sql.raw(schema.eventPositionGiven)}
      select b.top + row_number() over (order by v.tx, v.position), v.event_id, v.tx, v.agency_id, v.type, v.occurred_at, v.data
      from events v cross join (select coalesce(max(position), 0) as top from events_before_013) b
      where v.event_id not in (select event_id from events_before_013)`.execute(db);
    await schema.continueEventPositions(db, 'events_before_013');
    await db.schema.dropView('events').execute();
    await db.schema.dropTable('event_log').execute();
    await db.schema.alterTable('events_before_013').renameTo('events').execute();
  },
};
