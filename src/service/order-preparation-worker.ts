/**
 * The thread behind `preparedInThread`: reads the input itself (the writer's thread is too busy
 * writing to feed it), checks each order document, and posts the prepared orders back in batches,
 * never more than a few ahead of the writer.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { DocumentError } from '../documents/document-error.js';
import { streamRecords } from '../documents/record-stream.js';
import { preparedHere, type PreparedOrder } from './order-preparation.js';
import { BATCHES_AHEAD, type FromPreparer, type PreparerData } from './order-preparation-messages.js';

const port = parentPort!;
const { file, importedAt } = workerData as PreparerData;
const post = (message: FromPreparer) => port.postMessage(message);

let unacknowledged = 0;
let resume: (() => void) | null = null;
port.on('message', () => {
  unacknowledged -= 1;
  resume?.();
  resume = null;
});

// Standard input is read through its descriptor: a thread has no process.stdin of its own.
const input = file === '-' ? fs.createReadStream('', { fd: 0, autoClose: false }) : fs.createReadStream(file);

async function send(batch: PreparedOrder[]): Promise<void> {
  post({ type: 'batch', orders: batch, bytesRead: input.bytesRead });
  unacknowledged += 1;
  while (unacknowledged >= BATCHES_AHEAD)
    await new Promise<void>((wake) => {
      resume = wake;
    });
}

try {
  for await (const batch of preparedHere(streamRecords(input), importedAt)) await send(batch);
  post({ type: 'done' });
} catch (error) {
  post(
    error instanceof DocumentError
      ? {
          type: 'document-error',
          record: error.record,
          field: error.field,
          problem: error.problem,
          orderId: error.orderId,
        }
      : {
          type: 'failed',
          message: error instanceof Error ? error.message : String(error),
          code: (error as NodeJS.ErrnoException | null)?.code,
          stack: error instanceof Error ? error.stack : undefined,
        },
  );
} finally {
  input.destroy();
}
