import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';
import { errors } from '../../errors/api-error.js';
import type { Clock } from '../../runtime/clock.js';
import type { QuoteSettings } from '../../domain/voluntary-quote.js';
import type { Store } from '../../store/store.js';
import { authenticate, checkSender } from '../authenticate.js';
import { readEnvelopeInput, relaxRequestBody } from '../lenient-input.js';
import type { OperationWire } from '../operations.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { TokenLookup } from '../token-lookup.js';
import { requestSchemaFor } from '../schemas/request-schema.js';
import { responseSchema } from '../schemas/response-schema.js';
import { wireOrderSerializer } from '../schemas/wire-order-serializer.js';

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

export interface OperationRouteDeps {
  metrics: ServiceMetrics;
  store: Store;
  tokens: TokenLookup;
  clock: Clock;
  serviceName: string;
  rateLimiter: RateLimiter | null;
  requestTimeoutMs: number;
  /** KEPT_RESPONSES_PER_AGENCY: the cap on an agency's kept responses. */
  keptResponsesPerAgency: number;
  /** The void window and the quotes' time to live (VOID_WINDOW, REFUND_QUOTE_TTL). */
  refundSettings: QuoteSettings;
}

/**
 * What every operation's route has in common, before its handler: the request and response schemas
 * (validation, serialisation and the OpenAPI document), the content-type check, lenient input,
 * authentication, the rate limit and the sender check. Failures become the operation's envelope in
 * the error handler, which finds the operation in the route's config.
 */
export function operationRouteOptions(operation: OperationWire, deps: OperationRouteDeps) {
  const envelopeSchema = responseSchema(operation);
  return {
    config: { operation },
    schema: { body: requestSchemaFor(operation), response: { 200: envelopeSchema, default: envelopeSchema } },
    serializerCompiler: wireOrderSerializer,
    onRequest: async (request: FastifyRequest) => {
      if (!JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) throw errors.unsupportedMediaType();
    },
    preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
      relaxRequestBody(request.body, operation.requestRoot);
      request.envelopeInput = readEnvelopeInput(request.body, operation.requestRoot);
      await authenticate(request, deps.tokens, deps.clock);
      if (deps.rateLimiter) {
        // The service's clock, as for every other time: a test that pins it sees the bucket exactly.
        const decision = deps.rateLimiter.take(request.tokenId!, Date.parse(deps.clock()));
        if (!decision.allowed) throw errors.rateLimited(decision.headers);
        void reply.headers(decision.headers);
      }
    },
    preHandler: async (request: FastifyRequest) => checkSender(request, operation.requestRoot),
  };
}
