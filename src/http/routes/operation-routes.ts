import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors/api-error.js';
import {
  runOperation,
  type CallerResponse,
  type OperationName,
  type OperationResult,
  type ResponsePort,
} from '../../service/order-operations.js';
import { ownProperty } from '../../own-property.js';
import { newQuoteId, type RefundInput } from '../../service/refund-operations.js';
import { buildEnvelope } from '../envelope.js';
import { refusalError } from '../error-mapping.js';
import { readIdempotencyKey } from '../idempotency-key.js';
import { OPERATIONS, type OperationWire } from '../operations.js';
import { renderItems } from '../result-items.js';
import { withTimeBudget } from '../with-timeout.js';
import { operationRouteOptions, type OperationRouteDeps } from './operation-hooks.js';

export type { OperationRouteDeps } from './operation-hooks.js';

/** The HTTP response to a processed request: the operation's envelope, serialised as it is sent (and kept). */
function responder(
  operation: OperationWire<OperationName>,
  deps: OperationRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): ResponsePort {
  return (result: OperationResult): CallerResponse => {
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

/** What the refund operations read beyond the order and references, from a body the schema has checked. */
function refundInput(
  operation: OperationWire<OperationName>,
  body: unknown,
  deps: OperationRouteDeps,
): RefundInput | undefined {
  if (operation.name !== 'refundQuote' && operation.name !== 'refund') return undefined;
  const root = ownProperty(body as object, operation.requestRoot) as {
    Query: { PassengerID?: string[]; QuoteID?: string };
  };
  const query = root.Query;
  if (operation.name === 'refund')
    return { settings: deps.refundSettings, quoteId: query.QuoteID!, passengerIds: null };
  // Passengers named twice are asked for once, as references are.
  return {
    settings: deps.refundSettings,
    quoteId: newQuoteId(),
    passengerIds: query.PassengerID ? [...new Set(query.PassengerID)] : null,
  };
}

function operationRoute(app: FastifyInstance, operation: OperationWire<OperationName>, deps: OperationRouteDeps): void {
  app.post(
    operation.path,
    operationRouteOptions(operation, deps),
    async (request: FastifyRequest, reply: FastifyReply) => {
      const input = request.envelopeInput!;
      const agency = request.agency!;
      // Validation has passed, so the order id and references were readable.
      const orderId = input.orderId!;
      const respond = responder(operation, deps, request, reply);
      const key = readIdempotencyKey(request);
      const started = performance.now();
      const outcome = await withTimeBudget(
        (budget) =>
          runOperation(deps.store, deps.clock, {
            operation: operation.name,
            actor: {
              actor: 'agency',
              agencyId: agency.agencyId,
              tokenId: request.tokenId,
              requestId: request.id,
              operation: operation.title,
            },
            orderId,
            references: input.references!,
            // The response is made inside the change only when it is to be kept under the key.
            keptResponse: key && { ...key, respond },
            keptResponsesPerAgency: deps.keptResponsesPerAgency,
            budget,
            refund: refundInput(operation, request.body, deps),
          }),
        deps.requestTimeoutMs,
      );

      // The store's time is measured for the requests it answered; a refused one is the error handler's.
      if (outcome.kind === 'refused') throw refusalError(outcome.refusal, outcome.retryAfterSeconds);
      deps.metrics.storeSeconds.observe({ operation: operation.title }, (performance.now() - started) / 1000);
      if (outcome.kind === 'order-not-found') throw errors.orderNotFound(orderId);
      const send = (response: CallerResponse) =>
        reply.code(response.status).type('application/json; charset=utf-8').send(response.body);
      if (outcome.kind === 'replayed') {
        request.outcomeCode = 'REPLAYED';
        request.replayOf = outcome.originalRequestId;
        void reply.header('idempotent-replayed', 'true').header('x-request-id', outcome.originalRequestId);
        return send(outcome.response);
      }
      deps.metrics.countRefunds(outcome.result);
      return send(outcome.kept ?? respond(outcome.result));
    },
  );
}

/** The operations that change orders: the interface's three and the two refunds. */
export function operationRoutes(app: FastifyInstance, deps: OperationRouteDeps): void {
  for (const operation of Object.values(OPERATIONS)) operationRoute(app, operation, deps);
}
