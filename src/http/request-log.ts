import type { FastifyInstance } from 'fastify';

/** What a request that no route served is logged as, after its method (its path may be anything a client sent). */
const NO_ROUTE = '(no route)';

/**
 * One structured line per request: request id, agency, operation, outcome code and latency (and, on
 * a replay, the id of the request it repeats).
 * Headers and bodies are never logged, so neither tokens nor e-mail addresses reach the log.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        agency: request.agency?.agencyId ?? null,
        operation:
          request.routeOptions.config?.operation?.title ?? `${request.method} ${request.routeOptions.url ?? NO_ROUTE}`,
        code: request.outcomeCode ?? (reply.statusCode < 400 ? 'OK' : String(reply.statusCode)),
        status: reply.statusCode,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        // A replay answers with the first request's X-Request-Id: searching the log for it finds both.
        ...(request.replayOf ? { replayOf: request.replayOf } : {}),
      },
      'request',
    );
  });
}
