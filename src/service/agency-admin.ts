import { randomBytes } from 'node:crypto';
import type { Agency } from '../store/repositories/agencies-repository.js';
import type { Records, Store } from '../store/store.js';
import type { Clock } from './clock.js';
import { generateToken, hashToken } from './token-secret.js';

export class AdminError extends Error {}

/** Written in the action's own transaction (the console's journal): the action and its record are stored together or not at all. */
export type RecordAction<T = void> = (records: Records, done: T) => Promise<void>;

export async function addAgency(store: Store, clock: Clock, agency: Agency, record?: RecordAction): Promise<void> {
  await store.write(async (records) => {
    if (await records.agencies.find(agency.agencyId)) throw new AdminError(`Agency ${agency.agencyId} exists already.`);
    await records.agencies.add(agency, clock());
    await record?.(records, undefined);
  });
}

export interface IssuedToken {
  token: string;
  tokenId: string;
  expiresAt: string | null;
}

/** Issues a token for an agency. The secret is returned once and only its hash is stored. */
export async function issueToken(store: Store, clock: Clock, agencyId: string, expiresInMs: number | null, record?: RecordAction<IssuedToken>): Promise<IssuedToken> {
  const issued = await store.write(async (records) => {
    if (!await records.agencies.find(agencyId)) throw new AdminError(`No agency ${agencyId}; create it first with: airorder agency add --agency-id ${agencyId} --name NAME`);
    const now = clock();
    const token = generateToken();
    const issued = {
      token,
      tokenId: `tok_${randomBytes(8).toString('hex')}`,
      expiresAt: expiresInMs === null ? null : new Date(Date.parse(now) + expiresInMs).toISOString(),
    };
    await records.tokens.add({ tokenId: issued.tokenId, agencyId, tokenHash: hashToken(token), expiresAt: issued.expiresAt }, now);
    await record?.(records, issued);
    return issued;
  });
  return issued;
}

export async function revokeToken(store: Store, clock: Clock, token: string): Promise<void> {
  const found = await store.write((records) => records.tokens.revokeByHash(hashToken(token.trim()), clock()));
  if (!found) throw new AdminError('No such token.');
}
