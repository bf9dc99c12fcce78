import type { FastifyRequest } from 'fastify';
import { errors } from '../errors/api-error.js';
import { ownProperty } from '../own-property.js';
import type { Clock } from '../runtime/clock.js';
import { hashToken, tokenFromHeader } from './access-token.js';
import type { TokenLookup } from './token-lookup.js';

/** Resolves the request's token to its agency, or throws AUTH_MISSING / AUTH_INVALID. */
export async function authenticate(request: FastifyRequest, tokens: TokenLookup, clock: Clock): Promise<void> {
  const token = tokenFromHeader(request.headers.authorization);
  if (token === null) throw errors.authMissing();
  const found = await tokens.find(hashToken(token), clock());
  if (!found) throw errors.authInvalid();
  request.agency = found.agency;
  request.tokenId = found.tokenId;
}

/** The sender block as validation lets it through: each part may be missing, none is of another shape. */
type SenderPart = { Party?: { Sender?: { TravelAgencySender?: { IATA_Number?: string; AgencyID?: string } } } };

/**
 * A request that names an agency must name the token's own (docs/contract.md §2.5). Runs after
 * authentication, which set the agency, and after validation, which checked the request's root and
 * sender block.
 */
export function checkSender(request: FastifyRequest, rootKey: string): void {
  const agency = request.agency!;
  const root = ownProperty(request.body as object, rootKey) as SenderPart;
  const sender = root.Party?.Sender?.TravelAgencySender ?? {};
  if (sender.IATA_Number !== undefined && sender.IATA_Number !== agency.iataNumber) {
    throw errors.senderMismatch('Party.Sender.TravelAgencySender.IATA_Number');
  }
  if (sender.AgencyID !== undefined && sender.AgencyID !== agency.agencyId) {
    throw errors.senderMismatch('Party.Sender.TravelAgencySender.AgencyID');
  }
}
