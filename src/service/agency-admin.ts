import { randomBytes } from 'node:crypto';
import { findAgency, insertAgency, type Agency } from '../store/repositories/agencies-repository.js';
import { insertToken, revokeTokenByHash } from '../store/repositories/tokens-repository.js';
import type { Store } from '../store/store.js';
import type { Clock } from './clock.js';
import { generateToken, hashToken } from './token-secret.js';

export class AdminError extends Error {}

export async function addAgency(store: Store, clock: Clock, agency: Agency): Promise<void> {
  await store.transaction(async (tx) => {
    if (await findAgency(tx, agency.agencyId)) throw new AdminError(`Agency ${agency.agencyId} exists already.`);
    await insertAgency(tx, agency, clock());
  });
}

export interface IssuedToken {
  token: string;
  tokenId: string;
  expiresAt: string | null;
}

/** Issues a token for an agency. The secret is returned once and only its hash is stored. */
export async function issueToken(store: Store, clock: Clock, agencyId: string, expiresInMs: number | null): Promise<IssuedToken> {
  const issued = await store.transaction(async (tx) => {
    if (!await findAgency(tx, agencyId)) throw new AdminError(`No agency ${agencyId}; create it first with: airorder agency add --agency-id ${agencyId} --name NAME`);
    const now = clock();
    const token = generateToken();
    const issued = {
      token,
      tokenId: `tok_${randomBytes(8).toString('hex')}`,
      expiresAt: expiresInMs === null ? null : new Date(Date.parse(now) + expiresInMs).toISOString(),
    };
    await insertToken(tx, { tokenId: issued.tokenId, agencyId, tokenHash: hashToken(token), expiresAt: issued.expiresAt }, now);
    return issued;
  });
  return issued;
}

export async function revokeToken(store: Store, clock: Clock, token: string): Promise<void> {
  const found = await store.transaction((tx) => revokeTokenByHash(tx, hashToken(token.trim()), clock()));
  if (!found) throw new AdminError('No such token.');
}
