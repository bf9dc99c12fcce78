import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors/api-error.js';
import { feedItem } from '../../events/wire-event.js';
import { buildEnvelope } from '../envelope.js';
import { EVENT_LIST } from '../operations.js';
import { withTimeout } from '../with-timeout.js';
import { operationRouteOptions, type OperationRouteDeps } from './operation-hooks.js';

const DEFAULT_LIMIT = 100;

interface EventListBody {
  OrderEventListRQ: { Query?: { After?: string; Limit?: number } };
}

/**
 * AirOrderEventList: the agency's events after `Query.After`, oldest first, for agencies that poll
 * rather than receive webhooks. Same hooks and envelope as the operations; reading changes nothing.
 */
export function eventListRoute(app: FastifyInstance, deps: OperationRouteDeps): void {
  app.post(
    EVENT_LIST.path,
    operationRouteOptions(EVENT_LIST, deps),
    async (request: FastifyRequest, reply: FastifyReply) => {
      const query = (request.body as EventListBody).OrderEventListRQ.Query ?? {};
      const after = query.After ?? null;
      const page = await withTimeout(
        deps.store.read.listEvents(request.agency!.agencyId, after, query.Limit ?? DEFAULT_LIMIT),
        deps.requestTimeoutMs,
      );
      if (!page.cursorFound) {
        throw errors.invalidRequest(
          `${EVENT_LIST.requestRoot}.Query.After names no event of this agency: events are kept 30 days. Start again without After.`,
        );
      }
      request.outcomeCode = 'OK';
      return reply.code(200).send(
        buildEnvelope({
          operation: EVENT_LIST,
          serviceName: deps.serviceName,
          referenceVersion: request.envelopeInput!.referenceVersion,
          requestId: request.id,
          agency: request.agency,
          extra: { NextAfter: page.events.at(-1)?.eventId ?? after ?? '' },
          items: page.events.map(feedItem),
          failures: [],
        }),
      );
    },
  );
}
