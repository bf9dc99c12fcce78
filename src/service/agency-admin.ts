import { randomBytes } from 'node:crypto';
import type { Agency } from '../store/repositories/agencies-repository.js';
import type { RevokedToken, TokenListing } from '../store/repositories/tokens-repository.js';
import type { Repositories, Store } from '../store/store.js';
import type { Clock } from '../runtime/clock.js';
import { generateToken, hashToken } from './token-secret.js';

export class AdminError extends Error {}

/** Written in the action's own transaction (the console's journal): the action and its record are stored together or not at all. */
export type RecordAction<T = void> = (tx: Repositories, done: T) => Promise<void>;

export async function addAgency(store: Store, clock: Clock, agency: Agency, record?: RecordAction): Promise<void> {
  await store.write(async (tx) => {
    if (await tx.findAgency(agency.agencyId)) throw new AdminError(`Agency ${agency.agencyId} exists already.`);
    await tx.insertAgency(agency, clock());
    await record?.(tx, undefined);
  });
}

export interface IssuedToken {
  token: string;
  tokenId: string;
  expiresAt: string | null;
}

/** Issues a token for an agency. The secret is returned once and only its hash is stored. */
export async function issueToken(
  store: Store,
  clock: Clock,
  agencyId: string,
  expiresInMs: number | null,
  record?: RecordAction<IssuedToken>,
): Promise<IssuedToken> {
  const issued = await store.write(async (tx) => {
    if (!(await tx.findAgency(agencyId)))
      throw new AdminError(
        `No agency ${agencyId}; create it first with: airorder agency add --agency-id ${agencyId} --name NAME`,
      );
    const now = clock();
    const token = generateToken();
    const issued = {
      token,
      tokenId: `tok_${randomBytes(8).toString('hex')}`,
      expiresAt: expiresInMs === null ? null : new Date(Date.parse(now) + expiresInMs).toISOString(),
    };
    await tx.insertToken(
      { tokenId: issued.tokenId, agencyId, tokenHash: hashToken(token), expiresAt: issued.expiresAt },
      now,
    );
    await record?.(tx, issued);
    return issued;
  });
  return issued;
}

/** What names the token to revoke: its id (`tok_…`, as `token issue --json` and `token list` print it), or the token itself. */
export type TokenToRevoke = { tokenId: string } | { token: string };

/** Revokes a token at once; revoking it again keeps the first revocation's time. */
export async function revokeToken(store: Store, clock: Clock, which: TokenToRevoke): Promise<RevokedToken> {
  const revoked = await store.write((tx) =>
    'tokenId' in which
      ? tx.revokeTokenWithId(which.tokenId, clock())
      : tx.revokeTokenByHash(hashToken(which.token), clock()),
  );
  if (!revoked) throw new AdminError('tokenId' in which ? `No token ${which.tokenId}.` : 'No such token.');
  return revoked;
}

/** An agency's tokens, oldest first, without secrets. */
export async function listTokens(store: Store, agencyId: string): Promise<TokenListing[]> {
  if (!(await store.read.findAgency(agencyId))) throw new AdminError(`No agency ${agencyId}.`);
  return store.read.listAgencyTokens(agencyId);
}
