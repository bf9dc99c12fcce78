/**
 * Runs the real operator CLI (`node bin/airorder.js …`, the compiled program: run `npm run build`
 * first) against a fresh SQLite database in a temporary directory (or the database given to
 * `useDatabase`), and starts `airorder serve` as a child process on a free loopback port. Every
 * sandbox removes its directory and ends the children it started in `cleanup()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { endLeftoverChild, mutationHookOptions } from './mutation-hook.js';
import { TEST_DATABASE_ENV } from './test-database.js';
import { scaled } from './time-scale.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(PROJECT_ROOT, 'bin', 'airorder.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the child's standard input, which is then closed. */
  stdin?: string;
  env?: Record<string, string>;
  /** How long the command may take before it is killed and the call fails (default 60 s), times TEST_TIME_SCALE. */
  timeoutMs?: number;
  /** Called with each piece of standard error as it comes, and the process: to signal it at a moment it names. */
  onStderr?: (text: string, child: ChildProcess) => void;
}

/** How long `serve` may take to answer /healthz (times TEST_TIME_SCALE): generous, as waiting costs nothing when it starts. */
export const SERVE_START_LIMIT_MS = 60_000;

/** How many of a child's last output lines a failure shows. */
const TAIL_LINES = 20;

/** The last lines of what a child printed, standard output and error in the order they came. */
export function lastLines(output: string, count = TAIL_LINES): string {
  const lines = output.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return '(it printed nothing)';
  const shown = lines.slice(-count);
  const cut = lines.length - shown.length;
  return `${cut > 0 ? `(${cut} earlier lines left out)\n` : ''}${shown.join('\n')}`;
}

export interface ServeOptions {
  env?: Record<string, string>;
  waitForStderr?: string;
  openFiles?: number;
  /**
   * The largest file the process may write, in bytes (RLIMIT_FSIZE, rounded down to the shell's
   * 512-byte blocks): a write past it fails with EFBIG, as one to a full disk fails with ENOSPC.
   */
  fileSizeBytes?: number;
  startLimitMs?: number;
  /** Where serve's ports come from (default freePort): a test of the retry hands it a taken one. */
  choosePort?: () => Promise<number>;
}

/** `serve` ended because the port it was given was taken before it could listen. */
class PortTaken extends Error {}

/** How a child ended, or that it is still running. */
function childState(child: ChildProcess, ended: { code: number | null; signal: NodeJS.Signals | null } | null): string {
  if (!ended) return `still running (pid ${child.pid})`;
  return ended.signal ? `killed by ${ended.signal}` : `exited with code ${ended.code}`;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface ServeProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited, with its exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  post(pathName: string, body: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  get(pathName: string): Promise<HttpResult>;
}

/** Where freePort looks: from here up to the kernel's range for outgoing connections. */
const LOWEST_PORT = 10_000;

/** The first port the kernel gives outgoing connections (Linux), 32768 (its default) where it cannot be read. */
function firstEphemeralPort(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > LOWEST_PORT + 1_000) return low;
  } catch {
    // Not Linux: its default.
  }
  return 32_768;
}

/** Listens on `port` (0: one the kernel picks) and closes again; the port it had, or null when it was taken. */
function listenAndClose(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(null) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port that was free a moment ago, below the kernel's range for outgoing connections: a client's
 * connection, of this test or another, can then never take it before `serve` binds it (the kernel
 * gives those their local port from that range); only another listener could. Where no port of
 * that stretch is free, one the kernel hands out.
 */
export async function freePort(): Promise<number> {
  const high = firstEphemeralPort();
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await listenAndClose(LOWEST_PORT + Math.floor(Math.random() * (high - LOWEST_PORT)));
    if (port !== null) return port;
  }
  return (await listenAndClose(0))!;
}

export async function httpJson(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the test looks at `text` */
  }
  return { status: response.status, headers: response.headers, body, text };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class CliSandbox {
  readonly dir: string;
  readonly dbFile: string;
  private currentDatabaseUrl: string;
  private readonly children = new Set<ChildProcess>();

  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-cli-'));
    this.dbFile = path.join(this.dir, 'x.db');
    this.currentDatabaseUrl = `sqlite:${this.dbFile}`;
  }

  /** The DATABASE_URL every command and server of this sandbox runs with. */
  get databaseUrl(): string {
    return this.currentDatabaseUrl;
  }

  /**
   * Runs every later command and server on another database, such as one from createTestDatabase
   * (PostgreSQL, or an SQLite file). `dbFile`, `query` and `databaseBytes` still mean the default file.
   */
  useDatabase(databaseUrl: string): void {
    this.currentDatabaseUrl = databaseUrl;
  }

  private env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    // The parent's own settings (a test runner's NODE_OPTIONS, a developer's PORT) must not leak in.
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['NODE_OPTIONS', 'PORT', 'HOST', 'DATABASE_URL', 'DURABILITY']) delete env[name];
    return { ...env, ...TEST_DATABASE_ENV, ...mutationHookOptions(), DATABASE_URL: this.databaseUrl, ...extra };
  }

  /** Runs `airorder ARGS…` to completion. */
  run(args: string[], options: RunOptions = {}): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: this.dir,
        env: this.env(options.env),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.children.add(child);
      let stdout = '';
      let stderr = '';
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        output += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        output += chunk;
        options.onStderr?.(chunk, child);
      });
      const limitMs = scaled(options.timeoutMs ?? 60_000);
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(
            `airorder ${args.join(' ')} did not finish within ${limitMs} ms (TEST_TIME_SCALE multiplies it): killed; its last lines:\n${lastLines(output)}`,
          ),
        );
      }, limitMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        this.children.delete(child);
        resolve({ code, signal, stdout, stderr });
      });
      child.stdin.on('error', () => {
        /* the program may exit before reading its input */
      });
      child.stdin.end(options.stdin ?? '');
    });
  }

  /** Runs `airorder ARGS…` and fails unless it exits 0. */
  async ok(args: string[], options: RunOptions = {}): Promise<CliResult> {
    const result = await this.run(args, options);
    if (result.code !== 0) throw new Error(`airorder ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result;
  }

  /** Agency AG1 and a console operator who signs in with EMAIL and PASSWORD, as the console's tests begin. */
  async addAgencyAndOperator(email: string, password: string): Promise<void> {
    await this.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
    await this.ok(['operator', 'add', '--email', email, '--name', 'Dana Desk', '--password-stdin'], {
      stdin: password,
    });
  }

  /** Writes a file in the sandbox and returns its path. */
  write(name: string, content: string): string {
    const file = path.join(this.dir, name);
    fs.writeFileSync(file, content);
    return file;
  }

  /** `airorder orders show ID`, parsed. */
  async show(orderId: string): Promise<any> {
    return JSON.parse((await this.ok(['orders', 'show', orderId])).stdout);
  }

  /** Runs a query on the database, opened read-only for just this call. */
  query<T = any>(sqlText: string, ...params: unknown[]): T[] {
    const db = new Database(this.dbFile, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sqlText).all(...params) as T[];
    } finally {
      db.close();
    }
  }

  /** Every byte of the database: the main file, and its WAL and shared-memory files when present. */
  databaseBytes(): Buffer {
    const files = fs.readdirSync(this.dir).filter((name) => name.startsWith(path.basename(this.dbFile)));
    return Buffer.concat(files.map((name) => fs.readFileSync(path.join(this.dir, name))));
  }

  /**
   * Starts `airorder serve ARGS…` on a free loopback port and waits until /healthz answers.
   * `waitForStderr` (optional) is text that must also have appeared on stderr. `openFiles` (optional)
   * is the process's open-files limit, soft and hard alike, which Node then cannot raise. `startLimitMs`
   * (default SERVE_START_LIMIT_MS) is how long that may take, times TEST_TIME_SCALE. If the process
   * exits first, or the limit passes, the error says how it ended (or that it still runs), what
   * /healthz last answered, and its last lines of output.
   */
  async serve(args: string[] = [], options: ServeOptions = {}): Promise<ServeProcess> {
    // freePort's port is free when it answers, not when serve binds it: on a busy machine another
    // process (a client's outgoing connection among them) may take it in between. That start is
    // tried again on another port; a PORT the test chose itself is its own to keep.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.serveOn(await (options.choosePort ?? freePort)(), args, options);
      } catch (error) {
        if (!(error instanceof PortTaken) || options.env?.PORT !== undefined || attempt === 3) throw error;
      }
    }
  }

  private async serveOn(port: number, args: string[], options: ServeOptions): Promise<ServeProcess> {
    const limits = [
      ...(options.openFiles === undefined ? [] : [`ulimit -n ${options.openFiles}`]),
      ...(options.fileSizeBytes === undefined ? [] : [`ulimit -f ${Math.floor(options.fileSizeBytes / 512)}`]),
    ];
    const [command, commandArgs] =
      limits.length === 0
        ? [process.execPath, [BIN, 'serve', ...args]]
        : // The shell lowers its limits and becomes node (exec): the child's pid is the service's.
          ['/bin/sh', ['-c', `${limits.join(' && ')} && exec "$@"`, 'sh', process.execPath, BIN, 'serve', ...args]];
    const child = spawn(command, commandArgs, {
      cwd: this.dir,
      env: this.env({ PORT: String(port), HOST: '127.0.0.1', ...options.env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.add(child);
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      output += chunk;
    });
    let exitedState: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    // Ends a health check under way when the process ends: a port held by another process may never answer.
    const ended = new AbortController();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.on('exit', (code, signal) => {
        exitedState = { code, signal };
        ended.abort();
        this.children.delete(child);
        resolve(exitedState);
      });
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const limitMs = scaled(options.startLimitMs ?? SERVE_START_LIMIT_MS);
    const started = performance.now();
    let lastHealth = 'no answer yet';
    const failure = (what: string) =>
      new Error(
        `airorder serve ${what}: ${childState(child, exitedState)}; /healthz: ${lastHealth}` +
          `${options.waitForStderr ? `; waiting for ${JSON.stringify(options.waitForStderr)} on stderr` : ''}` +
          `; its last lines:\n${lastLines(output)}`,
      );
    for (;;) {
      if (exitedState) {
        // Let the pipes deliver what the process wrote last (it says why it stopped): they close after the exit.
        if (child.stdout!.readable || child.stderr!.readable)
          await Promise.race([new Promise((resolve) => child.once('close', resolve)), sleep(scaled(2_000))]);
        const error = failure('ended before it became healthy');
        throw output.includes('EADDRINUSE') ? new PortTaken(error.message) : error;
      }
      if (performance.now() - started > limitMs)
        throw failure(`did not become healthy within ${limitMs} ms (TEST_TIME_SCALE multiplies it)`);
      try {
        // A check that hangs (accepted, never answered) still ends at the limit.
        const health = await fetch(`${baseUrl}/healthz`, {
          signal: AbortSignal.any([
            AbortSignal.timeout(Math.max(1, Math.ceil(limitMs - (performance.now() - started)))),
            ended.signal,
          ]),
        });
        await health.text();
        lastHealth = `HTTP ${health.status}`;
        if (health.status === 200 && (!options.waitForStderr || stderr.includes(options.waitForStderr))) break;
      } catch (error) {
        lastHealth =
          (error as Error).name === 'TimeoutError'
            ? 'no answer'
            : `not listening (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`;
      }
      await sleep(50);
    }
    return {
      child,
      port,
      baseUrl,
      exited,
      stdout: () => stdout,
      stderr: () => stderr,
      post: (pathName, body, headers = {}) =>
        httpJson(baseUrl + pathName, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      get: (pathName) => httpJson(baseUrl + pathName),
    };
  }

  /** Ends every child this sandbox started that is still running, then removes the directory. */
  async cleanup(): Promise<void> {
    const running = [...this.children];
    await Promise.all(
      running.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) {
              resolve();
              return;
            }
            child.once('exit', () => resolve());
            endLeftoverChild(child, scaled(10_000));
          }),
      ),
    );
    this.children.clear();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Writes documents as a JSON array, the single object (one document), or NDJSON. */
export function asJsonArray(documents: object[]): string {
  return JSON.stringify(documents, null, 2);
}

export function asNdjson(documents: object[]): string {
  return `${documents.map((document) => JSON.stringify(document)).join('\n')}\n`;
}
