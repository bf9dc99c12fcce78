import type { FastifyRequest } from 'fastify';
import { sameSecret } from './sessions.js';

/** The header a script sends the page's token in, instead of the form's first field. */
export const CSRF_HEADER = 'x-csrf-token';
/** The field every form that changes something sends first: nothing after it is read unless it matches. */
export const CSRF_FIELD = '_csrf';

interface CsrfState {
  expected: string;
  verified: boolean;
}

const states = new WeakMap<FastifyRequest, CsrfState>();

/** Refused: the form did not come from the console. Answered 403 with the console's words. */
export class CsrfRefusal extends Error {
  readonly statusCode = 403;

  constructor() {
    super('the CSRF token is missing or wrong');
    this.name = 'CsrfRefusal';
  }
}

/**
 * Called before the body is read, with the token this request must carry. A token in the header
 * settles it at once (true or false); without one it is left to the body's first field (null).
 */
export function expectCsrf(request: FastifyRequest, expected: string): boolean | null {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string') {
    const verified = sameSecret(header, expected);
    states.set(request, { expected, verified });
    return verified;
  }
  states.set(request, { expected, verified: false });
  return null;
}

/** Whether the body still has to show the token in its first field. */
export function csrfPending(request: FastifyRequest): boolean {
  const state = states.get(request);
  return state !== undefined && !state.verified;
}

/** The body's first field: it must be the token, or the request is refused before the rest is read. */
export function checkFirstField(request: FastifyRequest, name: string, value: string): boolean {
  const state = states.get(request);
  if (!state || state.verified) return true;
  state.verified = name === CSRF_FIELD && sameSecret(value, state.expected);
  return state.verified;
}

/** For the last check before a handler: a POST whose token was expected and never shown is refused. */
export function csrfVerified(request: FastifyRequest): boolean {
  return states.get(request)?.verified ?? false;
}
