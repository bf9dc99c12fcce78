/**
 * The operator CLI run in the test's own process (runCli of src/cli/main.ts) on the store this run
 * is about, for the test/integration/cli-*.test.ts files: each file gets a database of its own, and
 * a command's standard output, error and exit code come back without starting a process.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, before, mock } from 'node:test';
import type { Command } from 'commander';
import { buildCli, runCli } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import { createTestDatabase, TEST_DATABASE_ENV, type TestDatabase } from './test-database.js';

export let dir: string;
export let database: TestDatabase;

/** Registers the file's hooks: a database of its own, migrated, and Date's mock (see inside). */
export function useInProcessCli(): void {
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-cli-in-process-'));
    database = await createTestDatabase(dir);
    // Node warns once that mock timers are experimental, on standard error a moment later: now, not
    // within a command whose standard error a test reads.
    mock.timers.enable({ apis: ['Date'] });
    mock.timers.reset();
    await new Promise((resolve) => setImmediate(resolve));
    await ok(['migrate']);
  });
  after(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, for process.stdout or process.stderr. */
export function sink(into: string[]): NodeJS.WriteStream {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      into.push(chunk.toString('utf8'));
      done();
    },
  });
  return Object.assign(stream, { isTTY: false }) as unknown as NodeJS.WriteStream;
}

/** Replaces process[name] (stdin, stdout, stderr) for the time of `work`. */
export async function swapped<T>(
  replacements: Partial<Record<'stdin' | 'stdout' | 'stderr', unknown>>,
  work: () => Promise<T>,
) {
  const originals = Object.keys(replacements).map(
    (name) => [name, Object.getOwnPropertyDescriptor(process, name)!] as const,
  );
  for (const [name, value] of Object.entries(replacements))
    Object.defineProperty(process, name, { configurable: true, get: () => value });
  try {
    return await work();
  } finally {
    for (const [name, descriptor] of originals) Object.defineProperty(process, name, descriptor);
  }
}

/** `airorder --database-url URL ARGS…` as runCli runs it, with `stdin` on standard input; `tty`: standard error is a terminal. */
export async function airorder(args: string[], stdin = '', { url = database.url, tty = false } = {}): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  const errors = Object.assign(sink(stderr), { isTTY: tty });
  try {
    await swapped({ stdout: sink(stdout), stderr: errors, stdin: Readable.from([Buffer.from(stdin)]) }, () =>
      runCli(['node', 'airorder', '--database-url', url, ...args]),
    );
    return { code: Number(process.exitCode ?? 0), stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    process.exitCode = exitCodeBefore;
  }
}

/** A run that must succeed: its standard output. */
export async function ok(args: string[], stdin = ''): Promise<string> {
  const run = await airorder(args, stdin);
  assert.equal(run.code, 0, run.stderr);
  return run.stdout;
}

/** A run that must fail with one line on standard error: that line. */
export async function refused(args: string[], stdin = ''): Promise<string> {
  const run = await airorder(args, stdin);
  assert.equal(run.code, 1, `expected a failure of ${args.join(' ')}; stdout: ${run.stdout}`);
  assert.equal(run.stdout, '');
  return run.stderr;
}

/** Every command of `program`, its own included. */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap(allCommands)];
}

/** Parses ARGS with commander only (no command's action runs): what it would print and the error it would exit with (no process exit). */
export async function parseOnly(
  args: string[],
): Promise<{ error: string; out: string; code: number; exitCode: string }> {
  const program = buildCli();
  let out = '';
  let error = '';
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({ writeOut: (text) => (out += text), writeErr: (text) => (error += text) });
    // Nothing is run: arguments taken that should have been refused end the test at once, not after a demo of 10,000,000 orders.
    if (command.commands.length === 0) command.action(() => {});
  }
  try {
    await program.parseAsync(['node', 'airorder', ...args]);
  } catch (thrown) {
    const commanderError = thrown as { exitCode: number; code: string };
    return { error, out, code: commanderError.exitCode, exitCode: commanderError.code };
  }
  return { error, out, code: 0, exitCode: '' };
}

/** Runs `work` with the environment's `settings` set, as the CLI's environment. */
export async function withEnv<T>(settings: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Opens the test database for what the CLI cannot say itself. */
export async function withDatabase<T>(
  work: (store: ReturnType<typeof openStore>) => Promise<T>,
  url = database.url,
): Promise<T> {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: url }));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
