import { Worker } from 'node:worker_threads';
import { DocumentError } from '../documents/document-error.js';
import type { Ack, FromPreparer, PreparerData } from './order-preparation-messages.js';
import type { PreparedOrder } from './order-preparation.js';

// The thread runs the built program only: a worker thread gets no TypeScript loader, so run from
// source (tsx) it could not load its module whatever its name (the tests import this from dist/).
const WORKER = new URL('./order-preparation-worker.js', import.meta.url);

export interface PreparedInput {
  records: AsyncIterable<PreparedOrder[]>;
  /** How much of the input the thread had read when it prepared the last batch taken. */
  bytesRead(): number;
}

/** The thread's error again on this side; its own stack, where the thread sent one, says where it happened. */
function failure(message: string, code?: string, stack?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {}, stack ? { stack } : {});
}

/**
 * The order documents of FILE (or standard input for `-`), imported from `importedAt` on, read, checked and prepared on a second
 * thread, in batches, while this one writes the batches before: reading JSON and checking the
 * documents was half of an import's time. The thread stays at most a few batches ahead, so memory
 * stays flat whatever the input's size, and the first bad record ends the batches with the same
 * DocumentError that preparing them here would throw. A thread that fails or stops on its own ends
 * them with its error. `threadModule` is the thread's program: another only in tests.
 */
export function preparedInThread(file: string, importedAt: string, threadModule: URL = WORKER): PreparedInput {
  let bytesRead = 0;
  async function* batches(): AsyncGenerator<PreparedOrder[]> {
    const worker = new Worker(threadModule, { workerData: { file, importedAt } satisfies PreparerData });
    const arrived: FromPreparer[] = [];
    let wake: (() => void) | null = null;
    const arrive = (message: FromPreparer) => {
      arrived.push(message);
      wake?.();
      wake = null;
    };
    worker.on('message', arrive);
    worker.on('error', (error) => arrive({ type: 'failed', message: error.message }));
    worker.on('exit', (code) => arrive({ type: 'failed', message: `the import thread stopped (exit code ${code})` }));
    try {
      for (;;) {
        while (arrived.length === 0)
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        const message = arrived.shift()!;
        switch (message.type) {
          case 'batch':
            bytesRead = message.bytesRead;
            yield message.orders;
            worker.postMessage({ type: 'ack' } satisfies Ack);
            break;
          case 'done':
            return;
          case 'document-error':
            throw new DocumentError(message.record, message.field, message.problem, message.orderId);
          case 'failed':
            throw failure(message.message, message.code, message.stack);
        }
      }
    } finally {
      worker.removeAllListeners('exit');
      await worker.terminate();
    }
  }
  return { records: batches(), bytesRead: () => bytesRead };
}
