import { runSql } from '../raw-sql.js';
import type { WriteOptions } from '../store.js';
import type { Executor } from '../executor.js';

interface Queued {
  work: (tx: Executor) => Promise<unknown>;
  large: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Runs `body` in one transaction and commits it, or rolls everything back and throws. */
export type TransactionRunner = (body: (tx: Executor) => Promise<void>) => Promise<void>;

/**
 * Group commit: transactions that arrive while others are running join them, up to `maxBatch`,
 * and one COMMIT makes them all durable. Each after the first runs in its own savepoint, so one that
 * fails is undone alone (the first, by rolling back the transaction it is still alone in); every
 * caller is answered only after the COMMIT, never before, so nothing is acknowledged that a crash
 * could lose. With one caller at a time it is a plain transaction.
 */
export function groupCommit(
  runTransaction: TransactionRunner,
  maxBatch = 32,
): <T>(work: (tx: Executor) => Promise<T>, options?: WriteOptions) => Promise<T> {
  const queue: Queued[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch: Queued[] = [];
        const answers: (() => void)[] = [];
        try {
          await runTransaction(async (tx) => {
            while (queue.length > 0 && batch.length < maxBatch) {
              // Large work goes first in a batch of its own, the only place it needs no savepoint.
              if (batch.length > 0 && queue[0]!.large) break;
              const item = queue.shift()!;
              batch.push(item);
              if (batch.length === 1) {
                // The first needs no savepoint: if it fails, the whole transaction is rolled back,
                // which undoes it alone (the catch below answers it). A savepoint makes SQLite keep
                // every page it changes in a statement journal: for an import, the whole file.
                const value = await item.work(tx);
                answers.push(() => item.resolve(value));
                continue;
              }
              await runSql(tx, 'savepoint unit_of_work', []);
              try {
                const value = await item.work(tx);
                await runSql(tx, 'release savepoint unit_of_work', []);
                answers.push(() => item.resolve(value));
              } catch (error) {
                await runSql(tx, 'rollback to savepoint unit_of_work', []);
                await runSql(tx, 'release savepoint unit_of_work', []);
                answers.push(() => item.reject(error));
              }
            }
          });
        } catch (error) {
          // Nothing of the batch was committed: every caller in it learns so. When the transaction
          // could not even begin (the write lock still held after the busy time-out, a read-only
          // file), the batch is empty: the callers it was begun for learn it instead, rather than
          // waiting for a retry that may fail the same way forever.
          for (const item of batch.length > 0 ? batch : queue.splice(0, maxBatch)) item.reject(error);
          continue;
        }
        for (const answer of answers) answer();
      }
    } finally {
      draining = false;
    }
  }

  return <T>(work: (tx: Executor) => Promise<T>, options?: WriteOptions) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, large: options?.large ?? false, resolve: resolve as (value: unknown) => void, reject });
      // The batch starts after the event loop has read the other requests that arrived with this one:
      // a transaction on SQLite runs in microtasks alone, so without this pause none could join it.
      if (!draining) {
        draining = true;
        setImmediate(() => void drain());
      }
    });
}
