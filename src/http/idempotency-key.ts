import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors } from '../errors/api-error.js';

const PRINTABLE = /^[\x20-\x7E]{1,255}$/;

/** The request's Idempotency-Key and a digest of its body, or null when it sent none. */
export function readIdempotencyKey(request: FastifyRequest): { key: string; requestHash: string } | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  if (Array.isArray(header) || !PRINTABLE.test(header)) {
    throw errors.invalidRequest('The Idempotency-Key header must be 1 to 255 printable ASCII characters, sent once.');
  }
  return { key: header, requestHash: createHash('sha256').update(JSON.stringify(request.body)).digest('hex') };
}
