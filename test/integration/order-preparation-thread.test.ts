/**
 * `orders import FILE` prepares the orders on a worker thread (src/service/order-preparation-thread.ts
 * and its worker): the batches it hands over, how much of the file they took, and its errors as they
 * would be thrown here. The thread loads the built program, so this file imports it from dist/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { simpleOrder } from '../helpers/documents.js';
import { scaled } from '../helpers/time-scale.js';

type ThreadModule = typeof import('../../src/service/order-preparation-thread.js');
type ErrorModule = typeof import('../../src/documents/document-error.js');
const built = (file: string) => new URL(`../../dist/${file}`, import.meta.url).href;
const { preparedInThread } = (await import(built('service/order-preparation-thread.js'))) as ThreadModule;
const { DocumentError } = (await import(built('documents/document-error.js'))) as ErrorModule;

const IMPORTED_AT = '2026-11-22T10:00:00.000Z';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-preparation-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function written(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

function orders(count: number) {
  return Array.from({ length: count }, (_, index) => {
    const n = String(index).padStart(5, '0');
    return simpleOrder(`ORD-T${n}`, 'AGT', `REF${n}`, `22000000${n}`);
  });
}

test('501 orders come in a batch of 500 and one of 1, in file order; bytesRead is the whole file after the last', async () => {
  const file = written('orders.json', JSON.stringify(orders(501)));
  const input = preparedInThread(file, IMPORTED_AT);
  assert.equal(input.bytesRead(), 0);
  const sizes: number[] = [];
  const read: number[] = [];
  const ids: string[] = [];
  for await (const batch of input.records) {
    sizes.push(batch.length);
    read.push(input.bytesRead());
    ids.push(...batch.map((order) => order.orderId));
  }
  assert.deepEqual(sizes, [500, 1]);
  assert.deepEqual(
    ids,
    orders(501).map((order) => order.orderId),
  );
  assert.ok(read[0]! > 0 && read[0]! <= fs.statSync(file).size, String(read[0]));
  assert.equal(read[1], fs.statSync(file).size);
});

test('a prepared order: its label, ids, currency and booking references', async () => {
  const file = written('one.json', JSON.stringify([simpleOrder('ORD-ONE', 'AGT', 'ONE001', '2200000099999')]));
  const batches: unknown[] = [];
  for await (const batch of preparedInThread(file, IMPORTED_AT).records) batches.push(batch);
  assert.equal(batches.length, 1);
  const [order] = batches[0] as {
    label: string;
    orderId: string;
    agencyId: string;
    currency: string;
    references: string[];
  }[];
  assert.deepEqual(
    [order!.label, order!.orderId, order!.agencyId, order!.currency, order!.references],
    ['record 1', 'ORD-ONE', 'AGT', 'EUR', ['ONE001']],
  );
});

test('an empty file ends the batches without any', async () => {
  const input = preparedInThread(written('empty.json', ''), IMPORTED_AT);
  const batches: unknown[] = [];
  for await (const batch of input.records) batches.push(batch);
  assert.deepEqual(batches, []);
});

test('a bad record ends the batches with the DocumentError preparing it here would throw', async () => {
  const file = written('bad.json', JSON.stringify([simpleOrder('ORD-GOOD', 'AGT', 'GOOD01'), { orderId: 'ORD-BAD' }]));
  const input = preparedInThread(file, IMPORTED_AT);
  await assert.rejects(
    async () => {
      for await (const batch of input.records) assert.fail(`a batch of ${batch.length} before the error`);
    },
    (error: unknown) => {
      assert.ok(error instanceof DocumentError, String(error));
      assert.deepEqual(
        [error.message, error.record, error.field, error.problem, error.orderId],
        ['record 2 (order ORD-BAD): currency is required', 'record 2', 'currency', 'is required', 'ORD-BAD'],
      );
      return true;
    },
  );
});

test("a file that is not there: the thread's error, with its code and its own stack", async () => {
  const missing = path.join(dir, 'missing.json');
  await assert.rejects(
    async () => {
      for await (const batch of preparedInThread(missing, IMPORTED_AT).records) assert.fail(String(batch.length));
    },
    (error: Error & { code?: string }) => {
      const message = `ENOENT: no such file or directory, open '${missing}'`;
      assert.deepEqual([error.message, error.code, error.stack], [message, 'ENOENT', `Error: ${message}`]);
      return true;
    },
  );
});

test('3,000 orders come whole in six batches: the thread waits for each batch to be taken, and goes on when it is', async () => {
  const input = preparedInThread(written('six.json', JSON.stringify(orders(3000))), IMPORTED_AT);
  const sizes: number[] = [];
  for await (const batch of input.records) sizes.push(batch.length);
  assert.deepEqual(sizes, [500, 500, 500, 500, 500, 500]);
});

test('a reader that stops after the first batch ends the thread: nothing keeps the process alive', async () => {
  const file = written('many.json', JSON.stringify(orders(3000)));
  const input = preparedInThread(file, IMPORTED_AT);
  let taken = 0;
  for await (const batch of input.records) {
    taken += batch.length;
    break;
  }
  assert.equal(taken, 500);
  assert.ok(input.bytesRead() < fs.statSync(file).size);
});

test('a reader that takes its time between batches gets them all: the batches that come meanwhile wait', async () => {
  const input = preparedInThread(written('slow.json', JSON.stringify(orders(1500))), IMPORTED_AT);
  const sizes: number[] = [];
  for await (const batch of input.records) {
    sizes.push(batch.length);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual(sizes, [500, 500, 500]);
});

test('the thread reads no further than four batches ahead of a reader that stops taking them, and goes on when it takes them', async () => {
  // Through a pipe, whose writer can put in only what the thread has read (and the pipe holds).
  const fifo = path.join(dir, 'orders.fifo');
  execFileSync('mkfifo', [fifo]);
  const text = JSON.stringify(orders(10_000));
  const batchBytes = text.length / 20; // every order is written the same length
  const input = preparedInThread(fifo, IMPORTED_AT);
  const batches = input.records[Symbol.asyncIterator]();
  const writer = fs.createWriteStream(fifo);
  let written = 0;
  const writing = (async () => {
    for (let at = 0; at < text.length; at += 16_384) {
      const piece = text.slice(at, at + 16_384);
      await new Promise<void>((resolve, reject) => writer.write(piece, (error) => (error ? reject(error) : resolve())));
      written += piece.length;
    }
    await new Promise<void>((resolve) => writer.end(resolve));
  })();
  try {
    const first = await batches.next();
    assert.equal(first.done ? 0 : first.value.length, 500);
    // The reader holds on to its first batch: wait until the thread stops reading.
    const deadline = Date.now() + scaled(30_000);
    for (let last = -1, still = 0; still < 10 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      still = written === last ? still + 1 : 0;
      last = written;
    }
    // Four batches posted, the fifth begun; besides, the thread's read buffer and the pipe's (64 KiB each).
    assert.ok(written >= 4 * batchBytes, `${written} bytes read, ${batchBytes} a batch`);
    assert.ok(written < 5 * batchBytes, `${written} bytes read, ${batchBytes} a batch`);
    let taken = 1;
    for (let next = await batches.next(); !next.done; next = await batches.next()) taken += 1;
    assert.equal(taken, 20);
    await writing;
  } finally {
    // A failed check leaves the thread and the writer mid-way: ending the thread closes the pipe's
    // reading end, and the writer stops (EPIPE), so that the file ends either way.
    await batches.return?.(undefined);
    await writing.catch(() => undefined);
  }
});

/** What the batches end with when the thread is the fixture's program instead of the preparer. */
async function endOfBatchesWith(program: string, message: string): Promise<void> {
  const thread = new URL(`../fixtures/preparation-threads/${program}`, import.meta.url);
  const input = preparedInThread(written('any.json', '[]'), IMPORTED_AT, thread);
  await assert.rejects(
    async () => {
      for await (const batch of input.records) assert.fail(String(batch.length));
    },
    { message },
  );
}

test("a thread that fails on its own ends the batches with the thread's error", () =>
  endOfBatchesWith('throws-at-start.mjs', 'the thread broke as it started'));

test('a thread that stops without a word ends the batches with its exit code', () =>
  endOfBatchesWith('exits.mjs', 'the import thread stopped (exit code 3)'));
