import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'airorder_console';
/** Carries the sign-in form's CSRF token before there is a session (double submit). */
export const LOGIN_COOKIE = 'airorder_console_login';

export function readCookie(request: FastifyRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || null;
  }
  return null;
}

/** Behind a proxy that ends TLS, the proxy says so in X-Forwarded-Proto. */
function overHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
}

/** Not readable by scripts, never sent from another site, only to the console's paths, and only over https when served over https. */
export function cookieHeader(
  request: FastifyRequest,
  name: string,
  value: string,
  path = '/console',
  maxAgeSeconds?: number,
): string {
  return [
    `${name}=${value}`,
    `Path=${path}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(maxAgeSeconds === undefined ? [] : [`Max-Age=${maxAgeSeconds}`]),
    ...(overHttps(request) ? ['Secure'] : []),
  ].join('; ');
}
