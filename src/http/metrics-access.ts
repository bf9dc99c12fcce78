import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { addressMatcher, LOOPBACK_RANGES } from '../address-ranges.js';
import type { Config } from '../config.js';
import { errors } from '../errors/api-error.js';
import { tokenFromHeader } from './access-token.js';

const REFUSAL =
  'The metrics are served to loopback, to the addresses of METRICS_ALLOW, and with the METRICS_TOKEN bearer token only.';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The check in front of /metrics (docs/decisions.md, "Who may read /metrics"): loopback and
 * METRICS_ALLOW by the connection's peer address, anyone else only with METRICS_TOKEN. Every
 * refusal is the same 403, a wrong token included, so a caller learns nothing of which it lacked.
 */
export function metricsAccess(
  config: Pick<Config, 'metricsAllow' | 'metricsToken'>,
): (request: FastifyRequest) => Promise<void> {
  const allowed = addressMatcher([...LOOPBACK_RANGES, ...config.metricsAllow]);
  // Digests have one length whatever was sent, which timingSafeEqual needs; comparing them takes
  // the same time however much of the token a guess got right.
  const expected = config.metricsToken === null ? null : digest(config.metricsToken);
  return async (request) => {
    // The TCP peer, not `request.ip`: that would follow X-Forwarded-For should the app ever trust a
    // proxy, and any client can send that header.
    if (allowed(request.raw.socket.remoteAddress)) return;
    const sent = tokenFromHeader(request.headers.authorization);
    if (expected !== null && sent !== null && timingSafeEqual(digest(sent), expected)) return;
    throw errors.forbidden(REFUSAL);
  };
}
