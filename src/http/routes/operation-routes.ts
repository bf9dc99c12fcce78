import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors/api-error.js';
import { runOperation, type OperationName, type OperationResult, type RenderedResponse } from '../../service/order-operations.js';
import { buildEnvelope } from '../envelope.js';
import { readIdempotencyKey } from '../idempotency-key.js';
import { OPERATIONS, type OperationWire } from '../operations.js';
import { renderItems } from '../result-items.js';
import { withDeadline } from '../with-timeout.js';
import { operationRouteOptions, type OperationRouteDeps } from './operation-hooks.js';

export type { OperationRouteDeps } from './operation-hooks.js';

function renderer(operation: OperationWire<OperationName>, deps: OperationRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  return (result: OperationResult): RenderedResponse => {
    const { items, failures } = renderItems(operation.name, result.orderId, result.currency, result.items);
    request.outcomeCode = failures[0]?.code ?? 'OK';
    const envelope = buildEnvelope({
      operation,
      serviceName: deps.serviceName,
      referenceVersion: request.envelopeInput!.referenceVersion,
      requestId: request.id,
      agency: request.agency,
      items,
      failures,
    });
    return { status: 200, body: reply.serialize(envelope) as string };
  };
}

function operationRoute(app: FastifyInstance, operation: OperationWire<OperationName>, deps: OperationRouteDeps): void {
  app.post(operation.path, operationRouteOptions(operation, deps), async (request: FastifyRequest, reply: FastifyReply) => {
    const input = request.envelopeInput!;
    const agency = request.agency!;
    // Validation has passed, so the order id and references were readable.
    const orderId = input.orderId!;
    const started = performance.now();
    const outcome = await withDeadline((deadline) => runOperation(deps.store, deps.clock, {
      operation: operation.name,
      actor: { actor: 'agency', agencyId: agency.agencyId, tokenId: request.tokenId, requestId: request.id, operation: operation.title },
      orderId,
      references: input.references!,
      idempotency: readIdempotencyKey(request),
      deadline,
    }, renderer(operation, deps, request, reply)), deps.requestTimeoutMs);

    deps.metrics?.storeSeconds.observe({ operation: operation.title }, (performance.now() - started) / 1000);
    if (outcome.kind === 'processed') deps.metrics?.countRefunds(outcome.result);
    if (outcome.kind === 'order-not-found') throw errors.orderNotFound(orderId);
    if (outcome.kind === 'replayed') {
      request.outcomeCode = 'REPLAYED';
      request.replayOf = outcome.originalRequestId;
      void reply.header('idempotent-replayed', 'true').header('x-request-id', outcome.originalRequestId);
    }
    return reply.code(outcome.response.status).type('application/json; charset=utf-8').send(outcome.response.body);
  });
}

/** The interface's three operations, which change orders. */
export function operationRoutes(app: FastifyInstance, deps: OperationRouteDeps): void {
  for (const operation of Object.values(OPERATIONS)) operationRoute(app, operation, deps);
}
