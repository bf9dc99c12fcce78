import type { Executor } from '../store.js';

export interface IdempotencyScope {
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

function scoped(db: Executor, scope: IdempotencyScope) {
  return db.selectFrom('idempotency_keys')
    .where('agency_id', '=', scope.agencyId)
    .where('operation', '=', scope.operation)
    .where('idempotency_key', '=', scope.key);
}

export async function findKeptResponse(db: Executor, scope: IdempotencyScope): Promise<KeptResponse | null> {
  const row = await scoped(db, scope).selectAll().executeTakeFirst();
  return row ? { requestHash: row.request_hash, status: row.response_status, body: row.response_body, requestId: row.request_id, expiresAt: row.expires_at } : null;
}

export async function deleteKeptResponse(db: Executor, scope: IdempotencyScope): Promise<void> {
  await db.deleteFrom('idempotency_keys')
    .where('agency_id', '=', scope.agencyId)
    .where('operation', '=', scope.operation)
    .where('idempotency_key', '=', scope.key)
    .execute();
}

/** Returns false when another request stored a response under this key first. */
export async function keepResponse(db: Executor, scope: IdempotencyScope, response: KeptResponse, now: string): Promise<boolean> {
  const result = await db.insertInto('idempotency_keys').values({
    agency_id: scope.agencyId,
    operation: scope.operation,
    idempotency_key: scope.key,
    request_hash: response.requestHash,
    response_status: response.status,
    response_body: response.body,
    request_id: response.requestId,
    created_at: now,
    expires_at: response.expiresAt,
  }).onConflict((conflict) => conflict.columns(['agency_id', 'operation', 'idempotency_key']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes responses past their expiry; returns how many. */
export async function purgeExpiredResponses(db: Executor, now: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
