import type { FastifyInstance } from 'fastify';
import { failingEndpoints, pendingChanges, refundsSince } from '../../store/repositories/console-queries-repository.js';
import { recentOperatorActions } from '../../store/repositories/operator-actions-repository.js';
import { noticeOf, sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { overviewPage } from '../pages/overview-page.js';
import type { RequestTally } from '../request-tally.js';

export function overviewRoutes(app: FastifyInstance, deps: ConsoleDeps, tally: RequestTally): void {
  app.get('/', async (request, reply) => {
    const now = deps.clock();
    const reader = deps.store.reader;
    const [changes, endpoints, refunds, actions, requests] = await Promise.all([
      pendingChanges(reader, 500),
      failingEndpoints(reader),
      refundsSince(reader, new Date(Date.parse(now) - 24 * 3_600_000).toISOString()),
      recentOperatorActions(reader, 20),
      tally.lastHour(),
    ]);
    return sendPage(reply, overviewPage({ session: sessionOf(request), notice: noticeOf(request), now, changes, endpoints, refunds, requests, actions }));
  });
}
