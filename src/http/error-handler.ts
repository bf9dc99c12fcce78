import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type ApiError } from '../errors/api-error.js';
import { buildEnvelope } from './envelope.js';
import { toApiError } from './error-mapping.js';
import { failedItem } from './result-items.js';

/** Requests the router could not route (see `routeFrameworkError`), with the error and the URL they came with. */
const unroutable = new WeakMap<IncomingMessage, { error: FastifyError; url: string }>();

/** A URL no route matches: it decodes to "/%", and no route has a "%" in it. */
const UNROUTABLE_URL = '/%25';

/**
 * Fastify's `frameworkErrors`: the router itself failed, on a malformed percent-escape in the path
 * (FST_ERR_BAD_URL), a path parameter longer than the router reads (FST_ERR_MAX_PARAM_LENGTH: past
 * 100 characters, longer than any id the console's paths name) or an async route constraint that
 * threw (FST_ERR_ASYNC_CONSTRAINT; airorder has none). Fastify hands such a request over before
 * any hook has run, so it is routed again, to a URL only the not-found handler serves: it then
 * gets the request id, the security headers, compression and its log line like every other
 * request, and the error handler answers it.
 */
export function routeFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  unroutable.set(request.raw, { error, url: request.url });
  request.raw.url = UNROUTABLE_URL;
  request.server.routing(request.raw, reply.raw);
}

/** The answer to a request no route took: an unknown path, or one the router could not read. */
function notFoundError(request: FastifyRequest): ApiError {
  const failed = unroutable.get(request.raw);
  if (!failed) return errors.routeNotFound(request.method, pathOf(request.url));
  if (failed.error.code === 'FST_ERR_BAD_URL')
    return errors.invalidRequest(`The request path is not a valid URL: ${pathOf(failed.url)}.`);
  // No page has such an id: the path is as unknown as any other.
  if (failed.error.code === 'FST_ERR_MAX_PARAM_LENGTH') return errors.routeNotFound(request.method, pathOf(failed.url));
  return errors.internal();
}

function pathOf(url: string): string {
  // Split by a separator, a string is never an empty list: its first part is there, '' at the least.
  return url.split('?')[0]!;
}

/**
 * The client closed its connection before its answer went out. A large answer is compressed as a
 * stream, and a stream cut short by the closed connection fails with ERR_STREAM_PREMATURE_CLOSE:
 * the client's doing (it gave up waiting, on a paused process, say), and nobody is left to answer.
 */
function clientLeft(error: unknown, request: FastifyRequest): boolean {
  return (
    (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE' &&
    request.raw.socket?.destroyed !== false
  );
}

/**
 * The one place where request-level failures become responses: the operation's envelope with the
 * catalogue's code and HTTP status. Details of 5xx errors go to the log, never to the client.
 */
export function installErrorHandler(
  app: FastifyInstance,
  serviceName: string,
  isStoreUnavailable: (error: unknown) => boolean,
): void {
  app.setErrorHandler((error, request, reply) => {
    if (clientLeft(error, request)) {
      // This line stands in for the request's own line, which is written when an answer has gone out (docs/operations.md, "Logs").
      request.log.info({ code: 'CLIENT_CLOSED' }, 'the client closed its connection before its answer');
      reply.raw.destroy();
      return reply;
    }
    const operation = request.routeOptions.config?.operation;
    // A request no route took is answered as such whatever its body, which Fastify parses before the not-found handler runs.
    const apiError = request.is404
      ? notFoundError(request)
      : toApiError(error, operation?.requestRoot, isStoreUnavailable);
    if (apiError.code === 'INTERNAL_ERROR')
      request.log.error({ err: unroutable.get(request.raw)?.error ?? error }, 'request failed');
    else if (apiError.code === 'UNAVAILABLE')
      request.log.warn({ cause: (error as Error).message }, 'store unavailable');
    request.outcomeCode = apiError.code;
    void reply.code(apiError.status).headers(apiError.headers);
    const failure = { code: apiError.code, message: apiError.message };
    if (!operation) return reply.send({ Errors: [{ Code: failure.code, Message: failure.message }] });

    const input = request.envelopeInput;
    const name = operation.name;
    const items =
      input?.references && input.orderId && name !== 'eventList'
        ? input.references.map((reference) => failedItem(name, input.orderId!, reference, failure))
        : [];
    return reply.send(
      buildEnvelope({
        operation,
        serviceName,
        referenceVersion: input?.referenceVersion ?? null,
        requestId: request.id,
        agency: request.agency,
        items,
        failures: [failure],
      }),
    );
  });

  app.setNotFoundHandler((request) => {
    throw notFoundError(request);
  });
}
