import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname ?? '.', '..');
const BIN = path.join(ROOT, 'bin', 'airorder.js');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  peakRssMb: number;
}

/** Peak resident memory of a running process, from /proc (Linux). */
function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export class RssSampler {
  peak = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(pid: number, everyMs = 100) {
    this.timer = setInterval(() => {
      this.peak = Math.max(this.peak, rssMb(pid));
    }, everyMs);
  }
  stop(): number {
    clearInterval(this.timer);
    return this.peak;
  }
}

/** Runs `airorder ARGS` to completion, timing it and sampling its memory. */
export function airorder(args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const sampler = new RssSampler(child.pid!, 50);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const peakRssMb = sampler.stop();
      if (code !== 0) reject(new Error(`airorder ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ code, stdout, stderr, seconds, peakRssMb });
    });
  });
}

export interface Service {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts a long-running child and waits until `url` answers. */
export async function startService(
  command: string[],
  env: Record<string, string>,
  url: string,
  logFile: string,
): Promise<Service> {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, command, { env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited early; see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`${command.join(' ')} did not start; see ${logFile}`);
    try {
      const response = await fetch(url);
      await response.text();
      break;
    } catch {
      /* not yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => {
          fs.closeSync(log);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export { BIN };
