import type { FastifyInstance } from 'fastify';
import { errors } from '../errors/api-error.js';
import { buildEnvelope } from './envelope.js';
import { toApiError } from './error-mapping.js';
import { failedItem } from './result-items.js';

/**
 * The one place where request-level failures become responses: the operation's envelope with the
 * catalogue's code and HTTP status. Details of 5xx errors go to the log, never to the client.
 */
export function installErrorHandler(app: FastifyInstance, serviceName: string, isStoreUnavailable: (error: unknown) => boolean): void {
  app.setErrorHandler((error, request, reply) => {
    const operation = request.routeOptions.config?.operation;
    // An unknown path is ROUTE_NOT_FOUND whatever its body, which Fastify parses before the not-found handler runs.
    const apiError = request.is404
      ? errors.routeNotFound(request.method, request.url.split('?')[0] ?? '')
      : toApiError(error, operation?.requestRoot, isStoreUnavailable);
    if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    else if (apiError.code === 'UNAVAILABLE') request.log.warn({ cause: (error as Error).message }, 'store unavailable');
    request.outcomeCode = apiError.code;
    void reply.code(apiError.status).headers(apiError.headers);
    const failure = { code: apiError.code, message: apiError.message };
    if (!operation) return reply.send({ Errors: [{ Code: failure.code, Message: failure.message }] });

    const input = request.envelopeInput;
    const items = input?.references && input.orderId
      ? input.references.map((reference) => failedItem(operation.name, input.orderId!, reference, failure))
      : [];
    return reply.send(buildEnvelope({
      operation,
      serviceName,
      referenceVersion: input?.referenceVersion ?? null,
      requestId: request.id,
      agency: request.agency,
      items,
      failures: [failure],
    }));
  });

  app.setNotFoundHandler((request) => {
    throw errors.routeNotFound(request.method, request.url.split('?')[0] ?? '');
  });
}
