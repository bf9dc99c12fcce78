import { insertRows, placeholders } from '../raw-sql.js';
import type { Statement } from '../statement.js';
import type { Executor } from '../executor.js';
import { nextEventId } from '../sortable-id.js';

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

const AUDIT_COLUMNS = ['event_id', 'order_id', 'reference', 'sequence', 'event', 'detail', 'actor', 'agency_id', 'token_id', 'request_id', 'operation', 'occurred_at', 'operator_email', 'reason'];

function auditRow(actor: Actor, event: AuditEvent, sequence: number, now: string): unknown[] {
  return [nextEventId(), event.orderId, event.reference, sequence, event.event,
    JSON.stringify(event.detail), actor.actor, actor.agencyId, actor.tokenId, actor.requestId, actor.operation, now,
    actor.operatorEmail ?? null, actor.reason ?? null];
}

/**
 * The statement that appends a request's events (a handful); the audit trail is never updated or
 * deleted by the service. Their sequence, the order within one transaction, starts at
 * `firstSequence` when the transaction appends in parts.
 */
export function auditInsert(actor: Actor, events: readonly AuditEvent[], now: string, firstSequence = 0): Statement {
  const tuple = `(${placeholders(AUDIT_COLUMNS.length)})`;
  return {
    text: `insert into audit_events (${AUDIT_COLUMNS.join(', ')}) values ${events.map(() => tuple).join(', ')}`,
    parameters: events.flatMap((event, index) => auditRow(actor, event, firstSequence + index, now)),
  };
}

/** Appends any number of events (an import's), in as few statements as the store allows. */
export async function appendAuditEvents(db: Executor, actor: Actor, events: readonly AuditEvent[], now: string, firstSequence = 0): Promise<void> {
  if (events.length === 0) return;
  await insertRows(db, 'audit_events', AUDIT_COLUMNS, events.map((event, index) => auditRow(actor, event, firstSequence + index, now)));
}

export async function auditTrail(db: Executor, orderId: string): Promise<AuditRecord[]> {
  const rows = await db.selectFrom('audit_events').selectAll().where('order_id', '=', orderId)
    .orderBy('occurred_at').orderBy('event_id').execute();
  return rows.map((row) => ({
    eventId: row.event_id,
    orderId: row.order_id,
    reference: row.reference,
    event: row.event,
    detail: JSON.parse(row.detail),
    actor: row.actor as Actor['actor'],
    agencyId: row.agency_id,
    tokenId: row.token_id,
    requestId: row.request_id,
    operation: row.operation,
    ...(row.operator_email ? { operatorEmail: row.operator_email, reason: row.reason ?? null } : {}),
    occurredAt: row.occurred_at,
  }));
}
