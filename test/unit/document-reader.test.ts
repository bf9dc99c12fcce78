import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentError, FieldError } from '../../src/documents/document-error.js';
import { readableOrderId, readEach, readRecords } from '../../src/documents/document-reader.js';
import { documentRefusal, parseMessage } from '../helpers/refusals.js';

/**
 * Records read from a whole text (the demo and the tests' imports): a JSON array, one document or
 * NDJSON, each named as an error names it, and the first problem named by its line.
 */

test('no text, or only white space, is no record', () => {
  assert.deepEqual(readRecords(''), []);
  assert.deepEqual(readRecords(' \n\t\r\n '), []);
  assert.deepEqual(readRecords('[]'), []);
});

test('a JSON array is one record per element, "record N" from 1', () => {
  assert.deepEqual(readRecords(' [{"a":1},\n 2, "x"] \n'), [
    { label: 'record 1', value: { a: 1 } },
    { label: 'record 2', value: 2 },
    { label: 'record 3', value: 'x' },
  ]);
});

test('one JSON document, on one line or pretty-printed, is "record 1"', () => {
  assert.deepEqual(readRecords('  {"a":1}  '), [{ label: 'record 1', value: { a: 1 } }]);
  assert.deepEqual(readRecords('{\n  "a": [\n    1\n  ]\n}\n'), [{ label: 'record 1', value: { a: [1] } }]);
  assert.deepEqual(readRecords('5'), [{ label: 'record 1', value: 5 }]);
});

test('NDJSON is one record per non-blank line, "line N" by its line in the text', () => {
  assert.deepEqual(readRecords(' \t\n{"a":1}\n\n{"a":2}\r\n  \t\n{"a":3}\n'), [
    { label: 'line 2', value: { a: 1 } },
    { label: 'line 4', value: { a: 2 } },
    { label: 'line 6', value: { a: 3 } },
  ]);
  assert.deepEqual(readRecords('1\n[2]'), [
    { label: 'line 1', value: 1 },
    { label: 'line 2', value: [2] },
  ]);
});

test('a line of NDJSON that is no JSON is named by its line, with what JSON.parse says of it', () => {
  assert.equal(
    documentRefusal(() => readRecords('{"a":1}\n\n{"a":}\n{"a":3}')),
    `line 3: is not valid JSON: ${parseMessage('{"a":}')}`,
  );
});

test('a broken JSON array is named by the line and column where it breaks, and what is there', () => {
  assert.equal(
    documentRefusal(() => readRecords('[\n  {"a":1},\n]')),
    'line 3: is not valid JSON: unexpected "]" at column 1',
  );
  assert.equal(
    documentRefusal(() => readRecords('\n\n  [1,')),
    'line 3: is not valid JSON: unexpected the end of the input at column 6',
  );
  assert.equal(
    documentRefusal(() => readRecords('[{"a":1}]\n[{"a":2}]')),
    'line 2: is not valid JSON: unexpected "[" at column 1',
  );
});

test('a broken pretty-printed document is named by where it breaks, not read as NDJSON', () => {
  assert.equal(
    documentRefusal(() => readRecords('{\n  "a": 1,\n}')),
    'line 3: is not valid JSON: unexpected "}" at column 1',
  );
  assert.equal(
    documentRefusal(() => readRecords('\n\n{\n  "a" 1\n}')),
    'line 4: is not valid JSON: unexpected "1" at column 7',
  );
});

test('a broken text too deeply nested to locate names the file, with the first line of what JSON.parse says', () => {
  const text = `${'['.repeat(200_000)}\n}`;
  const message = documentRefusal(() => readRecords(text));
  assert.equal(message, `the file: is not valid JSON: ${parseMessage(text).split('\n')[0]}`);
  assert.ok(!message.includes('\n'), message);
});

test('readEach reads every record in order', () => {
  assert.deepEqual(
    readEach(
      [
        { label: 'record 1', value: 1 },
        { label: 'record 2', value: 2 },
      ],
      (value) => (value as number) * 10,
    ),
    [10, 20],
  );
});

test('readEach names the record, its order when readable, and the field of the first refusal', () => {
  const refuse = () => {
    throw new FieldError('bookings', 'is required');
  };
  let error: unknown;
  try {
    readEach(
      [
        { label: 'line 1', value: { orderId: 'ORD-1' } },
        { label: 'line 2', value: { orderId: 'ORD-2' } },
      ],
      (value) => ((value as { orderId: string }).orderId === 'ORD-2' ? refuse() : value),
    );
  } catch (caught) {
    error = caught;
  }
  assert.ok(error instanceof DocumentError);
  assert.equal(error.message, 'line 2 (order ORD-2): bookings is required');
  assert.deepEqual(
    [error.record, error.field, error.problem, error.orderId],
    ['line 2', 'bookings', 'is required', 'ORD-2'],
  );
  assert.equal(
    documentRefusal(() => readEach([{ label: 'record 4', value: { orderId: 'no such id!' } }], refuse)),
    'record 4: bookings is required',
  );
});

test('readEach lets any other error through as it is', () => {
  const failure = new RangeError('Amount overflow');
  assert.throws(
    () =>
      readEach([{ label: 'record 1', value: {} }], () => {
        throw failure;
      }),
    (error) => error === failure,
  );
});

test('readableOrderId: the orderId of an object when it is a valid one, else null', () => {
  assert.equal(readableOrderId({ orderId: 'ORD-1001' }), 'ORD-1001');
  assert.equal(readableOrderId({ orderId: 'O'.repeat(64) }), 'O'.repeat(64));
  for (const value of [
    null,
    undefined,
    'ORD-1001',
    ['ORD-1001'],
    [{ orderId: 'ORD-1001' }],
    {},
    { orderId: 1001 },
    { orderId: '' },
    { orderId: 'ORD 1001' },
    { orderId: 'O'.repeat(65) },
  ]) {
    assert.equal(readableOrderId(value), null, JSON.stringify(value));
  }
});
