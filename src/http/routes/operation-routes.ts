import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../errors/api-error.js';
import { runOperation } from '../../service/order-operations.js';
import type { Clock } from '../../service/clock.js';
import type { Store } from '../../store/store.js';
import { authenticate, checkSender } from '../authenticate.js';
import { buildEnvelope } from '../envelope.js';
import { readEnvelopeInput, relaxRequestBody } from '../lenient-input.js';
import { OPERATIONS, type OperationWire } from '../operations.js';
import { failedItem, successItem } from '../result-items.js';
import { requestSchema } from '../schemas/request-schema.js';
import { responseSchema } from '../schemas/response-schema.js';

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

export interface OperationRouteDeps {
  store: Store;
  clock: Clock;
  serviceName: string;
}

function operationRoute(app: FastifyInstance, operation: OperationWire, deps: OperationRouteDeps): void {
  const envelopeSchema = responseSchema(operation);
  app.post(operation.path, {
    config: { operation },
    schema: { body: requestSchema(operation.requestRoot), response: { 200: envelopeSchema, default: envelopeSchema } },
    onRequest: async (request) => {
      if (!JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) throw errors.unsupportedMediaType();
    },
    preValidation: async (request) => {
      relaxRequestBody(request.body, operation.requestRoot);
      request.envelopeInput = readEnvelopeInput(request.body, operation.requestRoot);
      await authenticate(request, deps.store, deps.clock);
    },
    preHandler: async (request) => checkSender(request, operation.requestRoot),
  }, async (request: FastifyRequest) => {
    const input = request.envelopeInput!;
    const agency = request.agency!;
    // Validation has passed, so the order id and references were readable.
    const orderId = input.orderId!;
    const result = await runOperation(deps.store, deps.clock, operation.name, agency.agencyId, orderId, input.references!);
    if (!result) throw errors.orderNotFound(orderId);

    const failures = result.items.flatMap(({ outcome }) => outcome.ok ? [] : [{ code: outcome.code, message: outcome.message }]);
    request.outcomeCode = failures[0]?.code ?? 'OK';
    return buildEnvelope({
      operation,
      serviceName: deps.serviceName,
      referenceVersion: input.referenceVersion,
      requestId: request.id,
      agency,
      items: result.items.map(({ reference, outcome }) => outcome.ok
        ? successItem(operation.name, result.orderId, reference, outcome.booking, result.currency)
        : failedItem(operation.name, result.orderId, reference, outcome)),
      failures,
    });
  });
}

export function operationRoutes(app: FastifyInstance, deps: OperationRouteDeps): void {
  for (const operation of Object.values(OPERATIONS)) operationRoute(app, operation, deps);
}
