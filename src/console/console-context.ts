import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { Clock } from '../runtime/clock.js';
import type { Store } from '../store/store.js';
import { noticeQuery, type NoticeKey } from './notices.js';
import type { ConsoleSession } from './sessions.js';

export interface ConsoleDeps {
  config: Config;
  store: Store;
  clock: Clock;
  metrics: ServiceMetrics;
}

/** A form as sent: URL-encoded, or multipart with files. */
export type FormBody = URLSearchParams | FormData;

export function field(request: FastifyRequest, name: string): string {
  const body = request.body as FormBody | undefined;
  const value = body?.get(name);
  return typeof value === 'string' ? value : '';
}

const sessions = new WeakMap<FastifyRequest, ConsoleSession>();

export function rememberSession(request: FastifyRequest, session: ConsoleSession): void {
  sessions.set(request, session);
}

/** The signed-in operator; the console's guard has made sure there is one. */
export function sessionOf(request: FastifyRequest): ConsoleSession {
  const session = sessions.get(request);
  if (!session) throw new Error('console route reached without a session');
  return session;
}

export function sendPage(reply: FastifyReply, markup: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(markup);
}

/**
 * After a form: back to a page, with one of the console's notices named in the query (POST, redirect,
 * GET). Every page it goes back to is a path of encoded segments, with no query of its own.
 */
export function redirectTo(reply: FastifyReply, path: string, notice: NoticeKey, booking?: string): FastifyReply {
  return reply.redirect(`${path}?${noticeQuery(notice, booking)}`, 303);
}
