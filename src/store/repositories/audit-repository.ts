import { randomBytes } from 'node:crypto';
import type { Executor } from '../store.js';

export interface Actor {
  actor: 'agency' | 'operator';
  agencyId: string | null;
  tokenId: string | null;
  requestId: string | null;
  /** The API operation (AirOrderCancel, …) or the CLI command (orders import, …). */
  operation: string;
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

/** Appends events; the audit trail is never updated or deleted by the service. */
export async function appendAuditEvents(db: Executor, actor: Actor, events: readonly AuditEvent[], now: string): Promise<void> {
  if (events.length === 0) return;
  await db.insertInto('audit_events').values(events.map((event, sequence) => ({
    event_id: `evt_${randomBytes(12).toString('hex')}`,
    order_id: event.orderId,
    reference: event.reference,
    sequence,
    event: event.event,
    detail: JSON.stringify(event.detail),
    actor: actor.actor,
    agency_id: actor.agencyId,
    token_id: actor.tokenId,
    request_id: actor.requestId,
    operation: actor.operation,
    occurred_at: now,
  }))).execute();
}

export async function auditTrail(db: Executor, orderId: string): Promise<AuditRecord[]> {
  const rows = await db.selectFrom('audit_events').selectAll().where('order_id', '=', orderId)
    .orderBy('occurred_at').orderBy('request_id').orderBy('sequence').execute();
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
    occurredAt: row.occurred_at,
  }));
}
