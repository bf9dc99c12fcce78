import { engineSql } from '../engine-sql.js';
import { placeholders, runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';
import { eventBlockKeySql, loadEvents } from './events-repository.js';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../tables.js';

export type EndpointStatus = 'ENABLED' | 'DISABLED';
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface WebhookEndpoint {
  endpointId: string;
  agencyId: string;
  url: string;
  /** Event types, or `['*']` for all. */
  events: string[];
  status: EndpointStatus;
  statusReason: string | null;
  secret: string;
  /** A rotated-out secret that still signs beside the new one until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: string | null;
  createdAt: string;
}

export interface WebhookDelivery {
  eventId: string;
  endpointId: string;
  agencyId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

function endpointFromRow(row: WebhookEndpointsTable): WebhookEndpoint {
  return {
    endpointId: row.endpoint_id,
    agencyId: row.agency_id,
    url: row.url,
    events: row.events.split(','),
    status: row.status as EndpointStatus,
    statusReason: row.status_reason,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
    createdAt: row.created_at,
  };
}

function deliveryFromRow(row: WebhookDeliveriesTable): WebhookDelivery {
  return {
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    agencyId: row.agency_id,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export async function insertEndpoint(db: Executor, endpoint: WebhookEndpoint): Promise<void> {
  await runSql(
    db,
    `insert into webhook_endpoints (endpoint_id, agency_id, url, events, status, status_reason, secret, previous_secret, previous_secret_until, created_at)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      endpoint.endpointId,
      endpoint.agencyId,
      endpoint.url,
      endpoint.events.join(','),
      endpoint.status,
      endpoint.statusReason,
      endpoint.secret,
      endpoint.previousSecret,
      endpoint.previousSecretUntil,
      endpoint.createdAt,
    ],
  );
}

export async function findEndpoint(db: Executor, endpointId: string): Promise<WebhookEndpoint | null> {
  const [row] = await runSql<WebhookEndpointsTable>(db, 'select * from webhook_endpoints where endpoint_id = ?', [
    endpointId,
  ]);
  return row ? endpointFromRow(row) : null;
}

export async function listEndpoints(db: Executor, agencyId: string | null): Promise<WebhookEndpoint[]> {
  const rows =
    agencyId === null
      ? await runSql<WebhookEndpointsTable>(
          db,
          'select * from webhook_endpoints order by agency_id, created_at, endpoint_id',
          [],
        )
      : await runSql<WebhookEndpointsTable>(
          db,
          'select * from webhook_endpoints where agency_id = ? order by created_at, endpoint_id',
          [agencyId],
        );
  return rows.map(endpointFromRow);
}

export async function setEndpointStatus(
  db: Executor,
  endpointId: string,
  status: EndpointStatus,
  reason: string | null,
): Promise<void> {
  await runSql(db, 'update webhook_endpoints set status = ?, status_reason = ? where endpoint_id = ?', [
    status,
    reason,
    endpointId,
  ]);
}

export async function replaceSecret(
  db: Executor,
  endpointId: string,
  secret: string,
  previous: string,
  previousUntil: string,
): Promise<void> {
  await runSql(
    db,
    'update webhook_endpoints set secret = ?, previous_secret = ?, previous_secret_until = ? where endpoint_id = ?',
    [secret, previous, previousUntil, endpointId],
  );
}

/** Removes an endpoint and its deliveries. */
export async function deleteEndpoint(db: Executor, endpointId: string): Promise<void> {
  await runSql(db, 'delete from webhook_deliveries where endpoint_id = ?', [endpointId]);
  await runSql(db, 'delete from webhook_endpoints where endpoint_id = ?', [endpointId]);
}

export interface DeliveryFilter {
  agencyId?: string;
  endpointId?: string;
  failedOnly?: boolean;
  limit: number;
}

/** Deliveries, newest first. */
export async function listDeliveries(db: Executor, filter: DeliveryFilter): Promise<WebhookDelivery[]> {
  const where: string[] = [];
  const parameters: unknown[] = [];
  if (filter.agencyId !== undefined) {
    where.push('agency_id = ?');
    parameters.push(filter.agencyId);
  }
  if (filter.endpointId !== undefined) {
    where.push('endpoint_id = ?');
    parameters.push(filter.endpointId);
  }
  if (filter.failedOnly) where.push("status = 'FAILED'");
  const rows = await runSql<WebhookDeliveriesTable>(
    db,
    `select * from webhook_deliveries${where.length ? ` where ${where.join(' and ')}` : ''}
    order by created_at desc, event_id desc limit ?`,
    [...parameters, filter.limit],
  );
  return rows.map(deliveryFromRow);
}

/** Queues the event again for these endpoints, due at `now`, whatever became of earlier deliveries. */
export async function queueRedelivery(
  db: Executor,
  eventId: string,
  agencyId: string,
  endpointIds: readonly string[],
  now: string,
): Promise<void> {
  for (const endpointId of endpointIds) {
    await runSql(
      db,
      `insert into webhook_deliveries (event_id, endpoint_id, agency_id, status, attempts, next_attempt_at, created_at)
      values (?, ?, ?, 'PENDING', 0, ?, ?)
      on conflict (event_id, endpoint_id) do update set status = 'PENDING', attempts = 0, next_attempt_at = excluded.next_attempt_at,
        lease_owner = null, lease_until = null, finished_at = null`,
      [eventId, endpointId, agencyId, now, now],
    );
  }
}

/** A delivery claimed for one attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  eventId: string;
  endpointId: string;
  attempts: number;
  eventType: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** Endpoints with deliveries due at `now`, and how many each has. */
export async function endpointsWithDueDeliveries(db: Executor, now: string): Promise<Map<string, number>> {
  const rows = await runSql<{ endpoint_id: string; due: number | string }>(
    db,
    `select d.endpoint_id, count(*) as due from webhook_deliveries d
    join webhook_endpoints e on e.endpoint_id = d.endpoint_id and e.status = 'ENABLED'
    where d.status = 'PENDING' and d.next_attempt_at <= ? and (d.lease_until is null or d.lease_until <= ?)
    group by d.endpoint_id`,
    [now, now],
  );
  return new Map(rows.map((row) => [row.endpoint_id, Number(row.due)]));
}

/**
 * Claims up to `limit` due deliveries of one endpoint for `owner` until `leaseUntil`, oldest due
 * first; each is then attempted by that owner alone. Rows another process is claiming at the same
 * moment are skipped (engine-sql.ts, `claimRows`; nothing to skip where write transactions run one at a time).
 */
export async function claimDeliveries(
  db: Executor,
  endpointId: string,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const { claimRows } = engineSql(db);
  const due = await runSql<{ event_id: string }>(
    db,
    `select event_id from webhook_deliveries
    where endpoint_id = ? and status = 'PENDING' and next_attempt_at <= ? and (lease_until is null or lease_until <= ?)
    order by next_attempt_at, event_id limit ?${claimRows}`,
    [endpointId, now, now, limit],
  );
  if (due.length === 0) return [];
  const ids = due.map((row) => row.event_id);
  await runSql(
    db,
    `update webhook_deliveries set lease_owner = ?, lease_until = ? where endpoint_id = ? and event_id in (${placeholders(ids.length)})`,
    [owner, leaseUntil, endpointId, ...ids],
  );
  const rows = await runSql<{ event_id: string; attempts: number | string }>(
    db,
    `select event_id, attempts from webhook_deliveries where endpoint_id = ? and event_id in (${placeholders(ids.length)})`,
    [endpointId, ...ids],
  );
  const events = await loadEvents(
    db,
    rows.map((row) => row.event_id),
  );
  return rows.flatMap((row) => {
    const event = events.get(row.event_id);
    return event
      ? [
          {
            eventId: row.event_id,
            endpointId,
            attempts: Number(row.attempts),
            eventType: event.type,
            occurredAt: event.occurredAt,
            data: event.data,
          },
        ]
      : [];
  });
}

export interface AttemptRecord {
  status: DeliveryStatus;
  /** When the next attempt is due (PENDING). */
  nextAttemptAt: string;
  lastStatus: number | null;
  lastError: string | null;
  at: string;
}

/**
 * Records an attempt's outcome, if the lease is still `owner`'s (a lease that ran out meanwhile
 * belongs to whoever claimed the delivery next: its outcome is theirs to record). True when recorded.
 */
export async function recordAttempt(
  db: Executor,
  eventId: string,
  endpointId: string,
  owner: string,
  record: AttemptRecord,
): Promise<boolean> {
  const updated = await runSql<{ event_id: string }>(
    db,
    `update webhook_deliveries
    set status = ?, attempts = attempts + 1, next_attempt_at = ?, last_attempt_at = ?, last_status = ?, last_error = ?,
      finished_at = ?, lease_owner = null, lease_until = null
    where event_id = ? and endpoint_id = ? and lease_owner = ? returning event_id`,
    [
      record.status,
      record.nextAttemptAt,
      record.at,
      record.lastStatus,
      record.lastError?.slice(0, 300) ?? null,
      record.status === 'PENDING' ? null : record.at,
      eventId,
      endpointId,
      owner,
    ],
  );
  return updated.length > 0;
}

/** When the oldest event still waiting for a delivery occurred; null when none waits. */
export async function oldestUndelivered(db: Executor): Promise<string | null> {
  // The event's row of the log by its key (events-repository.ts), or its row of before.
  const [row] = await runSql<{ oldest: string | null }>(
    db,
    `select min(coalesce(l.occurred_at, e.occurred_at)) as oldest from webhook_deliveries d
    left join event_log l on l.first_id = ${eventBlockKeySql('d.event_id')}
    left join events_before_013 e on l.first_id is null and e.event_id = d.event_id
    where d.status = 'PENDING'`,
    [],
  );
  return row?.oldest ?? null;
}
