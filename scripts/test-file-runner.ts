/**
 * Runs test files with node's test runner, each file in its own process group with a time limit:
 * a file that has not ended when its limit passes (a test awaiting forever, a server left
 * listening, a timer left running) is stopped, with every process it started, and counted as a
 * failure that names it. node's own --test-timeout limits each test, not a file that never exits.
 */
import { spawn } from 'node:child_process';
import { timeScale } from '../test/helpers/time-scale.js';

/** Ten minutes: in CI the slowest group of files takes under three minutes in all, so this only catches a hang. */
export const DEFAULT_FILE_TIMEOUT_MS = 10 * 60_000;

/** TEST_FILE_TIMEOUT_MS, or the default, times TEST_TIME_SCALE (test/helpers/time-scale.ts) like every other limit. */
export function fileTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const scale = timeScale(env);
  const text = env.TEST_FILE_TIMEOUT_MS;
  if (text === undefined || text === '') return Math.round(DEFAULT_FILE_TIMEOUT_MS * scale);
  if (!/^[1-9][0-9]{0,8}$/.test(text))
    throw new Error(`TEST_FILE_TIMEOUT_MS must be a number of milliseconds, got ${JSON.stringify(text)}`);
  return Math.round(Number(text) * scale);
}

export interface Tally {
  pass: number;
  fail: number;
  skipped: number;
  exitCode: number;
}

export interface FileResult extends Tally {
  file: string;
  timedOut: boolean;
  ms: number;
}

export interface RunOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /** How many files run at once (default 2). */
  concurrency?: number;
  /** Where the files' TAP output and the runner's lines go (default: this process's stdout and stderr). */
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/** The process groups running now, stopped with the runner if it is interrupted. */
const running = new Set<number>();

function stopGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Ended meanwhile.
  }
}

let interruptHandled = false;
function stopGroupsOnInterrupt(): void {
  if (interruptHandled) return;
  interruptHandled = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const pid of running) stopGroup(pid);
      process.exit(130);
    });
  }
}

/** Runs one test file to its end or its time limit; its output is written whole when it ends. */
export function runTestFile(file: string, options: RunOptions = {}): Promise<FileResult> {
  const timeoutMs = options.timeoutMs ?? fileTimeoutMs();
  const out =
    options.out ??
    ((text: string) => {
      process.stdout.write(text);
    });
  const err =
    options.err ??
    ((text: string) => {
      process.stderr.write(text);
    });
  stopGroupsOnInterrupt();
  const started = performance.now();
  return new Promise((resolve) => {
    // Its own process group, so that stopping it also stops the test process and what that started.
    // NODE_TEST_CONTEXT is set when this runs inside a test itself: the child would then report in
    // the parent runner's private format instead of TAP.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], {
      env: { ...env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid !== undefined) running.add(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) stopGroup(child.pid);
    }, timeoutMs);
    const finish = (code: number | null) => {
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      const ms = Math.round(performance.now() - started);
      const tally: Tally = { pass: 0, fail: 0, skipped: 0, exitCode: code ?? 1 };
      for (const line of stdout.split('\n')) {
        const match = /^# (pass|fail|skipped) (\d+)$/.exec(line);
        if (match) tally[match[1] as 'pass' | 'fail' | 'skipped'] += Number(match[2]);
      }
      let report = `# file ${file} (${ms} ms)\n${stdout}${stdout.endsWith('\n') || stdout === '' ? '' : '\n'}`;
      if (timedOut) {
        tally.fail += 1;
        tally.exitCode = tally.exitCode || 1;
        report += `not ok - ${file} did not end within ${timeoutMs} ms (TEST_FILE_TIMEOUT_MS): stopped, with every process it started\n`;
      } else if (tally.exitCode !== 0 && tally.fail === 0) {
        // It ended badly without a failing test (a crash while loading, say): still a failure, named.
        tally.fail += 1;
        report += `not ok - ${file} exited with code ${tally.exitCode}\n`;
      }
      out(report);
      if (stderr) err(stderr);
      resolve({ ...tally, file, timedOut, ms });
    };
    child.on('error', (error) => {
      stderr += `${error.message}\n`;
      finish(1);
    });
    child.on('close', (code) => finish(code));
  });
}

/** Runs the files, `concurrency` at a time, and adds up what they report. */
export async function runFiles(files: string[], options: RunOptions = {}): Promise<Tally & { files: FileResult[] }> {
  const results: FileResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next]!;
      next += 1;
      results.push(await runTestFile(file, options));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, files.length) }, worker));
  const timedOut = results.filter((result) => result.timedOut).map((result) => result.file);
  if (timedOut.length > 0)
    (
      options.err ??
      ((text: string) => {
        process.stderr.write(text);
      })
    )(`did not end in time, stopped: ${timedOut.join(', ')}\n`);
  return {
    pass: results.reduce((sum, result) => sum + result.pass, 0),
    fail: results.reduce((sum, result) => sum + result.fail, 0),
    skipped: results.reduce((sum, result) => sum + result.skipped, 0),
    exitCode: results.find((result) => result.exitCode !== 0)?.exitCode ?? 0,
    files: results,
  };
}
