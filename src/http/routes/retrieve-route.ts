import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors/api-error.js';
import { retrieveOrder } from '../../service/order-retrieval.js';
import { buildEnvelope } from '../envelope.js';
import { RETRIEVE } from '../operations.js';
import { wireOrder } from '../order-wire.js';
import { renderItems } from '../result-items.js';
import { withTimeout } from '../with-timeout.js';
import { operationRouteOptions, type OperationRouteDeps } from './operation-hooks.js';

/**
 * AirOrderRetrieve: the order's requested bookings as they stand, with one item per reference like
 * AirOrderCancel's. Same hooks and envelope as the other operations; it reads only, so it takes no
 * Idempotency-Key and writes no audit event.
 */
export function retrieveRoute(app: FastifyInstance, deps: OperationRouteDeps): void {
  app.post(
    RETRIEVE.path,
    operationRouteOptions(RETRIEVE, deps),
    async (request: FastifyRequest, reply: FastifyReply) => {
      const input = request.envelopeInput!;
      // Validation has passed, so the order id and references were readable.
      const orderId = input.orderId!;
      const retrieved = await withTimeout(
        retrieveOrder(deps.store, deps.clock, {
          agencyId: request.agency!.agencyId,
          orderId,
          references: input.references!,
        }),
        deps.requestTimeoutMs,
      );
      if (!retrieved) throw errors.orderNotFound(orderId);

      const { order } = retrieved;
      const { items, failures } = renderItems(RETRIEVE.name, order.orderId, order.currency, retrieved.items);
      request.outcomeCode = failures[0]?.code ?? 'OK';
      return reply.code(200).send(
        buildEnvelope({
          operation: RETRIEVE,
          serviceName: deps.serviceName,
          referenceVersion: input.referenceVersion,
          requestId: request.id,
          agency: request.agency,
          extra: {
            Order: wireOrder(
              order,
              retrieved.items.flatMap(({ outcome }) => (outcome.ok ? [outcome.booking] : [])),
            ),
          },
          items,
          failures,
        }),
      );
    },
  );
}
