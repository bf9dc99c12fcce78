import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextPosition } from '../../src/documents/text-position.js';

/** The line and column of a byte of UTF-8 input read chunk by chunk, columns in UTF-16 units as JSON.parse counts. */

const END = 'the end of the input';

function fed(...chunks: string[]): TextPosition {
  const position = new TextPosition();
  for (const chunk of chunks) position.feed(Buffer.from(chunk));
  return position;
}

test('in one chunk: the line from 1, the column from 1, and the character there, quoted', () => {
  const position = fed('ab\ncd\n\nef');
  assert.deepEqual(position.at(0), { line: 1, column: 1, found: '"a"' });
  assert.deepEqual(position.at(1), { line: 1, column: 2, found: '"b"' });
  assert.deepEqual(position.at(2), { line: 1, column: 3, found: '"\\n"' });
  assert.deepEqual(position.at(3), { line: 2, column: 1, found: '"c"' });
  assert.deepEqual(position.at(4), { line: 2, column: 2, found: '"d"' });
  assert.deepEqual(position.at(6), { line: 3, column: 1, found: '"\\n"' });
  assert.deepEqual(position.at(7), { line: 4, column: 1, found: '"e"' });
  assert.deepEqual(position.at(8), { line: 4, column: 2, found: '"f"' });
});

test('at or past the last byte fed is the end of the input, just after the last character', () => {
  const position = fed('ab\ncd');
  assert.deepEqual(position.at(5), { line: 2, column: 3, found: END });
  assert.deepEqual(position.at(99), { line: 2, column: 3, found: END });
  assert.deepEqual(position.end(), { line: 2, column: 3, found: END });
  assert.deepEqual(fed('ab\n').end(), { line: 2, column: 1, found: END });
  assert.deepEqual(fed('a\n\n').end(), { line: 3, column: 1, found: END });
  assert.deepEqual(new TextPosition().end(), { line: 1, column: 1, found: END });
  assert.deepEqual(new TextPosition().at(0), { line: 1, column: 1, found: END });
});

test('across chunks: lines and columns carry over from the chunks before', () => {
  const position = fed('ab', 'c\nd', 'ef', '\n', 'g');
  assert.deepEqual(position.at(2), { line: 1, column: 3, found: '"c"' });
  assert.deepEqual(position.at(3), { line: 1, column: 4, found: '"\\n"' });
  assert.deepEqual(position.at(4), { line: 2, column: 1, found: '"d"' });
  assert.deepEqual(position.at(5), { line: 2, column: 2, found: '"e"' });
  assert.deepEqual(position.at(6), { line: 2, column: 3, found: '"f"' });
  assert.deepEqual(position.at(8), { line: 3, column: 1, found: '"g"' });
  assert.deepEqual(position.end(), { line: 3, column: 2, found: END });
  assert.equal(position.bytesRead, 9);
});

test('a chunk of several lines: the column after its last line break counts from there', () => {
  const position = fed('a\nbc\nde', 'f\ng');
  assert.deepEqual(position.at(7), { line: 3, column: 3, found: '"f"' });
  assert.deepEqual(position.at(9), { line: 4, column: 1, found: '"g"' });
  assert.deepEqual(position.end(), { line: 4, column: 2, found: END });
});

test('columns count UTF-16 units: one for a character of two or three bytes, two for one of four', () => {
  const position = fed('é€😀x\n😀y');
  // é is 2 bytes, € 3, 😀 4 (a surrogate pair: two columns).
  assert.deepEqual(position.at(0), { line: 1, column: 1, found: '"é"' });
  assert.deepEqual(position.at(2), { line: 1, column: 2, found: '"€"' });
  assert.deepEqual(position.at(5), { line: 1, column: 3, found: '"😀"' });
  assert.deepEqual(position.at(9), { line: 1, column: 5, found: '"x"' });
  assert.deepEqual(position.at(15), { line: 2, column: 3, found: '"y"' });
  assert.deepEqual(position.end(), { line: 2, column: 4, found: END });
  assert.deepEqual(fed('é€😀').end(), { line: 1, column: 5, found: END });
  assert.deepEqual(fed('é', '€', '😀', 'x').at(9), { line: 1, column: 5, found: '"x"' });
  assert.deepEqual(fed('\u{10000}x').end(), { line: 1, column: 4, found: END });
});

test('a character whose bytes fall in two chunks is counted once', () => {
  const bytes = Buffer.from('a😀b');
  const position = new TextPosition();
  position.feed(bytes.subarray(0, 3));
  position.feed(bytes.subarray(3));
  assert.deepEqual(position.at(5), { line: 1, column: 4, found: '"b"' });
  assert.deepEqual(position.end(), { line: 1, column: 5, found: END });
});

test('release lets go the chunks wholly before the offset, never the last one', () => {
  const position = fed('abc', 'def', 'ghi');
  position.release(3);
  // The first chunk is gone: a byte in it is answered with the first byte kept.
  assert.deepEqual(position.at(1), { line: 1, column: 4, found: '"d"' });
  assert.deepEqual(position.at(4), { line: 1, column: 5, found: '"e"' });
  position.release(5);
  assert.deepEqual(position.at(4), { line: 1, column: 5, found: '"e"' });
  position.release(9);
  assert.deepEqual(position.at(7), { line: 1, column: 8, found: '"h"' });
  assert.deepEqual(position.at(0), { line: 1, column: 7, found: '"g"' });
  assert.equal(position.bytesRead, 9);
});

test('a chunk that ends where the offset is, is let go; one that reaches past it is kept', () => {
  const position = fed('abc', 'def');
  position.release(2);
  assert.deepEqual(position.at(1), { line: 1, column: 2, found: '"b"' });
  const single = fed('abc');
  single.release(3);
  assert.deepEqual(single.at(2), { line: 1, column: 3, found: '"c"' });
});

test('a character that shows as nothing is named by its code: a byte order mark, a zero-width space, a tag, a soft hyphen', () => {
  const position = fed('a\uFEFF\u200B\u{E0001}"é');
  assert.deepEqual(position.at(1), { line: 1, column: 2, found: '"\\ufeff"' });
  assert.deepEqual(position.at(4), { line: 1, column: 3, found: '"\\u200b"' });
  assert.deepEqual(position.at(7), { line: 1, column: 4, found: '"\\udb40\\udc01"' });
  assert.deepEqual(position.at(11), { line: 1, column: 6, found: '"\\""' });
  assert.deepEqual(position.at(12), { line: 1, column: 7, found: '"é"' });
  assert.deepEqual(fed('\u00AD').at(0), { line: 1, column: 1, found: '"\\u00ad"' });
});
