import { sql, type Kysely } from 'kysely';

/**
 * The order records (order-record.ts) shown as the tables the orders were once kept in: `orders`,
 * `bookings`, `airline_changes` and `refunds`, with their former columns and types, for reports and
 * SQL by hand. The service itself never reads them on a request's path: each read decodes whole
 * records. The record is JSON text: each view reads it as `json` (its text kept as written).
 */
const BOOKINGS = `order_records r cross join lateral json_array_elements(r.record::json -> 'bookings') with ordinality as b(value, ordinality)`;

const VIEWS = [
  `create view orders as select order_id, agency_id, (record::json ->> 'currency')::varchar(3) as currency,
    (record::json ->> 'createdAt')::varchar(32) as created_at, (record::json ->> 'updatedAt')::varchar(32) as updated_at, version
    from order_records`,
  `create view bookings as select r.order_id, (b.value ->> 'reference')::varchar(8) as reference, (b.ordinality - 1)::integer as position,
    (b.value ->> 'status')::varchar(16) as status, (b.value ->> 'cancellation')::varchar(16) as cancellation,
    (b.value -> 'segments')::text as segments, (b.value -> 'passengers')::text as passengers
    from ${BOOKINGS}`,
  `create view airline_changes as select (c.value ->> 'changeId')::varchar(64) as change_id, r.order_id,
    (b.value ->> 'reference')::varchar(8) as reference, (c.value ->> 'kind')::varchar(32) as kind, (c.value ->> 'detectedAt')::varchar(32) as detected_at,
    (c.value -> 'removedSegments')::text as removed_segments, (c.value -> 'addedSegments')::text as added_segments,
    (c.value ->> 'status')::varchar(16) as status, (c.value ->> 'createdAt')::varchar(32) as created_at,
    (c.value ->> 'resolvedAt')::varchar(32) as resolved_at, (c.value ->> 'actionDeadline')::varchar(32) as action_deadline,
    (c.value ->> 'consequenceOfInaction')::varchar(8) as consequence, t.warned_at
    from ${BOOKINGS} cross join lateral json_array_elements(b.value -> 'changes') as c(value)
    left join airline_change_timers t on t.change_id = c.value ->> 'changeId'`,
  `create view refunds as select r.order_id, (b.value ->> 'reference')::varchar(8) as reference,
    (f.value ->> 'ticketNumber')::varchar(13) as ticket_number, (f.ordinality - 1)::integer as position,
    (f.value ->> 'amount')::bigint as amount_minor, (r.record::json ->> 'currency')::varchar(3) as currency,
    (f.value ->> 'quoteType')::varchar(16) as quote_type, (f.value ->> 'createdAt')::varchar(32) as created_at
    from ${BOOKINGS} cross join lateral json_array_elements(b.value -> 'refunds') with ordinality as f(value, ordinality)`,
];

export async function createPostgresRecordViews(db: Kysely<unknown>): Promise<void> {
  for (const view of VIEWS) await sql.raw(view).execute(db);
}

/** The audit trail of before and the log's entries (migration 012), one row per entry. */
export async function createPostgresAuditView(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create view audit_events as
    select event_id, order_id, reference, sequence, event, detail, actor, agency_id, token_id, request_id, operation, occurred_at,
      operator_email, reason from audit_events_before_012
    union all
    select (e.value ->> 'eventId')::varchar(40), a.order_id, (e.value ->> 'reference')::varchar(8), (e.ordinality - 1)::integer,
      (e.value ->> 'event')::varchar(32), (e.value -> 'detail')::text, a.actor, a.agency_id, a.token_id, a.request_id, a.operation,
      a.occurred_at, a.operator_email, a.reason
    from audit_log a cross join lateral json_array_elements(a.entries::json) with ordinality as e(value, ordinality)`,
    )
    .execute(db);
}

/**
 * The events of before and the log's entries (migration 013), one row each with the columns of
 * before. An entry's position is its row's times 16 (the most entries a row holds) plus its place
 * in the row, above 2^40: after every position of before (an identity from 1, one per event), so
 * that `order by tx, position` still lists events in the order they were written.
 */
export async function createPostgresEventView(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create view events as
    select position, event_id, tx, agency_id, type, occurred_at, data from events_before_013
    union all
    select l.position * 16 + e.ordinality - 1 + 1099511627776, (e.value ->> 'id')::varchar(40), l.tx, l.agency_id,
      (e.value ->> 'type')::varchar(64), l.occurred_at, (e.value -> 'data')::text
    from event_log l cross join lateral json_array_elements(l.entries::json) with ordinality as e(value, ordinality)`,
    )
    .execute(db);
}
