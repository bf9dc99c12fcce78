/**
 * How `npm run mutate` cuts an area into chunks (scripts/mutation-chunks.ts; docs/testing.md,
 * "Running it in parts"), on the project's own files: every file once, packed in name order up to
 * the size, a file of the size or more alone, and the files named `alone` last, each on its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunksOf, filesOf } from '../../scripts/mutation-chunks.js';

const PATTERNS = ['src/cli/**/*.ts', 'src/runtime/**/*.ts'];

test('every file with mutants is in one chunk, in name order, and no packed chunk passes the size', async () => {
  const chunks = await chunksOf('try', PATTERNS, 150);
  const files = chunks.flatMap((chunk) => chunk.files);
  assert.deepEqual(files, [...new Set(files)], 'no file twice');
  assert.deepEqual(
    files,
    filesOf(PATTERNS).filter((file) => files.includes(file)),
    'name order',
  );
  // Only files that hold types alone have no mutants, and there are few of them.
  assert.ok(files.length >= filesOf(PATTERNS).length - 2, `${files.length} of ${filesOf(PATTERNS).length}`);
  for (const chunk of chunks) {
    if (chunk.files.length > 1) assert.ok(chunk.mutants <= 150, `${chunk.id}: ${chunk.mutants}`);
    else assert.ok(chunk.mutants > 0);
    assert.equal(chunk.id, `try/${chunk.files[0]!.replaceAll('/', '-')}`);
  }
  // Packing is greedy: a chunk and the first file of the next would not have fitted together.
  for (let index = 1; index < chunks.length; index++) {
    const [previous, next] = [chunks[index - 1]!, chunks[index]!];
    if (previous.files.length > 1 || next.files.length > 1) {
      const firstOfNext = await chunksOf('try', [next.files[0]!], 150);
      assert.ok(previous.mutants + firstOfNext[0]!.mutants > 150, `${previous.id} could have taken ${next.files[0]}`);
    }
  }
});

test('a file named alone is a chunk of its own, after all the others', async () => {
  const alone = ['src/cli/main.ts', 'src/cli/serve.ts'];
  const chunks = await chunksOf('try', PATTERNS, 150, alone);
  assert.deepEqual(
    chunks.slice(-2).map((chunk) => chunk.files),
    alone.map((file) => [file]),
  );
  for (const chunk of chunks.slice(0, -2)) for (const file of alone) assert.ok(!chunk.files.includes(file));
  const without = await chunksOf('try', PATTERNS, 150);
  assert.equal(
    chunks.reduce((sum, chunk) => sum + chunk.mutants, 0),
    without.reduce((sum, chunk) => sum + chunk.mutants, 0),
    'the same mutants in all',
  );
});

test('a file of at least the size is a chunk alone, where it stands', async () => {
  const chunks = await chunksOf('try', ['src/cli/**/*.ts'], 100);
  const main = chunks.find((chunk) => chunk.files.includes('src/cli/main.ts'))!;
  assert.deepEqual(main.files, ['src/cli/main.ts']);
  assert.ok(main.mutants >= 100);
  assert.ok(chunks.indexOf(main) < chunks.length - 1, 'not moved to the end');
});
