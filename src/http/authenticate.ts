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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A request that names an agency must name the token's own (docs/contract.md §2.5). */
export function checkSender(request: FastifyRequest, rootKey: string): void {
  const agency = request.agency;
  if (!agency) return;
  const root = isObject(request.body) ? ownProperty(request.body, rootKey) : undefined;
  const party = isObject(root) ? root.Party : undefined;
  const sender =
    isObject(party) && isObject(party.Sender) && isObject(party.Sender.TravelAgencySender)
      ? party.Sender.TravelAgencySender
      : {};
  if (typeof sender.IATA_Number === 'string' && sender.IATA_Number !== (agency.iataNumber ?? '')) {
    throw errors.senderMismatch('Party.Sender.TravelAgencySender.IATA_Number');
  }
  if (typeof sender.AgencyID === 'string' && sender.AgencyID !== agency.agencyId) {
    throw errors.senderMismatch('Party.Sender.TravelAgencySender.AgencyID');
  }
}
