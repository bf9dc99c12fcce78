import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { installErrorHandler, routeFrameworkError } from './http/error-handler.js';
import { installContentCodingCase } from './http/content-coding.js';
import './http/request-context.js';
import { answerClientError } from './http/client-errors.js';
import { limitConnections } from './http/connection-limits.js';
import { installRequestLog } from './http/request-log.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { healthRoutes } from './http/routes/health-routes.js';
import { operationRoutes } from './http/routes/operation-routes.js';
import { metricsRoute } from './http/routes/metrics-route.js';
import { retrieveRoute } from './http/routes/retrieve-route.js';
import { eventListRoute } from './http/routes/event-list-route.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { registerPoolMetrics } from './metrics/pool-metrics.js';
import { registerDocsPage } from './http/openapi/docs-page.js';
import { openApiRoute, registerOpenApi } from './http/openapi/openapi-document.js';
import { RateLimiter } from './http/rate-limiter.js';
import { TokenLookup } from './http/token-lookup.js';
import { TokenUses } from './http/token-uses.js';
import { systemClock, type Clock } from './runtime/clock.js';
import { registerConsole } from './console/console-plugin.js';
import type { Store } from './store/store.js';

export interface AppDeps {
  config: Config;
  store: Store;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

/** Assembles the service. Never listens: `server.ts` starts it, tests inject or listen themselves. */
export async function buildApp({ config, store, clock = systemClock, logger }: AppDeps): Promise<FastifyInstance> {
  // Node refuses a headers' limit longer than the whole request's; the shorter of the two is the one that acts.
  const headersTimeoutMs = Math.min(config.headersTimeoutMs, config.receiveTimeoutMs);
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    // Fastify's own two lines per request are replaced by one line of ours (http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: () => randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    // Keys that could pollute prototypes are dropped while parsing; unknown fields are ignored anyway.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    http: {
      // Node's default is 16 KiB; a token and a few headers need far less.
      maxHeaderSize: 8 * 1024,
      // A request that never finishes arriving (slowloris) does not hold a connection forever. The
      // limit is given to Node here, for headers and body alike: set only afterwards, as Fastify's
      // `requestTimeout` does, it would leave the headers' limit at Node's 60 s, and Node then
      // applies the longer of the two to the whole request.
      requestTimeout: config.receiveTimeoutMs,
      // The headers have a shorter limit of their own (HEADERS_TIMEOUT_MS), which also ends a
      // connection that sends nothing at all: Node counts from the moment it was accepted.
      headersTimeout: headersTimeoutMs,
      // How often Node looks for requests past the limit: every 30 s by default, which could add
      // 30 s to it. The look is cheap: every second, or a tenth of a shorter limit.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeoutMs / 10)),
    },
    // Fastify sets these on the server after making it: 0 (no limit) and 72 s when left out.
    requestTimeout: config.receiveTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    clientErrorHandler: answerClientError,
    // A path the router cannot read (a malformed percent-escape) is answered like an unknown path.
    frameworkErrors: routeFrameworkError,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false } },
  });
  app.decorateRequest('agency', null);
  app.decorateRequest('tokenId', null);
  app.decorateRequest('envelopeInput', null);
  app.decorateRequest('outcomeCode', null);
  app.decorateRequest('replayOf', null);

  installSecurityHeaders(app);
  installRequestLog(app);
  installErrorHandler(app, config.serviceName, (error) => store.isUnavailable(error));
  installContentCodingCase(app);
  await app.register(compress, { global: true, threshold: 0, encodings: ['br', 'gzip', 'deflate'] });
  // Before the routes: the OpenAPI document is made from the routes' own schemas as they are added.
  await registerOpenApi(app);
  healthRoutes(app, store);
  const metrics = new ServiceMetrics({
    pendingChanges: () => store.read.countPendingChanges(),
    oldestUndeliveredSeconds: async () => {
      const oldest = await store.read.oldestUndelivered();
      return oldest === null ? 0 : Math.max(0, (Date.parse(clock()) - Date.parse(oldest)) / 1000);
    },
    logFigures: () => store.logFigures?.() ?? null,
  });
  registerPoolMetrics(metrics.registry, store);
  // The background work that `server.ts` starts counts into the same registry.
  app.decorate('serviceMetrics', metrics);
  const connections = limitConnections(app.server, config, (by) => metrics.connectionsRefused.inc({ cap: by }));
  metrics.countConnections(connections.open);
  if (connections.maxConnections < config.maxConnections) {
    app.log.warn(
      { maxConnections: connections.maxConnections, configured: config.maxConnections },
      'MAX_CONNECTIONS lowered to three quarters of the open-files limit (ulimit -n)',
    );
  }
  app.addHook('onClose', async () => metrics.stop());
  metricsRoute(app, config, metrics);
  const tokenUses = new TokenUses(store, (error) =>
    app.log.warn({ err: error }, 'last use of tokens not written; noted again at their next use'),
  );
  // Before the store closes (server.ts closes it after the app): the uses noted last are written.
  app.addHook('onClose', async () => tokenUses.close());
  const operationDeps = {
    metrics,
    store,
    tokens: new TokenLookup(store, tokenUses),
    clock,
    serviceName: config.serviceName,
    // docs/contract.md §9: 0 turns the limit off, for either setting (a burst of nothing would refuse everything).
    rateLimiter:
      config.rateLimitPerSecond > 0 && config.rateLimitBurst > 0
        ? new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst)
        : null,
    requestTimeoutMs: config.requestTimeoutMs,
    keptResponsesPerAgency: config.keptResponsesPerAgency,
    refundSettings: { voidWindowMs: config.voidWindowMs, quoteTtlMs: config.refundQuoteTtlMs },
  };
  operationRoutes(app, operationDeps);
  retrieveRoute(app, operationDeps);
  eventListRoute(app, operationDeps);
  openApiRoute(app);
  await registerDocsPage(app);
  if (config.consoleEnabled) await registerConsole(app, { config, store, clock, metrics });
  return app;
}
