import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  initCluster,
  postgresInstallation,
  startServerProcess,
  stopServerProcess,
  type ShutdownMode,
} from './postgres-process.js';

export interface PostgresCluster {
  /** postgres://… of the cluster's default database, for creating throwaway databases. */
  url: string;
  /** The same database over the server's Unix socket. */
  socketUrl: string;
  port: number;
  /** Shuts PostgreSQL down (by default a fast shutdown: open sessions are ended) and keeps the data directory. */
  pause(mode?: ShutdownMode): Promise<void>;
  /** Starts PostgreSQL again on the same data directory and port, after pause(). */
  resume(): Promise<void>;
  /** Shuts PostgreSQL down if it runs and removes its directory. */
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

// A throwaway cluster trades durability for speed; the settings a service would run with are its operator's.
const SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=300'];
// Without fsync a commit still reaches the kernel before it is acknowledged, so it survives the
// server being killed (not the machine): what a test that kills PostgreSQL needs.
const COMMITS_SURVIVE_SERVER_CRASH = ['fsync=off', 'full_page_writes=off', 'max_connections=300'];

export interface PostgresClusterOptions {
  /** Acknowledged commits survive an immediate shutdown (synchronous_commit on). */
  commitsSurviveCrash?: boolean;
  /** The cluster's superuser (default `airorder`), for a test that creates the role `airorder` itself. */
  superuser?: string;
}

/**
 * A throwaway PostgreSQL cluster in a temporary directory, removed on stop. It can be paused and
 * resumed on the same data, to test how the service behaves while its database is away.
 */
export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const superuser = options.superuser ?? 'airorder';
  const settings = options.commitsSurviveCrash ? COMMITS_SURVIVE_SERVER_CRASH : SETTINGS;
  const installation = postgresInstallation();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-pg-'));
  fs.chmodSync(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  // The server also listens on a Unix socket here, the way a client on the same machine connects best.
  const socketDir = path.join(dir, 'socket');
  fs.mkdirSync(socketDir, { mode: 0o755 });
  if (installation.user.uid !== undefined) fs.chownSync(socketDir, installation.user.uid, installation.user.gid!);
  const port = await freePort();
  let server: ChildProcess | null = null;
  const start = async () => {
    server = await startServerProcess(installation, dataDir, port, [
      ...settings,
      `unix_socket_directories=${socketDir}`,
    ]);
  };
  try {
    initCluster(installation, dataDir, superuser);
    await start();
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}`, { cause: error });
  }
  const pause = async (mode: ShutdownMode = 'fast') => {
    if (server) await stopServerProcess(server, mode);
    server = null;
  };
  return {
    url: `postgres://${superuser}@127.0.0.1:${port}/postgres`,
    socketUrl: `postgres://${superuser}@/postgres?host=${encodeURIComponent(socketDir)}&port=${port}`,
    port,
    pause,
    resume: start,
    async stop() {
      await pause('fast');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
