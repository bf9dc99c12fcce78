import type { AgencyEvent, EventType, StoredEvent } from '../../events/event-types.js';
import { engineSql } from '../engine-sql.js';
import { placeholders, runSql } from '../raw-sql.js';
import type { Statement } from '../statement.js';
import { BLOCK_DIGIT, EVENT_ID_BLOCK, eventBlockKey, eventIdAt, nextEventIdBlock } from '../sortable-id.js';
import type { Executor } from '../executor.js';

// The agency events are a log (`event_log`, migration 013): one row per request and agency (an
// import's: per 16 events of an agency), its events together as JSON, keyed by the first of their
// ids, which are a block (sortable-id.ts): any id of the row leads to that key. The events written
// before the log are rows of `events_before_013`, one per event, older than every row of the log.
// `events` is a view of both, for reports and SQL by hand; the service reads the tables.

const LOG_COLUMNS = ['first_id', 'agency_id', 'occurred_at', 'entries'];
/** Events per statement in an import: at most as many rows of four values, and three values each for the deliveries. */
const CHUNK = 1000;

interface Entry {
  id: string;
  type: EventType;
  data: Record<string, unknown>;
}

interface LogRow {
  tx: number | string;
  position: number | string;
  agency_id: string;
  occurred_at: string;
  entries: string;
}

interface LegacyRow {
  event_id: string;
  agency_id: string;
  type: string;
  occurred_at: string;
  data: string;
}

/** `eventBlockKey` (sortable-id.ts) in SQL, of a column of event ids. */
export function eventBlockKeySql(column: string): string {
  return `substr(${column}, 1, ${BLOCK_DIGIT}) || '0' || substr(${column}, ${BLOCK_DIGIT + 2})`;
}

/**
 * The statements that store events and queue them for every enabled webhook endpoint of their
 * agency that subscribes to their type: run inside the transaction of the change they report (the
 * outbox), so a rolled-back change is never announced and a committed one always is. An agency's
 * events are one row of the log (one per 16 of them). `tx` takes its column default: the writing
 * transaction's id on PostgreSQL (see `listEvents`).
 */
export function eventWrites(events: readonly AgencyEvent[], now: string): Statement[] {
  if (events.length === 0) return [];
  const byAgency = new Map<string, AgencyEvent[]>();
  for (const event of events) {
    const mine = byAgency.get(event.agencyId);
    if (mine) mine.push(event);
    else byAgency.set(event.agencyId, [event]);
  }
  const rows: unknown[] = [];
  // [event id, agency, type] of each event, for its deliveries.
  const written: unknown[][] = [];
  for (const [agencyId, mine] of byAgency) {
    for (let start = 0; start < mine.length; start += EVENT_ID_BLOCK) {
      const block = mine.slice(start, start + EVENT_ID_BLOCK);
      const ids = nextEventIdBlock(block.length);
      const entries: Entry[] = block.map((event, index) => ({ id: ids[index]!, type: event.type, data: event.data }));
      rows.push(ids[0], agencyId, now, JSON.stringify(entries));
      for (const entry of entries) written.push([entry.id, agencyId, entry.type]);
    }
  }
  const tuple = `(${placeholders(LOG_COLUMNS.length)})`;
  return [
    {
      text: `insert into event_log (${LOG_COLUMNS.join(', ')}) values ${new Array<string>(rows.length / LOG_COLUMNS.length).fill(tuple).join(', ')}`,
      parameters: rows,
    },
    deliveriesFor(written, now),
  ];
}

/** One delivery per (event, subscribed endpoint), due at once. Rows: [event id, agency, type]. */
function deliveriesFor(rows: readonly unknown[][], now: string): Statement {
  // VALUES names its columns column1, column2, … on both stores.
  return {
    text: `insert into webhook_deliveries (event_id, endpoint_id, agency_id, status, attempts, next_attempt_at, created_at)
      select v.column1, e.endpoint_id, e.agency_id, 'PENDING', 0, ?, ?
      from webhook_endpoints e join (values ${rows.map(() => '(?, ?, ?)').join(', ')}) v
        on e.agency_id = v.column2 and e.status = 'ENABLED'
        and (e.events = '*' or (',' || e.events || ',') like ('%,' || v.column3 || ',%'))`,
    parameters: [now, now, ...rows.flat()],
  };
}

/** Any number of events (an import's), in as few statements as the store allows. */
export async function appendEvents(db: Executor, events: readonly AgencyEvent[], now: string): Promise<void> {
  for (let start = 0; start < events.length; start += CHUNK) {
    for (const statement of eventWrites(events.slice(start, start + CHUNK), now))
      await runSql(db, statement.text, statement.parameters);
  }
}

function entriesOf(row: Pick<LogRow, 'agency_id' | 'occurred_at' | 'entries'>): StoredEvent[] {
  return (JSON.parse(row.entries) as Entry[]).map((entry) => ({
    eventId: entry.id,
    agencyId: row.agency_id,
    type: entry.type,
    occurredAt: row.occurred_at,
    data: entry.data,
  }));
}

function eventFromRow(row: LegacyRow): StoredEvent {
  return {
    eventId: row.event_id,
    agencyId: row.agency_id,
    type: row.type as EventType,
    occurredAt: row.occurred_at,
    data: JSON.parse(row.data),
  };
}

/** The events of these ids that are kept, by id: each log row by its key, then the rows of before. */
export async function loadEvents(db: Executor, eventIds: readonly string[]): Promise<Map<string, StoredEvent>> {
  const found = new Map<string, StoredEvent>();
  if (eventIds.length === 0) return found;
  const keys = [...new Set(eventIds.map(eventBlockKey))];
  const rows = await runSql<LogRow>(
    db,
    `select agency_id, occurred_at, entries from event_log where first_id in (${placeholders(keys.length)})`,
    keys,
  );
  const wanted = new Set(eventIds);
  for (const row of rows) {
    for (const event of entriesOf(row)) if (wanted.has(event.eventId)) found.set(event.eventId, event);
  }
  const before = [...wanted].filter((id) => !found.has(id));
  if (before.length > 0) {
    const legacy = await runSql<LegacyRow>(
      db,
      `select event_id, agency_id, type, occurred_at, data from events_before_013
      where event_id in (${placeholders(before.length)})`,
      before,
    );
    for (const row of legacy) found.set(row.event_id, eventFromRow(row));
  }
  return found;
}

export async function loadEvent(db: Executor, eventId: string): Promise<StoredEvent | null> {
  return (await loadEvents(db, [eventId])).get(eventId) ?? null;
}

export interface FeedPage {
  events: StoredEvent[];
  /** False when `after` names no event of the agency (never one, or one removed after 30 days). */
  cursorFound: boolean;
}

/** Where a page resumes: after a row of before, or after the `index`-th event of a row of the log. */
type Cursor =
  { inLog: false; tx: number; position: number } | { inLog: true; tx: number; position: number; index: number };

async function findCursor(db: Executor, agencyId: string, eventId: string): Promise<Cursor | null> {
  const [row] = await runSql<LogRow>(
    db,
    'select tx, position, entries from event_log where first_id = ? and agency_id = ?',
    [eventBlockKey(eventId), agencyId],
  );
  if (row) {
    const index = (JSON.parse(row.entries) as Entry[]).findIndex((entry) => entry.id === eventId);
    if (index >= 0) return { inLog: true, tx: Number(row.tx), position: Number(row.position), index };
  }
  const [legacy] = await runSql<{ tx: number | string; position: number | string }>(
    db,
    'select tx, position from events_before_013 where event_id = ? and agency_id = ?',
    [eventId, agencyId],
  );
  return legacy ? { inLog: false, tx: Number(legacy.tx), position: Number(legacy.position) } : null;
}

/**
 * The agency's events after the event `after` (from the first when null), oldest first, at most
 * `limit`: a page may end inside a row of the log, and the next resumes after that event. The
 * feed is append-only, so a client paging with the last id it saw sees each event exactly once:
 * - where one writer runs at a time (SQLite), `position` is given in commit order;
 * - where transactions insert side by side (PostgreSQL), they and commit in any order, so a row is shown
 *   only once every transaction older than its own has ended (its `tx` is below the snapshot's
 *   xmin), and rows are ordered by that transaction id first. Nothing can then appear before an
 *   event already shown.
 * The rows of before come first: every one of them was written before the log's first.
 */
export async function listEvents(
  db: Executor,
  agencyId: string,
  after: string | null,
  limit: number,
): Promise<FeedPage> {
  let cursor: Cursor | null = null;
  if (after !== null) {
    cursor = await findCursor(db, agencyId, after);
    if (!cursor) return { events: [], cursorFound: false };
  }
  // The engine's condition for the second case (engine-sql.ts, `settledEvents`).
  const settled = engineSql(db).settledEvents;
  const events: StoredEvent[] = [];
  if (!cursor?.inLog) {
    const from = cursor ?? { tx: -1, position: 0 };
    const rows = await runSql<LegacyRow>(
      db,
      `select event_id, agency_id, type, occurred_at, data from events_before_013
      where agency_id = ? and (tx > ? or (tx = ? and position > ?))${settled} order by tx, position limit ?`,
      [agencyId, from.tx, from.tx, from.position, limit],
    );
    for (const row of rows) events.push(eventFromRow(row));
    if (events.length >= limit) return { events, cursorFound: true };
  }
  const from = cursor?.inLog ? cursor : { tx: -1, position: 0, index: -1 };
  // From the cursor's own row, whose events after the cursor come first; every row holds an event
  // at least, so as many rows as events are wanted, and that row, are enough.
  const rows = await runSql<LogRow>(
    db,
    `select tx, position, agency_id, occurred_at, entries from event_log
    where agency_id = ? and (tx > ? or (tx = ? and position >= ?))${settled} order by tx, position limit ?`,
    [agencyId, from.tx, from.tx, from.position, limit - events.length + 1],
  );
  for (const row of rows) {
    const entries = entriesOf(row);
    const resumed = Number(row.tx) === from.tx && Number(row.position) === from.position;
    for (let index = resumed ? from.index + 1 : 0; index < entries.length && events.length < limit; index += 1)
      events.push(entries[index]!);
    if (events.length >= limit) break;
  }
  return { events, cursorFound: true };
}

/**
 * Removes events (and their deliveries) that occurred before `before`; returns how many. Event ids
 * begin with the time they were made (sortable-id.ts), so the ids' own indexes find them: a log row
 * by its first id, whose time its others share.
 */
export async function purgeEvents(db: Executor, before: string): Promise<number> {
  const boundary = eventIdAt(Date.parse(before));
  await runSql(db, 'delete from webhook_deliveries where event_id < ?', [boundary]);
  const rows = await runSql<{ entries: string }>(db, 'delete from event_log where first_id < ? returning entries', [
    boundary,
  ]);
  const legacy = await runSql<{ event_id: string }>(
    db,
    'delete from events_before_013 where event_id < ? returning event_id',
    [boundary],
  );
  return rows.reduce((count, row) => count + (JSON.parse(row.entries) as unknown[]).length, legacy.length);
}
