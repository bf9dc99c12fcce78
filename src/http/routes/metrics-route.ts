import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { metricsAccess } from '../metrics-access.js';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';
import type { Store } from '../../store/store.js';

/**
 * Prometheus text format. Counts are this process's own; the pending-change gauge is the store's.
 * Only for the scraper: refund volumes are the operator's business (metrics-access.ts).
 */
export function metricsRoute(app: FastifyInstance, config: Config, store: Store, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const operation = request.routeOptions.config?.operation?.title ?? request.routeOptions.url ?? 'unknown';
    metrics.requests.inc({ operation, code: request.outcomeCode ?? (reply.statusCode < 400 ? 'OK' : String(reply.statusCode)) });
    metrics.requestSeconds.observe({ operation }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { onRequest: metricsAccess(config) }, async (_request, reply) => {
    try {
      metrics.setPendingChanges(await store.read.changes.countPending());
      const oldest = await store.read.deliveries.oldestUndelivered();
      metrics.setOldestUndelivered(oldest === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldest)) / 1000));
    } catch {
      // The store being away shows in /readyz; the process's own metrics are still worth serving.
    }
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.registry.render());
  });
}
