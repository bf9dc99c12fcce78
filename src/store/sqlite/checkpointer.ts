import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { LogFigures } from '../store.js';

/** How often the thread copies the write-ahead log back; a pass with nothing to copy costs microseconds. */
const EVERY_MS = 100;

// Plain CommonJS, evaluated in the thread: no build step or loader is involved.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = ' + workerData.synchronous);
let timer = null;
function pass() {
  try {
    const [log] = db.pragma('wal_checkpoint(PASSIVE)');
    let frames = log.log;
    let restarted = false;
    if (log.log >= workerData.restartFrames) {
      // Writes that never pause leave a PASSIVE copy always a little behind, and SQLite starts the
      // log over only once all of it is copied: it would grow without end. RESTART waits for the
      // writer's transaction to end (the writer waits for it in turn, with its busy time-out),
      // copies the rest, and the next write starts the log from its beginning.
      const [restart] = db.pragma('wal_checkpoint(RESTART)');
      // The log as the writer left it when it was started over: the largest of this cycle.
      frames = Math.max(frames, restart.log);
      restarted = restart.busy === 0;
    }
    parentPort.postMessage({ frames, restarted });
  } catch (error) {
    // Another process checkpointing at the same moment: the next pass catches up.
    if (!String(error && error.code).startsWith('SQLITE_BUSY')) parentPort.postMessage({ failure: String(error && error.message) });
  }
  timer = setTimeout(pass, workerData.everyMs);
}
parentPort.on('message', () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
pass();
`;

export interface Checkpointer {
  figures(): LogFigures;
  stop(): Promise<void>;
}

type ThreadMessage = { frames: number; restarted: boolean } | { failure: string };

/**
 * Copies SQLite's write-ahead log back into the database file from a thread of its own, with its
 * own connection. Left to SQLite, a COMMIT does it every 1,000 pages, and for those 10 to 20 ms the
 * process answers nobody: under load that was two thirds of all the time spent committing, and the
 * worst latencies. The copy is PASSIVE: it never waits for, nor blocks, a writer or a reader, and
 * durability is unchanged (a commit is durable in the log before it is answered). Only once the log
 * holds `restartFrames` pages does a pass hold the writer for the moment it takes to copy the rest,
 * so that the log starts over (measured: about 150 ms under full load). `onFailure` is called once
 * if the thread cannot run, so that the caller can hand checkpoints back to SQLite.
 *
 * Each pass reports the log's length in frames (a RESTART's own count is the length the writer
 * reached before the log started over), and `figures()` keeps the largest. While this thread is the
 * only one to checkpoint, that is the log's true peak up to the last pass: the writer starts the log
 * over only once a checkpoint has copied all of it, and the checkpoint that did reported its length.
 */
export function startCheckpointer(
  file: string,
  synchronous: 'NORMAL' | 'FULL',
  restartFrames: number,
  pageSize: number,
  onFailure: (reason: string) => void,
): Checkpointer {
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: {
      file,
      synchronous,
      everyMs: EVERY_MS,
      restartFrames,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  });
  let stopping = false;
  let failed = false;
  const fail = (reason: string) => {
    if (failed || stopping) return;
    failed = true;
    void worker.terminate();
    onFailure(reason);
  };
  const figures: LogFigures = { passes: 0, restarts: 0, peakBytes: 0 };
  worker.on('message', (message: ThreadMessage) => {
    if ('failure' in message) return fail(message.failure);
    figures.passes += 1;
    if (message.restarted) figures.restarts += 1;
    // SQLite's file format: a 32-byte header, then each frame's 24-byte header and its page.
    if (message.frames > 0) figures.peakBytes = Math.max(figures.peakBytes, 32 + message.frames * (24 + pageSize));
  });
  worker.on('error', (error) => fail(error.message));
  worker.on('exit', (code) => fail(`checkpoint thread exited with code ${code}`));
  // Never what keeps a process alive: close() stops it, and a process that ends simply ends it.
  worker.unref();
  return {
    figures: () => ({ ...figures }),
    async stop() {
      if (stopping || failed) return;
      stopping = true;
      const exited = once(worker, 'exit');
      // Held until the thread has closed its connection: a close awaited with nothing else left to
      // run would otherwise let the process end first, and the store's own connection stay open.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
