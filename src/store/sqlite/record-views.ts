import { sql, type Kysely } from 'kysely';

/**
 * The order records (order-record.ts) shown as the tables the orders were once kept in: `orders`,
 * `bookings`, `airline_changes` and `refunds`, with their former columns, for reports and SQL by
 * hand. The service itself never reads them on a request's path: each read decodes whole records.
 * `json_each` walks the JSONB of each record; `->>` gives SQL values, `->` JSON text.
 */
const VIEWS = [
  `create view orders as select order_id, agency_id, record ->> '$.currency' as currency, record ->> '$.createdAt' as created_at,
    record ->> '$.updatedAt' as updated_at, version from order_records`,
  `create view bookings as select r.order_id, b.value ->> '$.reference' as reference, b.key as position, b.value ->> '$.status' as status,
    b.value ->> '$.cancellation' as cancellation, json(b.value -> '$.segments') as segments, json(b.value -> '$.passengers') as passengers
    from order_records r, json_each(r.record, '$.bookings') b`,
  `create view airline_changes as select c.value ->> '$.changeId' as change_id, r.order_id, b.value ->> '$.reference' as reference,
    c.value ->> '$.kind' as kind, c.value ->> '$.detectedAt' as detected_at, json(c.value -> '$.removedSegments') as removed_segments,
    json(c.value -> '$.addedSegments') as added_segments, c.value ->> '$.status' as status, c.value ->> '$.createdAt' as created_at,
    c.value ->> '$.resolvedAt' as resolved_at, c.value ->> '$.actionDeadline' as action_deadline,
    c.value ->> '$.consequenceOfInaction' as consequence, t.warned_at
    from order_records r, json_each(r.record, '$.bookings') b, json_each(b.value, '$.changes') c
    left join airline_change_timers t on t.change_id = c.value ->> '$.changeId'`,
  `create view refunds as select r.order_id, b.value ->> '$.reference' as reference, f.value ->> '$.ticketNumber' as ticket_number,
    f.key as position, f.value ->> '$.amount' as amount_minor, r.record ->> '$.currency' as currency, f.value ->> '$.quoteType' as quote_type,
    f.value ->> '$.createdAt' as created_at
    from order_records r, json_each(r.record, '$.bookings') b, json_each(b.value, '$.refunds') f`,
];

export async function createSqliteRecordViews(db: Kysely<unknown>): Promise<void> {
  for (const view of VIEWS) await sql.raw(view).execute(db);
}

/** The audit trail of before and the log's entries (migration 012), one row per entry. */
export async function createSqliteAuditView(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create view audit_events as
    select event_id, order_id, reference, sequence, event, detail, actor, agency_id, token_id, request_id, operation, occurred_at,
      operator_email, reason from audit_events_before_012
    union all
    select e.value ->> '$.eventId', a.order_id, e.value ->> '$.reference', e.key, e.value ->> '$.event', json(e.value -> '$.detail'),
      a.actor, a.agency_id, a.token_id, a.request_id, a.operation, a.occurred_at, a.operator_email, a.reason
    from audit_log a, json_each(a.entries) e`,
    )
    .execute(db);
}

/**
 * The events of before and the log's entries (migration 013), one row each with the columns of
 * before. An entry's position is its row's times 16 (the most entries a row holds) plus its place
 * in the row, above 2^40: after every position of before (rowids from 1, one per event), so that
 * `order by position` still lists events in the order they were written.
 */
export async function createSqliteEventView(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create view events as
    select position, event_id, tx, agency_id, type, occurred_at, data from events_before_013
    union all
    select l.position * 16 + e.key + 1099511627776, e.value ->> '$.id', l.tx, l.agency_id, e.value ->> '$.type', l.occurred_at,
      json(e.value -> '$.data')
    from event_log l, json_each(l.entries) e`,
    )
    .execute(db);
}
