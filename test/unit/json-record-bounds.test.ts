import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RECORD_BYTES_LIMIT, RECORD_VALUES_LIMIT } from '../../src/documents/json-records.js';
import { parseRecords, recordValues } from '../helpers/parsed-records.js';

/**
 * The bounds of one record parsed chunk by chunk (json-records.ts): 16 MiB in progress and 500,000
 * values, each at the bound and one past it, counted per record. Apart from json-records.test.ts
 * because each takes a second or so.
 */

const TOO_LARGE =
  'is larger than 16 MiB, the most one record may take; split it, or check that the file is what you meant to import';
const TOO_MANY =
  'holds more than 500,000 values, the most one record may hold; check that the file is what you meant to import';

test('a record may hold 500,000 values, keys and the array that holds it included; one more is refused, named', () => {
  assert.equal(RECORD_VALUES_LIMIT, 500_000);
  // The document: its brackets and 499,999 numbers.
  const atLimit = `[${'0,'.repeat(RECORD_VALUES_LIMIT - 2)}0]`;
  assert.equal((recordValues(parseRecords('whole', [atLimit]))[0] as number[]).length, RECORD_VALUES_LIMIT - 1);
  assert.deepEqual(parseRecords('whole', [`[0,${atLimit.slice(1)}`]), { records: [], error: `record 1: ${TOO_MANY}` });
  // Keys count: {"k":[…]} is a brace, a key, a bracket and its numbers.
  const keyed = `{"k":[${'0,'.repeat(RECORD_VALUES_LIMIT - 4)}0]}`;
  assert.equal(parseRecords('whole', [keyed]).error, null);
  assert.equal(parseRecords('whole', [keyed.replace('[', '[0,')]).error, `record 1: ${TOO_MANY}`);
});

test('each element is counted on its own: the bound is per record, named by the record that passes it', () => {
  // Record 2 holds its bracket and 499,999 numbers, after a record of 400,000 values.
  const big = `[${'0,'.repeat(RECORD_VALUES_LIMIT - 2)}0]`;
  const before = `[${'0,'.repeat(399_998)}0]`;
  const read = parseRecords('elements', [`[${before},${big}]`]);
  assert.equal(read.error, null);
  assert.equal(read.records.length, 2);
  assert.deepEqual(parseRecords('elements', [`[${before},[0,${big.slice(1)}]`]), {
    records: [{ label: 'record 1', value: new Array(399_999).fill(0) }],
    error: `record 2: ${TOO_MANY}`,
  });
});

test('a record in progress may take 16 MiB; a byte more is refused, named, before the record is complete', () => {
  assert.equal(RECORD_BYTES_LIMIT, 16 * 1024 * 1024);
  const string = (length: number) => Buffer.alloc(length, 'a');
  const atLimit = parseRecords('whole', [Buffer.from('"'), string(RECORD_BYTES_LIMIT - 1), Buffer.from('"')]);
  assert.equal(atLimit.error, null);
  assert.equal((atLimit.records[0]!.value as string).length, RECORD_BYTES_LIMIT - 1);
  assert.deepEqual(parseRecords('whole', [Buffer.from('"'), string(RECORD_BYTES_LIMIT), Buffer.from('"')]), {
    records: [],
    error: `record 1: ${TOO_LARGE}`,
  });
});

test("a record's bytes count from the end of the record before it", () => {
  const string = (length: number) => Buffer.alloc(length, 'a');
  // Record 2 takes the separator after record 1, its opening quote and its characters: 16 MiB in all.
  const fits = parseRecords('elements', [Buffer.from('[{"a":1},"'), string(RECORD_BYTES_LIMIT - 2), Buffer.from('"]')]);
  assert.equal(fits.error, null);
  assert.equal(fits.records.length, 2);
  assert.deepEqual(
    parseRecords('elements', [Buffer.from('[{"a":1},"'), string(RECORD_BYTES_LIMIT - 1), Buffer.from('"]')]),
    {
      records: [{ label: 'record 1', value: { a: 1 } }],
      error: `record 2: ${TOO_LARGE}`,
    },
  );
});
