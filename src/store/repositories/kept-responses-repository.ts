import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';

/*
 * Kept responses: the first response to a request with an Idempotency-Key, kept so that a retry is
 * answered with it. They are the rows of the table `idempotency_keys` (its name since migration 002;
 * renaming a table would need a migration of its own, and nothing outside src/store/ sees it).
 */

/** What a kept response is found by: the agency, the operation and the Idempotency-Key. */
export interface KeptResponseKey {
  agencyId: string;
  operation: string;
  key: string;
}

export interface KeptResponse {
  requestHash: string;
  status: number;
  body: string;
  requestId: string;
  expiresAt: string;
}

interface KeptRow {
  request_hash: string;
  response_status: number;
  response_body: string;
  request_id: string;
  expires_at: string;
}

const SCOPE = 'agency_id = ? and operation = ? and idempotency_key = ?';

// Plain SQL text: a request with an Idempotency-Key runs these inside its transaction.
export async function findKeptResponse(db: Executor, scope: KeptResponseKey): Promise<KeptResponse | null> {
  const [row] = await runSql<KeptRow>(
    db,
    `select request_hash, response_status, response_body, request_id, expires_at from idempotency_keys where ${SCOPE}`,
    [scope.agencyId, scope.operation, scope.key],
  );
  return row
    ? {
        requestHash: row.request_hash,
        status: Number(row.response_status),
        body: row.response_body,
        requestId: row.request_id,
        expiresAt: row.expires_at,
      }
    : null;
}

export async function deleteKeptResponse(db: Executor, scope: KeptResponseKey): Promise<void> {
  await runSql(db, `delete from idempotency_keys where ${SCOPE}`, [scope.agencyId, scope.operation, scope.key]);
}

/** Returns false when another request stored a response under this key first. */
export async function keepResponse(
  db: Executor,
  scope: KeptResponseKey,
  response: KeptResponse,
  now: string,
): Promise<boolean> {
  const inserted = await runSql(
    db,
    `insert into idempotency_keys (agency_id, operation, idempotency_key, request_hash, response_status, response_body, request_id, created_at, expires_at)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (agency_id, operation, idempotency_key) do nothing returning agency_id`,
    [
      scope.agencyId,
      scope.operation,
      scope.key,
      response.requestHash,
      response.status,
      response.body,
      response.requestId,
      now,
      response.expiresAt,
    ],
  );
  return inserted.length > 0;
}

/**
 * Moves an agency's count of kept responses (kept_response_counts, migration 015) by `change`. Run in
 * the statement's transaction that inserts or deletes them, so that the count is always the rows'.
 */
export async function countKeptResponses(db: Executor, agencyId: string, change: number): Promise<void> {
  await runSql(
    db,
    `insert into kept_response_counts (agency_id, kept) values (?, ?)
    on conflict (agency_id) do update set kept = kept_response_counts.kept + excluded.kept`,
    [agencyId, change],
  );
}

/** How many kept responses an agency has, expired ones not yet removed included. */
export async function keptResponseCount(db: Executor, agencyId: string): Promise<number> {
  const [row] = await runSql<{ kept: number | string }>(
    db,
    'select kept from kept_response_counts where agency_id = ?',
    [agencyId],
  );
  return row ? Number(row.kept) : 0;
}

/**
 * Whether an agency under a cap of `cap` may keep one more response, in a transaction no other writer
 * overtakes (SQLite's). At the cap, its responses past their expiry are removed first. Null when it
 * may; otherwise when its oldest live kept response expires, the earliest a new key can be kept.
 */
export async function keptResponsesFull(
  db: Executor,
  agencyId: string,
  cap: number,
  now: string,
): Promise<string | null> {
  if ((await keptResponseCount(db, agencyId)) < cap) return null;
  if ((await purgeExpiredKeptResponsesOf(db, agencyId, now)) > 0 && (await keptResponseCount(db, agencyId)) < cap)
    return null;
  return oldestKeptResponseExpiry(db, agencyId, now);
}

/** Removes an agency's responses past their expiry, and takes them off its count; returns how many. */
export async function purgeExpiredKeptResponsesOf(db: Executor, agencyId: string, now: string): Promise<number> {
  const gone = await runSql(
    db,
    'delete from idempotency_keys where agency_id = ? and expires_at <= ? returning agency_id',
    [agencyId, now],
  );
  if (gone.length > 0) await countKeptResponses(db, agencyId, -gone.length);
  return gone.length;
}

/** When the agency's oldest live kept response expires; null when it has none. */
export async function oldestKeptResponseExpiry(db: Executor, agencyId: string, now: string): Promise<string | null> {
  const [row] = await runSql<{ oldest: string | null }>(
    db,
    'select min(expires_at) as oldest from idempotency_keys where agency_id = ? and expires_at > ?',
    [agencyId, now],
  );
  return row?.oldest ?? null;
}

/**
 * Removes responses past their expiry, then sets every agency's count that differs from what it holds
 * to what it holds; returns how many responses were removed. The recount also rights a count that a
 * place reserved on PostgreSQL left wrong (a process that died between reserving its place and
 * keeping its response, an increment lost with the database's last moments: order-update.ts,
 * `reserveRoom`); a place reserved while it runs may be missed, and the count is then low by the
 * requests in flight until the next purge.
 */
export async function purgeExpiredKeptResponses(db: Executor, now: string): Promise<number> {
  const gone = await runSql<{ agency_id: string }>(
    db,
    'delete from idempotency_keys where expires_at <= ? returning agency_id',
    [now],
  );
  const held = 'select count(*) from idempotency_keys k where k.agency_id = kept_response_counts.agency_id';
  await runSql(db, `update kept_response_counts set kept = (${held}) where kept <> (${held})`, []);
  return gone.length;
}
