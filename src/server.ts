import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { migrateToLatest } from './store/migrator.js';
import { openStore } from './store/open-store.js';

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  stop(): Promise<void>;
}

/** Opens the store, applies pending migrations (unless told not to), listens, and stops gracefully on SIGTERM/SIGINT. */
export async function startServer(config: Config, options: { migrate: boolean } = { migrate: true }): Promise<RunningServer> {
  const store = openStore(config);
  if (options.migrate) await migrateToLatest(store);
  const app = await buildApp({ config, store });
  app.addHook('onClose', async () => store.close());
  const address = await app.listen({ port: config.port, host: config.host });

  let stopping: Promise<void> | null = null;
  const stop = () => {
    // close() stops accepting connections, lets in-flight requests finish, then closes the store.
    stopping ??= app.close();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    void stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { app, address, stop };
}
