import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { metricsAccess } from '../metrics-access.js';
import { scrapeFor } from '../../metrics/cluster-metrics.js';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';

/**
 * Prometheus text format: the whole service's figures, whichever process answers (with
 * `serve --workers N`, the workers' added up: metrics/cluster-metrics.ts). Only for the scraper:
 * refund volumes are the operator's business (metrics-access.ts).
 */
export function metricsRoute(app: FastifyInstance, config: Config, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const operation = request.routeOptions.config?.operation?.title ?? request.routeOptions.url ?? 'unknown';
    metrics.requests.inc({
      operation,
      code: request.outcomeCode ?? (reply.statusCode < 400 ? 'OK' : String(reply.statusCode)),
    });
    metrics.requestSeconds.observe({ operation }, reply.elapsedTime / 1000);
  });

  const scrape = scrapeFor(metrics.registry);
  app.get('/metrics', { onRequest: metricsAccess(config) }, async (_request, reply) => {
    const text = await scrape();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
