import type { AgencyEvent, EventType, StoredEvent } from '../../events/event-types.js';
import { engineSql } from '../engine-sql.js';
import { placeholders, runSql } from '../raw-sql.js';
import type { Statement } from '../statement.js';
import { eventIdAt, nextEventId } from '../sortable-id.js';
import type { Executor } from '../executor.js';
import type { EventsTable } from '../tables.js';

const EVENT_COLUMNS = ['event_id', 'agency_id', 'type', 'occurred_at', 'data'];
/** Events per statement in an import: five values each, far below either store's limit. */
const CHUNK = 1000;

function eventRow(event: AgencyEvent, now: string): unknown[] {
  return [nextEventId(), event.agencyId, event.type, now, JSON.stringify(event.data)];
}

/**
 * The statements that store events and queue them for every enabled webhook endpoint of their
 * agency that subscribes to their type: run inside the transaction of the change they report (the
 * outbox), so a rolled-back change is never announced and a committed one always is. `tx` takes its
 * column default: the writing transaction's id on PostgreSQL (see `listEvents`).
 */
export function eventWrites(events: readonly AgencyEvent[], now: string): Statement[] {
  if (events.length === 0) return [];
  const rows = events.map((event) => eventRow(event, now));
  const tuple = `(${placeholders(EVENT_COLUMNS.length)})`;
  return [
    { text: `insert into events (${EVENT_COLUMNS.join(', ')}) values ${rows.map(() => tuple).join(', ')}`, parameters: rows.flat() },
    deliveriesFor(rows, now),
  ];
}

/** One delivery per (event, subscribed endpoint), due at once. Rows: from `eventRow`. */
function deliveriesFor(rows: readonly unknown[][], now: string): Statement {
  // VALUES names its columns column1, column2, … on both stores.
  return {
    text: `insert into webhook_deliveries (event_id, endpoint_id, agency_id, status, attempts, next_attempt_at, created_at)
      select v.column1, e.endpoint_id, e.agency_id, 'PENDING', 0, ?, ?
      from webhook_endpoints e join (values ${rows.map(() => '(?, ?, ?)').join(', ')}) v
        on e.agency_id = v.column2 and e.status = 'ENABLED'
        and (e.events = '*' or (',' || e.events || ',') like ('%,' || v.column3 || ',%'))`,
    parameters: [now, now, ...rows.flatMap((row) => [row[0], row[1], row[2]])],
  };
}

/** Any number of events (an import's), in as few statements as the store allows. */
export async function appendEvents(db: Executor, events: readonly AgencyEvent[], now: string): Promise<void> {
  for (let start = 0; start < events.length; start += CHUNK) {
    for (const statement of eventWrites(events.slice(start, start + CHUNK), now)) await runSql(db, statement.text, statement.parameters);
  }
}

function eventFromRow(row: Pick<EventsTable, 'event_id' | 'agency_id' | 'type' | 'occurred_at' | 'data'>): StoredEvent {
  return { eventId: row.event_id, agencyId: row.agency_id, type: row.type as EventType, occurredAt: row.occurred_at, data: JSON.parse(row.data) };
}

export async function loadEvent(db: Executor, eventId: string): Promise<StoredEvent | null> {
  const [row] = await runSql<EventsTable>(db, 'select event_id, agency_id, type, occurred_at, data from events where event_id = ?', [eventId]);
  return row ? eventFromRow(row) : null;
}

export interface FeedPage {
  events: StoredEvent[];
  /** False when `after` names no event of the agency (never one, or one removed after 30 days). */
  cursorFound: boolean;
}

/**
 * The agency's events after the event `after` (from the first when null), oldest first. The feed
 * is append-only, so a client paging with the last id it saw sees each event exactly once:
 * - where one writer runs at a time (SQLite), `position` is given in commit order;
 * - where transactions insert side by side (PostgreSQL), they and commit in any order, so an event is shown
 *   only once every transaction older than its own has ended (its `tx` is below the snapshot's
 *   xmin), and events are ordered by that transaction id first. Nothing can then appear before an
 *   event already shown.
 */
export async function listEvents(db: Executor, agencyId: string, after: string | null, limit: number): Promise<FeedPage> {
  let from = { tx: -1, position: 0 };
  if (after !== null) {
    const [cursor] = await runSql<{ tx: number | string; position: number | string }>(db,
      'select tx, position from events where event_id = ? and agency_id = ?', [after, agencyId]);
    if (!cursor) return { events: [], cursorFound: false };
    from = { tx: Number(cursor.tx), position: Number(cursor.position) };
  }
  // The engine's condition for the second case (engine-sql.ts, `settledEvents`).
  const settled = engineSql(db).settledEvents;
  const rows = await runSql<EventsTable>(db, `select event_id, agency_id, type, occurred_at, data from events
    where agency_id = ? and (tx > ? or (tx = ? and position > ?))${settled} order by tx, position limit ?`,
  [agencyId, from.tx, from.tx, from.position, limit]);
  return { events: rows.map(eventFromRow), cursorFound: true };
}

/**
 * Removes events (and their deliveries) that occurred before `before`; returns how many. Event ids
 * begin with the time they were made (sortable-id.ts), so the ids' own index finds them.
 */
export async function purgeEvents(db: Executor, before: string): Promise<number> {
  const boundary = eventIdAt(Date.parse(before));
  await runSql(db, 'delete from webhook_deliveries where event_id < ?', [boundary]);
  const removed = await runSql<{ event_id: string }>(db, 'delete from events where event_id < ? returning event_id', [boundary]);
  return removed.length;
}
