import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';
import type { Agency } from './agencies-repository.js';

export interface TokenRecord {
  tokenId: string;
  agencyId: string;
  tokenHash: string;
  expiresAt: string | null;
}

export async function insertToken(db: Executor, token: TokenRecord, now: string): Promise<void> {
  await db
    .insertInto('access_tokens')
    .values({
      token_id: token.tokenId,
      agency_id: token.agencyId,
      token_hash: token.tokenHash,
      created_at: now,
      expires_at: token.expiresAt,
      revoked_at: null,
    })
    .execute();
}

export interface ActiveToken {
  tokenId: string;
  agency: Agency;
  expiresAt: string | null;
}

/** A token that is not revoked, with its agency; whether it has expired is the caller's to check. */
export async function findActiveToken(db: Executor, tokenHash: string): Promise<ActiveToken | null> {
  // Every request runs this (unless cached): plain SQL text, no query building.
  const [row] = await runSql<{
    token_id: string;
    expires_at: string | null;
    revoked_at: string | null;
    agency_id: string;
    name: string;
    iata_number: string | null;
    email: string | null;
  }>(
    db,
    'select t.token_id, t.expires_at, t.revoked_at, a.agency_id, a.name, a.iata_number, a.email ' +
      'from access_tokens t join agencies a on a.agency_id = t.agency_id where t.token_hash = ?',
    [tokenHash],
  );
  if (!row || row.revoked_at !== null) return null;
  return {
    tokenId: row.token_id,
    agency: { agencyId: row.agency_id, name: row.name, iataNumber: row.iata_number, email: row.email },
    expiresAt: row.expires_at,
  };
}

export interface RevokedToken {
  tokenId: string;
  /** When it was first revoked: revoking again keeps that time. */
  revokedAt: string;
}

async function revokeWhere(
  db: Executor,
  column: 'token_id' | 'token_hash',
  value: string,
  now: string,
): Promise<RevokedToken | null> {
  const token = await db
    .selectFrom('access_tokens')
    .select(['token_id', 'revoked_at'])
    .where(column, '=', value)
    .executeTakeFirst();
  if (!token) return null;
  if (token.revoked_at !== null) return { tokenId: token.token_id, revokedAt: token.revoked_at };
  await db.updateTable('access_tokens').set({ revoked_at: now }).where('token_id', '=', token.token_id).execute();
  return { tokenId: token.token_id, revokedAt: now };
}

/** Null when no token has this digest. */
export async function revokeTokenByHash(db: Executor, tokenHash: string, now: string): Promise<RevokedToken | null> {
  return revokeWhere(db, 'token_hash', tokenHash, now);
}

/** Null when no token has this id. */
export async function revokeTokenWithId(db: Executor, tokenId: string, now: string): Promise<RevokedToken | null> {
  return revokeWhere(db, 'token_id', tokenId, now);
}

/** What the operator may see of a token: everything but its secret, which is not stored anyway. */
export interface TokenListing {
  tokenId: string;
  createdAt: string;
  expiresAt: string | null;
  /** As the serving processes noted it: at most a few minutes early (docs/decisions.md, "Tokens"); null if never used. */
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export async function listAgencyTokens(db: Executor, agencyId: string): Promise<TokenListing[]> {
  const rows = await runSql<{
    token_id: string;
    created_at: string;
    expires_at: string | null;
    last_used_at: string | null;
    revoked_at: string | null;
  }>(
    db,
    'select t.token_id, t.created_at, t.expires_at, u.last_used_at, t.revoked_at ' +
      'from access_tokens t left join token_last_use u on u.token_id = t.token_id ' +
      'where t.agency_id = ? order by t.created_at, t.token_id',
    [agencyId],
  );
  return rows.map((row) => ({
    tokenId: row.token_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  }));
}

export interface TokenUse {
  tokenId: string;
  usedAt: string;
}

/** Notes uses; a later use already noted (by another process) is kept. */
export async function recordTokenUses(db: Executor, uses: readonly TokenUse[]): Promise<void> {
  for (const use of uses) {
    await runSql(
      db,
      'insert into token_last_use (token_id, last_used_at) values (?, ?) ' +
        'on conflict (token_id) do update set last_used_at = excluded.last_used_at ' +
        'where token_last_use.last_used_at < excluded.last_used_at',
      [use.tokenId, use.usedAt],
    );
  }
}
