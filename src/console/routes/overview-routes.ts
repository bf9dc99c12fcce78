import type { FastifyInstance } from 'fastify';
import { sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { noticeOf } from '../notices.js';
import { overviewPage } from '../pages/overview-page.js';
import type { RequestTally } from '../request-tally.js';

export function overviewRoutes(app: FastifyInstance, deps: ConsoleDeps, tally: RequestTally): void {
  app.get('/', async (request, reply) => {
    const now = deps.clock();
    const read = deps.store.read;
    const [changes, endpoints, refunds, actions, requests] = await Promise.all([
      read.pendingChanges(500),
      read.failingEndpoints(),
      read.refundsSince(new Date(Date.parse(now) - 24 * 3_600_000).toISOString()),
      read.recentOperatorActions(20),
      tally.lastHour(),
    ]);
    return sendPage(
      reply,
      overviewPage({
        session: sessionOf(request),
        notice: noticeOf(request),
        now,
        changes,
        endpoints,
        refunds,
        requests,
        actions,
      }),
    );
  });
}
