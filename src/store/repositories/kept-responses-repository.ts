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

/** Removes responses past their expiry; returns how many. */
export async function purgeExpiredKeptResponses(db: Executor, now: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
