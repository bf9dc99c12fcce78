import { insertRows, placeholders, runSql } from '../raw-sql.js';
import type { Statement } from '../statement.js';
import type { Executor } from '../executor.js';
import { nextEventId } from '../sortable-id.js';
import { loadStoredOrder } from './orders-repository.js';

export interface Actor {
  /** `system`: the service itself, applying a deadline's consequence. */
  actor: 'agency' | 'operator' | 'system';
  agencyId: string | null;
  tokenId: string | null;
  requestId: string | null;
  /** The API operation (AirOrderCancel, …), the CLI command (orders import, …) or `deadline`. */
  operation: string;
  /** An operator acting in the console: who, and the reason they gave. */
  operatorEmail?: string | null;
  reason?: string | null;
}

export interface AuditEvent {
  orderId: string;
  reference: string | null;
  event: string;
  detail: Record<string, unknown>;
}

export interface AuditRecord extends AuditEvent, Actor {
  eventId: string;
  occurredAt: string;
}

// The audit trail is a log (`audit_log`, migration 012): one row per change of one order, its
// entries together, under a key that only grows (sortable-id.ts), with no other index. The order's
// record lists the keys of its rows (`trail`, order-record.ts). The service never updates or
// deletes a row (the demo's clean-up aside).

interface Entry {
  eventId: string;
  reference: string | null;
  event: string;
  detail: Record<string, unknown>;
}

const LOG_COLUMNS = [
  'entry_id',
  'order_id',
  'actor',
  'agency_id',
  'token_id',
  'request_id',
  'operation',
  'occurred_at',
  'operator_email',
  'reason',
  'entries',
];

/** One row of the log for one order's entries; its key is its first entry's id. */
function logRow(
  actor: Actor,
  orderId: string,
  events: readonly AuditEvent[],
  now: string,
): { key: string; values: unknown[] } {
  const entries: Entry[] = events.map((event) => ({
    eventId: nextEventId(),
    reference: event.reference,
    event: event.event,
    detail: event.detail,
  }));
  const key = entries[0]!.eventId;
  return {
    key,
    values: [
      key,
      orderId,
      actor.actor,
      actor.agencyId,
      actor.tokenId,
      actor.requestId,
      actor.operation,
      now,
      actor.operatorEmail ?? null,
      actor.reason ?? null,
      JSON.stringify(entries),
    ],
  };
}

/** The statement that appends one change's entries of one order (a handful), and the key to put in the order's trail. */
export function auditWrite(
  actor: Actor,
  orderId: string,
  events: readonly AuditEvent[],
  now: string,
): { key: string; statement: Statement } {
  const { key, values } = logRow(actor, orderId, events, now);
  return {
    key,
    statement: {
      text: `insert into audit_log (${LOG_COLUMNS.join(', ')}) values (${placeholders(LOG_COLUMNS.length)})`,
      parameters: values,
    },
  };
}

/**
 * Appends any number of events (an import's), a row per order, in as few statements as the store
 * allows. Returns each order's row key, for its record's trail.
 */
export async function appendAuditEvents(
  db: Executor,
  actor: Actor,
  events: readonly AuditEvent[],
  now: string,
): Promise<Map<string, string>> {
  const byOrder = new Map<string, AuditEvent[]>();
  for (const event of events) {
    const mine = byOrder.get(event.orderId);
    if (mine) mine.push(event);
    else byOrder.set(event.orderId, [event]);
  }
  const keys = new Map<string, string>();
  const rows: unknown[][] = [];
  for (const [orderId, mine] of byOrder) {
    const { key, values } = logRow(actor, orderId, mine, now);
    keys.set(orderId, key);
    rows.push(values);
  }
  await insertRows(db, 'audit_log', LOG_COLUMNS, rows);
  return keys;
}

interface LogRow {
  entry_id: string;
  order_id: string;
  actor: string;
  agency_id: string | null;
  token_id: string | null;
  request_id: string | null;
  operation: string;
  occurred_at: string;
  operator_email: string | null;
  reason: string | null;
}

function actorOf(row: LogRow): Actor & { occurredAt: string } {
  return {
    actor: row.actor as Actor['actor'],
    agencyId: row.agency_id,
    tokenId: row.token_id,
    requestId: row.request_id,
    operation: row.operation,
    ...(row.operator_email ? { operatorEmail: row.operator_email, reason: row.reason ?? null } : {}),
    occurredAt: row.occurred_at,
  };
}

/**
 * An order's audit trail, oldest first: the rows written before the log (by their index by order),
 * then the log's rows that its record lists. An order no longer stored has only the former.
 */
export async function auditTrail(db: Executor, orderId: string): Promise<AuditRecord[]> {
  const before = await runSql<LogRow & { event_id: string; reference: string | null; event: string; detail: string }>(
    db,
    'select * from audit_events_before_012 where order_id = ? order by occurred_at, event_id',
    [orderId],
  );
  const trail: AuditRecord[] = before.map((row) => ({
    eventId: row.event_id,
    orderId: row.order_id,
    reference: row.reference,
    event: row.event,
    detail: JSON.parse(row.detail),
    ...actorOf(row),
  }));
  const keys = (await loadStoredOrder(db, orderId))?.record.trail ?? [];
  if (keys.length === 0) return trail;
  const rows = await runSql<LogRow & { entries: string }>(
    db,
    `select * from audit_log where entry_id in (${placeholders(keys.length)}) order by entry_id`,
    keys,
  );
  for (const row of rows) {
    for (const entry of JSON.parse(row.entries) as Entry[]) {
      trail.push({
        eventId: entry.eventId,
        orderId: row.order_id,
        reference: entry.reference,
        event: entry.event,
        detail: entry.detail,
        ...actorOf(row),
      });
    }
  }
  return trail;
}
