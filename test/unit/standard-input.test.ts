/** Secrets read from standard input (src/cli/standard-input.ts): the whole of it, as UTF-8 text, whatever its chunks. */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { readStandardInput } from '../../src/cli/standard-input.js';

/** Runs `work` with process.stdin replaced by a stream of `chunks`. */
async function withStdin<T>(chunks: Buffer[], work: () => Promise<T>): Promise<T> {
  const original = Object.getOwnPropertyDescriptor(process, 'stdin')!;
  const stdin = Readable.from(chunks, { objectMode: false });
  Object.defineProperty(process, 'stdin', { configurable: true, get: () => stdin });
  try {
    return await work();
  } finally {
    Object.defineProperty(process, 'stdin', original);
  }
}

test('every chunk, in order, joined before decoding: a character split between two chunks is whole', async () => {
  const text = 'correct horse é battery 🐎\n';
  const bytes = Buffer.from(text, 'utf8');
  const cut = bytes.indexOf(Buffer.from('é')) + 1; // inside the two bytes of é
  const read = await withStdin([bytes.subarray(0, 3), bytes.subarray(3, cut), bytes.subarray(cut)], readStandardInput);
  assert.equal(read, text);
});

test('empty standard input is the empty string', async () => {
  assert.equal(await withStdin([], readStandardInput), '');
});
