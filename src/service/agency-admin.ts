import { randomBytes } from 'node:crypto';
import { findAgency, insertAgency, type Agency } from '../store/repositories/agencies-repository.js';
import { insertToken, revokeTokenByHash } from '../store/repositories/tokens-repository.js';
import type { Executor, Store } from '../store/store.js';
import type { Clock } from './clock.js';
import { generateToken, hashToken } from './token-secret.js';

export class AdminError extends Error {}

/** Written in the action's own transaction (the console's journal): the action and its record are stored together or not at all. */
export type RecordAction<T = void> = (tx: Executor, done: T) => Promise<void>;

export async function addAgency(store: Store, clock: Clock, agency: Agency, record?: RecordAction): Promise<void> {
  await store.transaction(async (tx) => {
    if (await findAgency(tx, agency.agencyId)) throw new AdminError(`Agency ${agency.agencyId} exists already.`);
    await insertAgency(tx, agency, clock());
    await record?.(tx, undefined);
  });
}

export interface IssuedToken {
  token: string;
  tokenId: string;
  expiresAt: string | null;
}

/** Issues a token for an agency. The secret is returned once and only its hash is stored. */
export async function issueToken(store: Store, clock: Clock, agencyId: string, expiresInMs: number | null, record?: RecordAction<IssuedToken>): Promise<IssuedToken> {
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
    await record?.(tx, issued);
    return issued;
  });
  return issued;
}

export async function revokeToken(store: Store, clock: Clock, token: string): Promise<void> {
  const found = await store.transaction((tx) => revokeTokenByHash(tx, hashToken(token.trim()), clock()));
  if (!found) throw new AdminError('No such token.');
}
