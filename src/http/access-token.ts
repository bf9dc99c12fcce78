export { hashToken } from '../service/token-secret.js';

/** Accepts `Bearer <token>` and the bare token; null when nothing was sent. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (header === undefined) return null;
  const value = header.trim();
  if (value === '') return null;
  const bearer = /^bearer\s+(.*)$/i.exec(value);
  return bearer ? bearer[1]!.trim() : value;
}
