import { runSql } from '../raw-sql.js';
import type { Executor } from '../store.js';

interface Queued {
  work: (tx: Executor) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Runs `body` in one transaction and commits it, or rolls everything back and throws. */
export type TransactionRunner = (body: (tx: Executor) => Promise<void>) => Promise<void>;

/**
 * Group commit: transactions that arrive while others are running join them, up to `maxBatch`,
 * and one COMMIT makes them all durable. Each runs in its own savepoint, so one that fails is
 * undone alone; every caller is answered only after the COMMIT, never before, so nothing is
 * acknowledged that a crash could lose. With one caller at a time it is a plain transaction.
 */
export function groupCommit(runTransaction: TransactionRunner, maxBatch = 32): <T>(work: (tx: Executor) => Promise<T>) => Promise<T> {
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
              const item = queue.shift()!;
              batch.push(item);
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

  return <T>(work: (tx: Executor) => Promise<T>) => new Promise<T>((resolve, reject) => {
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    // The batch starts after the event loop has read the other requests that arrived with this one:
    // a transaction on SQLite runs in microtasks alone, so without this pause none could join it.
    if (!draining) {
      draining = true;
      setImmediate(() => void drain());
    }
  });
}
