import type { FastifyInstance } from 'fastify';
import { noticeOf, sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { overviewPage } from '../pages/overview-page.js';
import type { RequestTally } from '../request-tally.js';

export function overviewRoutes(app: FastifyInstance, deps: ConsoleDeps, tally: RequestTally): void {
  app.get('/', async (request, reply) => {
    const now = deps.clock();
    const reader = deps.store.read;
    const [changes, endpoints, refunds, actions, requests] = await Promise.all([
      reader.changes.pending(500),
      reader.webhooks.failing(),
      reader.orders.refundsSince(new Date(Date.parse(now) - 24 * 3_600_000).toISOString()),
      reader.operatorActions.recent(20),
      tally.lastHour(),
    ]);
    return sendPage(reply, overviewPage({ session: sessionOf(request), notice: noticeOf(request), now, changes, endpoints, refunds, requests, actions }));
  });
}
