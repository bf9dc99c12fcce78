import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors/api-error.js';
import type { Store } from '../../store/store.js';
import { STORE_RETRY_AFTER_SECONDS } from '../error-mapping.js';

export function healthRoutes(app: FastifyInstance, store: Store): void {
  // Alive: the process answers. Says nothing about the store, so an orchestrator does not
  // restart a healthy process because the database is away.
  app.get('/healthz', async () => ({ status: 'ok' }));

  // Ready: the store answers too, and on PostgreSQL holds its minimum of open connections
  // (DATABASE_POOL_MIN), so the first burst after a start does not wait for them to open; a load
  // balancer should send traffic only while this is 200.
  app.get('/readyz', async () => {
    try {
      await store.ping();
    } catch {
      throw errors.unavailable(STORE_RETRY_AFTER_SECONDS);
    }
    return { status: 'ready' };
  });
}
