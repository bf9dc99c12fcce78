import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonRecords } from '../../src/documents/json-records.js';
import { parseRecords, recordValues } from '../helpers/parsed-records.js';

/**
 * JSON text parsed chunk by chunk into records (the elements of an array, or the one document):
 * each record as soon as it is complete, the first error named by its line and column. The bounds
 * of a record are in json-record-bounds.test.ts.
 */

test('elements: each element of the array is a record, "record N" from 1, whatever the chunks', () => {
  const text = '[{"a":1}, 2, "x", [true, null], {"b": {"c": -1.5e2}}]';
  const expected = [
    { label: 'record 1', value: { a: 1 } },
    { label: 'record 2', value: 2 },
    { label: 'record 3', value: 'x' },
    { label: 'record 4', value: [true, null] },
    { label: 'record 5', value: { b: { c: -150 } } },
  ];
  assert.deepEqual(parseRecords('elements', [text]), { records: expected, error: null });
  assert.deepEqual(parseRecords('elements', [...text]), { records: expected, error: null });
  assert.deepEqual(parseRecords('elements', ['[]']), { records: [], error: null });
});

test('whole: the one top-level value is the one record, white space around it allowed', () => {
  assert.deepEqual(parseRecords('whole', [' \n{"a":', '[1,2]}\n \t']), {
    records: [{ label: 'record 1', value: { a: [1, 2] } }],
    error: null,
  });
  assert.deepEqual(recordValues(parseRecords('whole', ['12'])), [12]);
  assert.deepEqual(recordValues(parseRecords('whole', ['"x"'])), ['x']);
});

test('a key named __proto__ is kept as an own key, as JSON.parse keeps it', () => {
  const [value] = recordValues(parseRecords('whole', ['{"__proto__": {"polluted": 1}}'])) as [Record<string, unknown>];
  assert.deepEqual(Object.keys(value), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('records are handed on as their chunk is read, each once', () => {
  const parser = new JsonRecords('elements', (n) => `record ${n}`);
  parser.write(Buffer.from('[{"a":1}, {"a"'));
  assert.deepEqual([...parser.take()], [{ label: 'record 1', value: { a: 1 } }]);
  assert.deepEqual([...parser.take()], []);
  assert.equal(parser.records, 1);
  parser.write(Buffer.from(':2}]'));
  parser.end();
  assert.deepEqual([...parser.take()], [{ label: 'record 2', value: { a: 2 } }]);
  assert.equal(parser.records, 2);
});

test('the records complete before a syntax error are handed on first, then the error', () => {
  assert.deepEqual(parseRecords('elements', ['[1,\n2,\n]']), {
    records: [
      { label: 'record 1', value: 1 },
      { label: 'record 2', value: 2 },
    ],
    error: 'line 3: is not valid JSON: unexpected "]" at column 1',
  });
});

test('a character the tokenizer refuses is named by its line and column, in whichever chunk it falls', () => {
  assert.equal(parseRecords('elements', ['[1,2x]']).error, 'line 1: is not valid JSON: unexpected "x" at column 5');
  assert.equal(
    parseRecords('elements', ['[1,\n', '  2,\n  @]']).error,
    'line 3: is not valid JSON: unexpected "@" at column 3',
  );
  assert.equal(
    parseRecords('whole', ['{"a":\n', '\n', ' tru', 'x}']).error,
    'line 3: is not valid JSON: unexpected "x" at column 5',
  );
});

test('a token out of place is named where the token starts', () => {
  assert.equal(parseRecords('elements', ['[1 2]']).error, 'line 1: is not valid JSON: unexpected "2" at column 4');
  assert.equal(parseRecords('whole', ['{"a" 1}']).error, 'line 1: is not valid JSON: unexpected "1" at column 6');
  assert.equal(parseRecords('whole', ['{1:2}']).error, 'line 1: is not valid JSON: unexpected "1" at column 2');
  // The string starts in the first chunk and ends in the third: it is named where it starts.
  assert.equal(
    parseRecords('whole', ['[1,\n2 "lo', 'n', 'g"]']).error,
    'line 2: is not valid JSON: unexpected "\\"" at column 3',
  );
});

test('anything but white space after the one document is an error where it starts, the document handed on first', () => {
  assert.deepEqual(parseRecords('whole', ['{"a":1} {}']), {
    records: [{ label: 'record 1', value: { a: 1 } }],
    error: 'line 1: is not valid JSON: unexpected "{" at column 9',
  });
  assert.equal(
    parseRecords('whole', ['{"a":1}', '\n\n  x']).error,
    'line 3: is not valid JSON: unexpected "x" at column 3',
  );
  assert.equal(parseRecords('whole', ['{"a":1} 5']).error, 'line 1: is not valid JSON: unexpected "5" at column 9');
  assert.equal(parseRecords('whole', ['[1] "s"']).error, 'line 1: is not valid JSON: unexpected "\\"" at column 5');
});

test('input that ends too soon is an error at its end', () => {
  const end = (line: number, column: number) =>
    `line ${line}: is not valid JSON: unexpected the end of the input at column ${column}`;
  assert.equal(parseRecords('whole', ['']).error, end(1, 1));
  assert.equal(parseRecords('whole', [' \n ']).error, end(2, 2));
  assert.equal(parseRecords('whole', ['"abc']).error, end(1, 5));
  assert.equal(parseRecords('whole', ['{"a":1']).error, end(1, 7));
  assert.equal(parseRecords('whole', ['tru']).error, end(1, 4));
  assert.equal(parseRecords('elements', ['[1,\n', '2,\n']).error, end(3, 1));
  assert.equal(parseRecords('elements', ['[{"a":"é😀']).error, end(1, 11));
});

test("lines are counted from the first line given: a line of NDJSON is its file's line N", () => {
  assert.equal(parseRecords('whole', ['[1,\n x]'], 7).error, 'line 8: is not valid JSON: unexpected "x" at column 2');
  assert.equal(
    parseRecords('whole', ['{"a":1', ''], 41).error,
    'line 41: is not valid JSON: unexpected the end of the input at column 7',
  );
  assert.equal(parseRecords('whole', ['"\\q"'], 3).error, 'line 3: is not valid JSON: unexpected "q" at column 3');
});

test('after an error, more input and its end change nothing: the first error stands', () => {
  assert.deepEqual(parseRecords('elements', ['[1,x', ']', ' {"a":1}']), {
    records: [{ label: 'record 1', value: 1 }],
    error: 'line 1: is not valid JSON: unexpected "x" at column 4',
  });
  const parser = new JsonRecords('elements', (n) => `record ${n}`);
  parser.write(Buffer.from('[1,x'));
  parser.write(Buffer.from('yz'));
  parser.end();
  assert.throws(() => [...parser.take()], { message: 'line 1: is not valid JSON: unexpected "x" at column 4' });
  assert.throws(() => [...parser.take()], { message: 'line 1: is not valid JSON: unexpected "x" at column 4' });
});

test('a byte order mark before the first value is refused where it stands, after white space or in a later chunk too', () => {
  const mark = 'line 2: is not valid JSON: unexpected "\\ufeff" at column 3';
  assert.deepEqual(parseRecords('whole', ['\n  \uFEFF{"a":1}']), { records: [], error: mark });
  assert.deepEqual(parseRecords('elements', ['\n', '  ', '\uFEFF[1]\n']), { records: [], error: mark });
  assert.equal(parseRecords('whole', ['\uFEFF1']).error, 'line 1: is not valid JSON: unexpected "\\ufeff" at column 1');
  assert.equal(parseRecords('whole', [' \uFF02a"']).error, 'line 1: is not valid JSON: unexpected "＂" at column 2');
});

test('after the first value, characters whose first byte is that of a byte order mark are read as any other', () => {
  // U+FF02 is EF BC 82, U+FFE5 EF BF A5; each starts a chunk after the first value.
  assert.deepEqual(parseRecords('elements', ['["', '\uFF02", "', '\uFFE5"]']), {
    records: [
      { label: 'record 1', value: '\uFF02' },
      { label: 'record 2', value: '\uFFE5' },
    ],
    error: null,
  });
});

test('a byte order mark after the first value is refused where it stands, as any other character', () => {
  assert.equal(
    parseRecords('elements', ['[1,\uFEFF2]']).error,
    'line 1: is not valid JSON: unexpected "\\ufeff" at column 4',
  );
  assert.deepEqual(parseRecords('elements', ['[1,', '\n\uFEFF']), {
    records: [{ label: 'record 1', value: 1 }],
    error: 'line 2: is not valid JSON: unexpected "\\ufeff" at column 1',
  });
});
