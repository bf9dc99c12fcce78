import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'aot_';

/** A new secret token: a recognisable prefix for secret scanners, then 256 random bits. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * Tokens are stored and looked up only as SHA-256 digests. The secret has 256 bits of entropy, so
 * a fast hash is enough, and the lookup by digest never compares secret bytes one by one.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
