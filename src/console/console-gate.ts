import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rememberSession, sendPage, type ConsoleDeps } from './console-context.js';
import { LOGIN_COOKIE, readCookie, SESSION_COOKIE } from './cookies.js';
import { csrfVerified, expectCsrf } from './csrf-check.js';
import { html } from './html.js';
import { csrfRefused, page } from './layout.js';
import { resumeSession } from './sessions.js';

/**
 * Whether the request still has body bytes on the wire that nothing has read. The parser marks a
 * request complete once it has seen its end, and the console's hooks run after the parser's pass
 * over the bytes that brought the headers: a request without a body is complete by then
 * (console-unread-bodies.test.ts holds it to that, a compressed one refused first included).
 */
function bodyUnread(request: FastifyRequest): boolean {
  return !request.raw.complete;
}

/** How long a closing connection still takes (and drops) what the client sends, so that it reads the answer. */
export const LINGER_MS = 2_000;

/**
 * Answers before the body is read: the connection then closes instead of reading the body into
 * anything, so a stranger's upload costs the service its headers only. Closed at once, a socket with
 * unread bytes is reset, and the reset can destroy the answer before the client reads it (an
 * operator whose session ended would see a broken upload, not the sign-in page); so the service
 * sends its answer and its end, then drops what still arrives for LINGER_MS before it lets go.
 */
export function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (!bodyUnread(request)) return;
  void reply.header('connection', 'close');
  const socket = request.raw.socket as Socket & { destroySoon?: () => void };
  // Node calls destroySoon once a `Connection: close` answer has been written.
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}

/**
 * The console reads no compressed body: its forms are small, its uploads are streamed to disk, and
 * inflating first would let a small request cost the service a large one (415, before reading).
 */
export async function refuseCompressedBody(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  // In lower case by now (src/http/content-coding.ts).
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined || encoding === 'identity') return undefined;
  closeIfBodyUnread(request, reply);
  return sendPage(
    reply,
    page(
      {
        title: 'Not accepted',
        error: 'The console does not read compressed request bodies; send the form uncompressed.',
      },
      html`<p><a href="/console">Back to the overview</a></p>`,
    ),
    415,
  );
}

/**
 * `onRequest` of every signed-in page: the session, and for a POST its CSRF token when sent in the
 * header, are known before a byte of the body is read. A token not in the header must be the form's
 * first field (form-body.ts, upload-reader.ts); `requireCsrf` makes sure it was.
 */
export function requireSession(deps: ConsoleDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const sessionId = readCookie(request, SESSION_COOKIE);
    const session = sessionId ? await resumeSession(deps.store, deps.clock, sessionId) : null;
    // An agency's bearer token is not looked at: only a console session opens the console.
    if (!session) {
      closeIfBodyUnread(request, reply);
      return reply.redirect('/console/login', 303);
    }
    rememberSession(request, session);
    if (request.method !== 'POST' || expectCsrf(request, session.csrfToken) !== false) return undefined;
    closeIfBodyUnread(request, reply);
    return csrfRefused(reply);
  };
}

/** `onRequest` of the sign-in form: its double-submit cookie must be there before its body is read. */
export async function requireLoginCookie(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const expected = readCookie(request, LOGIN_COOKIE);
  if (expected && expectCsrf(request, expected) !== false) return undefined;
  closeIfBodyUnread(request, reply);
  return csrfRefused(reply);
}

/** `preHandler` of every POST: a token that was owed and never shown (no header, no body) refuses the form. */
export async function requireCsrf(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (request.method !== 'POST' || csrfVerified(request)) return undefined;
  closeIfBodyUnread(request, reply);
  return csrfRefused(reply);
}
