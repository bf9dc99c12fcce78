/** `serve --workers` (src/cli/workers-option.ts): 1 to 999, or `auto` for one per core; anything else refused. */
import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { parseWorkers } from '../../src/cli/workers-option.js';

test('a number from 1 to 999 is that many workers', () => {
  for (const [text, count] of [
    ['1', 1],
    ['2', 2],
    ['9', 9],
    ['10', 10],
    ['99', 99],
    ['100', 100],
    ['999', 999],
  ] as const)
    assert.equal(parseWorkers(text), count, text);
});

test('auto is one per core', () => {
  assert.equal(parseWorkers('auto'), os.availableParallelism());
});

test('anything else is refused: 0, 1000, a sign, a leading zero, spaces, decimals, words', () => {
  for (const text of [
    '',
    '0',
    '00',
    '01',
    '1000',
    '9999',
    '-1',
    '+1',
    ' 1',
    '1 ',
    '1.0',
    '1e2',
    'a',
    'AUTO',
    'auto ',
    'x1',
    '1x',
  ])
    assert.equal(parseWorkers(text), null, JSON.stringify(text));
});
