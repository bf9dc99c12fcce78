import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors/api-error.js';
import { runOperation, type OperationResult, type RenderedResponse } from '../../service/order-operations.js';
import type { Clock } from '../../service/clock.js';
import type { Store } from '../../store/store.js';
import { authenticate, checkSender } from '../authenticate.js';
import { buildEnvelope } from '../envelope.js';
import { readIdempotencyKey } from '../idempotency-key.js';
import { readEnvelopeInput, relaxRequestBody } from '../lenient-input.js';
import { OPERATIONS, type OperationWire } from '../operations.js';
import type { RateLimiter } from '../rate-limiter.js';
import { failedItem, successItem } from '../result-items.js';
import { requestSchema } from '../schemas/request-schema.js';
import { responseSchema } from '../schemas/response-schema.js';
import { withTimeout } from '../with-timeout.js';

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

export interface OperationRouteDeps {
  store: Store;
  clock: Clock;
  serviceName: string;
  rateLimiter: RateLimiter | null;
  requestTimeoutMs: number;
}

function renderer(operation: OperationWire, deps: OperationRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  return (result: OperationResult): RenderedResponse => {
    const failures = result.items.flatMap(({ outcome }) => outcome.ok ? [] : [{ code: outcome.code, message: outcome.message }]);
    request.outcomeCode = failures[0]?.code ?? 'OK';
    const envelope = buildEnvelope({
      operation,
      serviceName: deps.serviceName,
      referenceVersion: request.envelopeInput!.referenceVersion,
      requestId: request.id,
      agency: request.agency,
      items: result.items.map(({ reference, outcome }) => outcome.ok
        ? successItem(operation.name, result.orderId, reference, outcome.booking, result.currency)
        : failedItem(operation.name, result.orderId, reference, outcome)),
      failures,
    });
    return { status: 200, body: reply.serialize(envelope) as string };
  };
}

function operationRoute(app: FastifyInstance, operation: OperationWire, deps: OperationRouteDeps): void {
  const envelopeSchema = responseSchema(operation);
  app.post(operation.path, {
    config: { operation },
    schema: { body: requestSchema(operation.requestRoot), response: { 200: envelopeSchema, default: envelopeSchema } },
    onRequest: async (request) => {
      if (!JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) throw errors.unsupportedMediaType();
    },
    preValidation: async (request, reply) => {
      relaxRequestBody(request.body, operation.requestRoot);
      request.envelopeInput = readEnvelopeInput(request.body, operation.requestRoot);
      await authenticate(request, deps.store, deps.clock);
      if (deps.rateLimiter) {
        const decision = deps.rateLimiter.take(request.tokenId!, Date.now());
        if (!decision.allowed) throw errors.rateLimited(decision.headers);
        void reply.headers(decision.headers);
      }
    },
    preHandler: async (request) => checkSender(request, operation.requestRoot),
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    const input = request.envelopeInput!;
    const agency = request.agency!;
    // Validation has passed, so the order id and references were readable.
    const orderId = input.orderId!;
    const outcome = await withTimeout(runOperation(deps.store, deps.clock, {
      operation: operation.name,
      actor: { actor: 'agency', agencyId: agency.agencyId, tokenId: request.tokenId, requestId: request.id, operation: operation.title },
      orderId,
      references: input.references!,
      idempotency: readIdempotencyKey(request),
    }, renderer(operation, deps, request, reply)), deps.requestTimeoutMs);

    if (outcome.kind === 'order-not-found') throw errors.orderNotFound(orderId);
    if (outcome.kind === 'replayed') {
      request.outcomeCode = 'REPLAYED';
      void reply.header('idempotent-replayed', 'true').header('x-request-id', outcome.originalRequestId);
    }
    return reply.code(outcome.response.status).type('application/json; charset=utf-8').send(outcome.response.body);
  });
}

export function operationRoutes(app: FastifyInstance, deps: OperationRouteDeps): void {
  for (const operation of Object.values(OPERATIONS)) operationRoute(app, operation, deps);
}
