import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors } from '../errors/api-error.js';

/**
 * 1 to 255 printable ASCII characters (docs/contract.md §8.1); also the OpenAPI document's pattern.
 * Neither the first nor the last is a space: HTTP drops white space around a header's value, so such
 * a key would arrive as another key (and one of spaces only as an empty one). No key the service can
 * receive is refused for it; the pattern says which keys arrive as sent.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]([\\x20-\\x7E]{0,253}[\\x21-\\x7E])?$';
const PRINTABLE = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The request's Idempotency-Key and a digest of its body, or null when it sent none. */
export function readIdempotencyKey(request: FastifyRequest): { key: string; requestHash: string } | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  // Node joins a repeated header into one value ("x1, y1"), which could also be one key with ", " in
  // it: only the raw headers tell the two apart.
  if (
    typeof header !== 'string' ||
    timesSent(request.raw.rawHeaders, 'idempotency-key') > 1 ||
    !PRINTABLE.test(header)
  ) {
    throw errors.invalidRequest('The Idempotency-Key header must be 1 to 255 printable ASCII characters, sent once.');
  }
  return { key: header, requestHash: createHash('sha256').update(jsonText(request.body)).digest('hex') };
}

/** How many times a header (name in lower case) was sent; `rawHeaders` alternates names and values. */
function timesSent(rawHeaders: string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === name) count++;
  }
  return count;
}

type Piece = { text: string } | { value: unknown };

/**
 * The body as canonical JSON text: the text JSON.stringify gives, with every object's keys sorted,
 * so that "the same body" means the same JSON value, whatever the order of its keys or its
 * whitespace. Written without recursion: unknown fields may nest thousands deep within 64 KiB,
 * which overflows JSON.stringify's stack.
 */
export function jsonText(body: unknown): string {
  const out: string[] = [];
  const pending: Piece[] = [{ value: body }];
  while (pending.length > 0) {
    const piece = pending.pop()!;
    if ('text' in piece) {
      out.push(piece.text);
      continue;
    }
    const { value } = piece;
    if (typeof value !== 'object' || value === null) {
      out.push(JSON.stringify(value));
      continue;
    }
    const inner: Piece[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, index) => inner.push(...(index > 0 ? [{ text: ',' }] : []), { value: item }));
    } else {
      const members = new Map(Object.entries(value));
      // The default sort orders the keys by their UTF-16 code units, not by a locale: the same on every machine.
      [...members.keys()]
        .sort()
        .forEach((key, index) =>
          inner.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` }, { value: members.get(key) }),
        );
    }
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    pending.push({ text: close }, ...inner.reverse(), { text: open });
  }
  return out.join('');
}
