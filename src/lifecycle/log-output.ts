import fs from 'node:fs';
import pino from 'pino';

// PIPE_BUF on Linux: a write of at most this many bytes to a pipe is never interleaved with another
// process's write, so the workers of `serve --workers N`, sharing one standard output, never cut each
// other's lines (a single line longer than this is written on its own and may be).
const LOG_WRITE_BYTES = 4096;
const LOG_CHUNK_BYTES = 3072;
const LOG_FLUSH_MS = 200;
/** The most an exit this module did not order (a crash) waits for standard output to take the last lines. */
const UNPLANNED_EXIT_FLUSH_MS = 1000;

export type LogDestination = ReturnType<typeof pino.destination>;

export interface LogOutput {
  destination: LogDestination;
  /**
   * Ends the process with `code` once the buffered lines are written, or after `waitMs` at the
   * latest: what standard output has not taken by then (nobody reads it) is dropped.
   */
  exit(code: number, waitMs: number): void;
}

const ignore = (): void => {};

/**
 * Standard output and error may be a pipe whose reader is gone: writing then fails with EPIPE,
 * which must cost the lines, never the process (an 'error' event nobody listens to is an uncaught
 * exception).
 */
export function survivePipeErrors(): void {
  process.stdout.on('error', ignore);
  process.stderr.on('error', ignore);
}

/**
 * Where the log is written: standard output, and when that is a pipe, the same pipe opened anew,
 * non-blocking. Whether a write may wait is a flag of the open file description, shared by every
 * process that inherited it (the launcher, the primary, the workers), and any of them may set it back
 * to blocking (Node does, as it exits). A write that blocks on a pipe nobody reads holds a thread for
 * good, and the process's exit waits for that thread: the pipe opened here is this process's alone,
 * stays non-blocking, and a full pipe answers EAGAIN instead. On Linux only (`/proc/self/fd`).
 */
function logDescriptor(): number {
  try {
    if (fs.fstatSync(1).isFIFO())
      return fs.openSync('/proc/self/fd/1', fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch {
    // No /proc, or the reader is gone already (ENXIO): standard output as it is.
  }
  return 1;
}

/**
 * The service's log: JSON lines on standard output, written asynchronously, so a request never waits
 * for its line to reach the disk or the pipe. Lines are gathered into writes of 3–4 KiB of whole lines
 * (one write per request line cost more than the line itself under load); a timer bounds how long a
 * line waits when traffic is light. Nothing here waits for a reader without a bound: see `exit`.
 */
export function openLogOutput(): LogOutput {
  survivePipeErrors();
  // A pipe that is full answers EAGAIN; while running, the write is tried again 100 ms later, for as
  // long as it takes. From the moment the process is to end, only until `giveUpAt`.
  let giveUpAt = Number.POSITIVE_INFINITY;
  // Registered before the destination, so it runs before pino's own flush at exit, which would
  // otherwise wait for a reader that never comes.
  process.once('exit', () => {
    giveUpAt = Math.min(giveUpAt, Date.now() + UNPLANNED_EXIT_FLUSH_MS);
  });
  const destination = pino.destination({
    dest: logDescriptor(),
    sync: false,
    minLength: LOG_CHUNK_BYTES,
    maxWrite: LOG_WRITE_BYTES,
    retryEAGAIN: () => Date.now() < giveUpAt,
  });
  // pino stops writing after EPIPE by itself; any other failure of standard output costs lines only.
  destination.on('error', ignore);
  const flushTimer = setInterval(() => destination.flush(), LOG_FLUSH_MS);
  flushTimer.unref();

  let exiting = false;
  const exit = (code: number, waitMs: number): void => {
    if (exiting) return;
    exiting = true;
    clearInterval(flushTimer);
    giveUpAt = Date.now() + waitMs;
    const finish = (flushed: boolean): void => {
      giveUpAt = 0;
      try {
        // After a flush, at most the last chunk is left (it was being gathered when the flush began).
        if (flushed) destination.flushSync();
        else destination.destroy();
      } catch {
        // Standard output does not take it now: drop it, so pino's flush at exit finds nothing to wait for.
        destination.destroy();
      }
      process.exit(code);
    };
    // A guard for an output whose write never returns: on every other, the flush's callback comes
    // within 100 ms of the wait (the retry gives up at giveUpAt), and either way the process ends.
    // Stryker disable next-line ArrowFunction,BooleanLiteral: the flush's callback ends the process at most 100 ms later, the same way (see above).
    setTimeout(() => finish(false), waitMs);
    // With a callback, flush never throws: a destroyed output calls it with an error.
    destination.flush(() => finish(true));
  };
  return { destination, exit };
}
