/**
 * Stopping the service however it was started as the README and docs/operations.md say (`node bin/airorder.js serve`,
 * `npx airorder serve`, `npm start`), with and without `--workers`, whatever happens to its standard
 * output: written to a file, a pipe whose reader is gone (EPIPE), or a pipe nobody reads (full). The
 * signal goes to the process a supervisor started, and only to it; every process of the group must be
 * gone by SHUTDOWN_GRACE_MS + 2 s, and the port free. Each service runs in a process group of its own,
 * which the test ends whatever happens, so nothing is left behind.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { freePort, PROJECT_ROOT } from '../helpers/cli.js';
import { requestInFlight } from '../helpers/process-tree.js';
import { mutationHookOptions } from '../helpers/mutation-hook.js';
import { scaled } from '../helpers/time-scale.js';

const GRACE_MS = 1000;
const DEADLINE_MS = GRACE_MS + 2000;
const BIN = path.join(PROJECT_ROOT, 'bin', 'airorder.js');

type StartWay = 'node' | 'npx' | 'npm start';
type Output = 'file' | 'closed pipe' | 'unread pipe';
const LAUNCHER_PROCESSES: Record<StartWay, number> = { node: 0, npx: 2, 'npm start': 1 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const groups = new Set<number>();
const dirs: string[] = [];
after(() => {
  for (const group of groups) killGroup(group);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function killGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** The processes of a group that still run; a zombie has ended (its parent has only not collected it yet). */
function running(group: number): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== group || state === 'Z') continue;
      found.push({
        pid: Number(entry),
        cmd: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(),
      });
    } catch {
      /* ended while being read */
    }
  }
  return found;
}

/** Waits until no process of the group runs, at most until `deadline`; returns what still runs. */
async function goneBy(group: number, deadline: number): Promise<{ pid: number; cmd: string }[]> {
  for (;;) {
    const left = running(group);
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(50);
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A named pipe in `dir`: the service writes to it, and the test decides whether anyone reads. */
function namedPipe(dir: string): { writeEnd: number; readEnd: number; path: string } {
  const fifo = path.join(dir, 'stdout.fifo');
  execFileSync('mkfifo', [fifo]);
  const readEnd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const writeEnd = fs.openSync(fifo, fs.constants.O_WRONLY);
  return { writeEnd, readEnd, path: fifo };
}

/** True when the pipe takes no more lines: a write that may not wait is refused with EAGAIN. */
function pipeIsFull(fifo: string): boolean {
  const probe = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  try {
    // PIPE_BUF bytes, as the service writes: a smaller write could still find room the service's cannot.
    fs.writeSync(probe, '\n'.repeat(4096));
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return true;
    throw error;
  } finally {
    fs.closeSync(probe);
  }
}

interface Service {
  group: number;
  port: number;
  baseUrl: string;
  output(): string;
  pipe: { readEnd: number; path: string } | null;
  /** How the started process ended (for `node`, the service itself). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function start(way: StartWay, workers: number, output: Output): Promise<Service> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-shutdown-'));
  dirs.push(dir);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_OPTIONS', 'PORT', 'HOST', 'DATABASE_URL', 'DURABILITY', 'WORKERS']) delete env[name];
  Object.assign(env, mutationHookOptions());
  Object.assign(env, {
    DATABASE_URL: `sqlite:${path.join(dir, 'x.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    // npx may link the project's own package into its cache first: never ask, and never run its
    // `prepare` (npm run build) then, which would rewrite dist/ under the tests running beside this one.
    npm_config_yes: 'true',
    npm_config_ignore_scripts: 'true',
    npm_config_update_notifier: 'false',
  });
  const workerArgs = workers > 1 ? ['--workers', String(workers)] : [];
  const [command, args] =
    way === 'node'
      ? [process.execPath, [BIN, 'serve', ...workerArgs]]
      : way === 'npx'
        ? ['npx', ['airorder', 'serve', ...workerArgs]]
        : ['npm', ['start', '--', ...workerArgs]];
  const logFile = path.join(dir, 'stdout.log');
  const pipe = output === 'file' ? null : namedPipe(dir);
  const stdout = pipe ? pipe.writeEnd : fs.openSync(logFile, 'w');
  // npm and npx run from the project, whose package.json names the bin and the start script.
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, detached: true, stdio: ['ignore', stdout, stdout] });
  fs.closeSync(stdout);
  const group = child.pid!;
  groups.add(group);
  child.on('error', () => {
    /* seen as a service that never answers */
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const readOutput = () => (pipe ? '(a pipe)' : fs.readFileSync(logFile, 'utf8'));
  const deadline = Date.now() + scaled(30_000);
  for (;;) {
    if (Date.now() > deadline) throw new Error(`${way} did not start: ${readOutput()}`);
    try {
      const health = await fetch(`${baseUrl}/healthz`);
      await health.text();
      // Every process there: the launcher's (npx: npm and its shell; npm start: npm, whose script
      // execs node), the primary and each worker.
      const everyProcess = running(group).length >= LAUNCHER_PROCESSES[way] + (workers > 1 ? 1 + workers : 1);
      // Written to a file, the log also tells when every worker listens.
      const listening =
        pipe !== null ||
        readOutput()
          .split('\n')
          .filter((line) => line.includes('"msg":"listening"')).length >= workers;
      if (health.status === 200 && everyProcess && listening) break;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  return { group, port, baseUrl, output: readOutput, pipe, exited };
}

/** Breaks or fills the service's standard output, and checks that the service still answers. */
async function spoilOutput(service: Service, output: Output): Promise<void> {
  if (output === 'closed pipe') {
    fs.closeSync(service.pipe!.readEnd);
    // Lines to write: each gets EPIPE, which must cost the lines, not the process.
    for (let index = 0; index < 20; index += 1) await (await fetch(`${service.baseUrl}/healthz`)).text();
    await sleep(500);
  }
  if (output === 'unread pipe') {
    for (let round = 0; !pipeIsFull(service.pipe!.path); round += 1) {
      assert.ok(round < 40, 'the pipe never filled up');
      await Promise.all(Array.from({ length: 50 }, async () => (await fetch(`${service.baseUrl}/healthz`)).text()));
      await sleep(250);
    }
  }
  const health = await fetch(`${service.baseUrl}/healthz`);
  assert.equal(health.status, 200, 'the service answers whatever happened to its output');
  await health.text();
}

/** Signals the started process only, and checks that the whole service ends in time, in-flight request answered. */
async function stopAndCheck(
  service: Service,
  way: StartWay,
  signal: NodeJS.Signals,
  target: 'process' | 'group' = 'process',
): Promise<void> {
  const inFlight = requestInFlight(service.baseUrl);
  await sleep(100);
  const signalledAt = Date.now();
  process.kill(target === 'process' ? service.group : -service.group, signal);
  // Long enough for the service to have begun stopping (a launcher's exit is noticed within 250 ms).
  await sleep(500);
  const answer = await inFlight.finish();
  assert.equal(answer.status, 404, answer.body);
  assert.equal(JSON.parse(answer.body).Errors[0].Code, 'ROUTE_NOT_FOUND');
  const left = await goneBy(service.group, signalledAt + DEADLINE_MS);
  assert.deepEqual(
    left,
    [],
    `still running ${Date.now() - signalledAt} ms after ${signal}; output: ${service.output().slice(-2000)}`,
  );
  assert.ok(await portIsFree(service.port), 'the port is free again');
  if (way === 'node') {
    // Drained in time and not crashed by its output: exit code 0 (`npm` and `npx` have codes of their own).
    // The group is empty once the process is a zombie: its status reaches the test a moment later.
    const status = await Promise.race([service.exited, sleep(2000).then(() => null)]);
    assert.deepEqual(status, { code: 0, signal: null }, service.output().slice(-2000));
  }
  groups.delete(service.group);
}

describe('stopping the service, however it was started', { concurrency: false }, () => {
  const cases: [StartWay, number, Output, NodeJS.Signals][] = [
    ['node', 1, 'file', 'SIGTERM'],
    ['node', 2, 'file', 'SIGTERM'],
    ['node', 2, 'file', 'SIGINT'],
    ['node', 1, 'closed pipe', 'SIGTERM'],
    ['node', 2, 'closed pipe', 'SIGTERM'],
    ['node', 1, 'unread pipe', 'SIGTERM'],
    ['node', 2, 'unread pipe', 'SIGTERM'],
    ['npx', 1, 'file', 'SIGTERM'],
    ['npx', 2, 'closed pipe', 'SIGTERM'],
    ['npx', 2, 'unread pipe', 'SIGTERM'],
    ['npm start', 1, 'file', 'SIGINT'],
    ['npm start', 2, 'closed pipe', 'SIGTERM'],
    ['npm start', 2, 'unread pipe', 'SIGTERM'],
    ['npm start', 2, 'unread pipe', 'SIGINT'],
  ];
  for (const [way, workers, output, signal] of cases) {
    test(`${way}${workers > 1 ? ` --workers ${workers}` : ''}, stdout to a ${output}: ${signal} to it ends every process by the grace + 2 s, in-flight request answered`, async () => {
      const service = await start(way, workers, output);
      try {
        await spoilOutput(service, output);
        await stopAndCheck(service, way, signal);
      } finally {
        killGroup(service.group);
      }
    });
  }

  test('npx airorder serve --workers 2: SIGINT to every process of the group (Ctrl-C in a terminal) drains once, in-flight request answered', async () => {
    const service = await start('npx', 2, 'file');
    try {
      await stopAndCheck(service, 'npx', 'SIGINT', 'group');
      // Each worker drained once: the primary's SIGTERM on top of the terminal's SIGINT did not cut it short.
      const stops = service
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"shutting down"'));
      assert.equal(stops.length, 2, service.output());
    } finally {
      killGroup(service.group);
    }
  });

  test('--workers 2: when the primary is killed with SIGKILL, the workers answer their in-flight requests and end on their own', async () => {
    const service = await start('node', 2, 'file');
    try {
      const inFlight = requestInFlight(service.baseUrl);
      await sleep(100);
      const killedAt = Date.now();
      process.kill(service.group, 'SIGKILL');
      await sleep(300);
      const answer = await inFlight.finish();
      assert.equal(answer.status, 404, answer.body);
      const left = await goneBy(service.group, killedAt + DEADLINE_MS);
      assert.deepEqual(left, [], `workers still running ${Date.now() - killedAt} ms after the primary was killed`);
      assert.match(service.output(), /"cause":"primary-exited","msg":"shutting down"/);
      assert.ok(await portIsFree(service.port), 'the port is free again');
    } finally {
      killGroup(service.group);
    }
  });

  test('started with nohup from a shell that then exits (not through npm), the service keeps running, and stops on SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-shutdown-'));
    dirs.push(dir);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    // Not launched by npm: the test itself may run under `npm test`, whose variables a child inherits.
    for (const name of Object.keys(env)) if (name.startsWith('npm_') || name === 'NODE_OPTIONS') delete env[name];
    Object.assign(env, mutationHookOptions());
    Object.assign(env, {
      DATABASE_URL: `sqlite:${path.join(dir, 'x.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    const log = path.join(dir, 'stdout.log');
    const shell = spawn('sh', ['-c', `nohup "${process.execPath}" "${BIN}" serve > "${log}" 2>&1 & echo $!`], {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const group = shell.pid!;
    groups.add(group);
    try {
      let printed = '';
      shell.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        printed += chunk;
      });
      await new Promise((resolve) => shell.on('exit', resolve));
      const servicePid = Number(printed.trim());
      assert.ok(servicePid > 0, printed);
      const baseUrl = `http://127.0.0.1:${port}`;
      const healthy = async () => {
        try {
          return (await fetch(`${baseUrl}/healthz`)).status === 200;
        } catch {
          return false;
        }
      };
      for (let round = 0; !(await healthy()); round += 1) {
        // The log is read only when it is needed: the background shell may not have created it yet.
        if (round >= 300)
          assert.fail(`did not start: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '(no log)'}`);
        await sleep(100);
      }
      // Its shell is gone: the parent watch, were it on, would have stopped it within 250 ms.
      await sleep(1500);
      assert.deepEqual(
        running(group).map((entry) => entry.pid),
        [servicePid],
        'still running after its shell exited',
      );
      assert.doesNotMatch(fs.readFileSync(log, 'utf8'), /"msg":"shutting down"/);
      assert.ok(await healthy(), 'still serving after its shell exited');
      const signalledAt = Date.now();
      process.kill(servicePid, 'SIGTERM');
      assert.deepEqual(await goneBy(group, signalledAt + DEADLINE_MS), []);
      assert.ok(await portIsFree(port), 'the port is free again');
    } finally {
      killGroup(group);
    }
  });
});
