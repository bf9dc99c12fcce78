import { placeholders, runSql } from '../raw-sql.js';
import { recordSelect, storedOrderOf } from './orders-repository.js';
import type { Executor } from '../executor.js';

/** What the console reads beyond single orders: searches and summaries, in SQL both stores run unchanged. */

export interface OrderSummary {
  orderId: string;
  agencyId: string;
  currency: string;
  updatedAt: string;
}

/** `%`, `_` and the escape itself match literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Audit entries read at a time, newest first, while looking for the most recently changed orders. */
const LOG_PAGE = 1000;

/**
 * The ids of the most recently changed orders, newest first: read from the audit trail, whose key
 * grows with time (sortable-id.ts), since no index follows the orders' time of change (each would
 * be moved by every request). Every change of an order, its import included, is audited.
 */
async function recentlyChangedOrders(db: Executor, limit: number, offset: number): Promise<string[]> {
  const seen = new Set<string>();
  // The log first, newest first; then, if the page is not full, the trail written before it.
  for (const [table, key] of [
    ['audit_log', 'entry_id'],
    ['audit_events_before_012', 'event_id'],
  ] as const) {
    let before: string | null = null;
    while (seen.size < offset + limit) {
      const rows: { id: string; order_id: string }[] =
        before === null
          ? await runSql(db, `select ${key} as id, order_id from ${table} order by ${key} desc limit ?`, [LOG_PAGE])
          : await runSql(
              db,
              `select ${key} as id, order_id from ${table} where ${key} < ? order by ${key} desc limit ?`,
              [before, LOG_PAGE],
            );
      for (const row of rows) seen.add(row.order_id);
      if (rows.length < LOG_PAGE) break;
      before = rows[rows.length - 1]!.id;
    }
  }
  return [...seen].slice(offset, offset + limit);
}

/** The summaries of these orders, in the same order (those that no longer exist left out). */
async function summaries(db: Executor, orderIds: readonly string[]): Promise<OrderSummary[]> {
  if (orderIds.length === 0) return [];
  const rows = await runSql<{ order_id: string; agency_id: string; version: number | string; record: string }>(
    db,
    `${recordSelect(db)} where order_id in (${placeholders(orderIds.length)})`,
    orderIds,
  );
  const found = new Map(
    rows.map((row) => {
      const { row: order, record } = storedOrderOf(row);
      return [order.orderId, { ...order, updatedAt: record.updatedAt }];
    }),
  );
  return orderIds.flatMap((orderId) => found.get(orderId) ?? []);
}

/**
 * Orders whose id is `q`, or with a booking whose reference is `q`, or a passenger whose ticket
 * number or surname (any case) is `q`, most recently changed first. Passengers are stored as JSON,
 * so the ticket and surname are matched as their exact JSON members, through the `bookings` view of
 * every record. An empty `q` lists every order, most recently changed first.
 */
export async function searchOrders(db: Executor, q: string, limit: number, offset: number): Promise<OrderSummary[]> {
  if (q === '') return summaries(db, await recentlyChangedOrders(db, limit, offset));
  const member = (name: string, value: string) => `%${likeLiteral(JSON.stringify({ [name]: value }).slice(1, -1))}%`;
  const rows = await runSql<{ order_id: string; updated_at: string }>(
    db,
    `select o.order_id, o.updated_at from orders o where o.order_id = ? or o.order_id in (
      select b.order_id from bookings b
      where b.reference = ? or b.passengers like ? escape '\\' or lower(b.passengers) like ? escape '\\')
    order by o.updated_at desc, o.order_id limit ? offset ?`,
    [q, q.toUpperCase(), member('ticketNumber', q), member('surname', q.toLowerCase()), limit, offset],
  );
  return summaries(
    db,
    rows.map((row) => row.order_id),
  );
}

export interface PendingChangeSummary {
  changeId: string;
  orderId: string;
  reference: string;
  kind: string;
  actionDeadline: string | null;
  consequence: string;
}

/** Pending airline changes, the nearest deadline first and those without one last. */
export async function pendingChanges(db: Executor, limit: number): Promise<PendingChangeSummary[]> {
  const rows = await runSql<{
    change_id: string;
    order_id: string;
    reference: string;
    kind: string;
    action_deadline: string | null;
    consequence: string;
  }>(
    db,
    `select change_id, order_id, reference, kind, action_deadline, consequence from airline_changes where status = 'PENDING'
     order by case when action_deadline is null then 1 else 0 end, action_deadline, change_id limit ?`,
    [limit],
  );
  return rows.map((row) => ({
    changeId: row.change_id,
    orderId: row.order_id,
    reference: row.reference,
    kind: row.kind,
    actionDeadline: row.action_deadline,
    consequence: row.consequence,
  }));
}

export interface FailingEndpoint {
  endpointId: string;
  agencyId: string;
  url: string;
  failed: number;
  lastError: string | null;
}

/** Endpoints with deliveries that failed for good or whose last attempt failed. */
export async function failingEndpoints(db: Executor): Promise<FailingEndpoint[]> {
  const rows = await runSql<{
    endpoint_id: string;
    agency_id: string;
    url: string;
    failed: number | string;
    last_error: string | null;
  }>(
    db,
    `select e.endpoint_id, e.agency_id, e.url, count(*) as failed, max(d.last_error) as last_error
     from webhook_deliveries d join webhook_endpoints e on e.endpoint_id = d.endpoint_id
     where d.status = 'FAILED' or (d.status = 'PENDING' and d.attempts > 0)
     group by e.endpoint_id, e.agency_id, e.url order by e.agency_id, e.endpoint_id`,
    [],
  );
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    agencyId: row.agency_id,
    url: row.url,
    failed: Number(row.failed),
    lastError: row.last_error,
  }));
}

export interface RefundTotal {
  currency: string;
  count: number;
  amountMinor: number;
}

export async function refundsSince(db: Executor, since: string): Promise<RefundTotal[]> {
  const rows = await runSql<{ currency: string; count: number | string; amount: number | string }>(
    db,
    `select currency, count(*) as count, sum(amount_minor) as amount from refunds where created_at >= ?
     group by currency order by currency`,
    [since],
  );
  return rows.map((row) => ({ currency: row.currency, count: Number(row.count), amountMinor: Number(row.amount) }));
}

export interface AgencySummary {
  agencyId: string;
  name: string;
  iataNumber: string | null;
  email: string | null;
}

export async function listAgencies(db: Executor): Promise<AgencySummary[]> {
  const rows = await runSql<{ agency_id: string; name: string; iata_number: string | null; email: string | null }>(
    db,
    'select agency_id, name, iata_number, email from agencies order by agency_id',
    [],
  );
  return rows.map((row) => ({
    agencyId: row.agency_id,
    name: row.name,
    iataNumber: row.iata_number,
    email: row.email,
  }));
}

export interface TokenSummary {
  tokenId: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export async function agencyTokens(db: Executor, agencyId: string): Promise<TokenSummary[]> {
  const rows = await runSql<{
    token_id: string;
    created_at: string;
    expires_at: string | null;
    revoked_at: string | null;
  }>(
    db,
    'select token_id, created_at, expires_at, revoked_at from access_tokens where agency_id = ? order by created_at, token_id',
    [agencyId],
  );
  return rows.map((row) => ({
    tokenId: row.token_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  }));
}

/** Revokes one of the agency's tokens by its id; false when it has no such token not yet revoked. */
export async function revokeTokenById(db: Executor, agencyId: string, tokenId: string, now: string): Promise<boolean> {
  const rows = await runSql<{ token_id: string }>(
    db,
    'update access_tokens set revoked_at = ? where token_id = ? and agency_id = ? and revoked_at is null returning token_id',
    [now, tokenId, agencyId],
  );
  return rows.length > 0;
}
