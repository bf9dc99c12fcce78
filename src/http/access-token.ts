export { hashToken } from '../service/token-secret.js';

/**
 * Accepts `Bearer <token>` and the bare token; null when nothing was sent. Node's HTTP parser has
 * already taken the white space around the header's value away.
 */
export function tokenFromHeader(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  const bearer = /^bearer\s+(.*)/i.exec(header);
  return bearer ? bearer[1]! : header;
}
