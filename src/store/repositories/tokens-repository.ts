import { runSql } from '../raw-sql.js';
import type { Executor } from '../store.js';
import type { Agency } from './agencies-repository.js';

export interface TokenRecord {
  tokenId: string;
  agencyId: string;
  tokenHash: string;
  expiresAt: string | null;
}

export async function insertToken(db: Executor, token: TokenRecord, now: string): Promise<void> {
  await db.insertInto('access_tokens').values({
    token_id: token.tokenId,
    agency_id: token.agencyId,
    token_hash: token.tokenHash,
    created_at: now,
    expires_at: token.expiresAt,
    revoked_at: null,
  }).execute();
}

export interface ActiveToken {
  tokenId: string;
  agency: Agency;
  expiresAt: string | null;
}

/** A token that is not revoked, with its agency; whether it has expired is the caller's to check. */
export async function findActiveToken(db: Executor, tokenHash: string): Promise<ActiveToken | null> {
  // Every request runs this (unless cached): plain SQL text, no query building.
  const [row] = await runSql<{ token_id: string; expires_at: string | null; revoked_at: string | null; agency_id: string; name: string; iata_number: string | null; email: string | null }>(db,
    'select t.token_id, t.expires_at, t.revoked_at, a.agency_id, a.name, a.iata_number, a.email from access_tokens t join agencies a on a.agency_id = t.agency_id where t.token_hash = ?',
    [tokenHash]);
  if (!row || row.revoked_at !== null) return null;
  return {
    tokenId: row.token_id,
    agency: { agencyId: row.agency_id, name: row.name, iataNumber: row.iata_number, email: row.email },
    expiresAt: row.expires_at,
  };
}

/** Returns false when no such token exists; revoking twice keeps the first revocation time. */
export async function revokeTokenByHash(db: Executor, tokenHash: string, now: string): Promise<boolean> {
  const token = await db.selectFrom('access_tokens').select(['token_id', 'revoked_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!token) return false;
  if (token.revoked_at === null) {
    await db.updateTable('access_tokens').set({ revoked_at: now }).where('token_id', '=', token.token_id).execute();
  }
  return true;
}
