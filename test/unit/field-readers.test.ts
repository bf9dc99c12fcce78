import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  amount,
  array,
  bool,
  instant,
  instantTime,
  object,
  oneOf,
  optionalText,
  text,
  unique,
} from '../../src/documents/field-readers.js';
import { child } from '../../src/documents/field-path.js';
import { fieldRefusal } from '../helpers/refusals.js';

/** The readers every document field goes through: what each reads, and what it refuses in which words. */

const ISO_RULE = 'must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z';

test('object: a JSON object is read as it is', () => {
  const value = { a: 1 };
  assert.equal(object(value, 'x'), value);
  assert.deepEqual(object({}, 'x'), {});
});

test('object: null, an array, text, a number or nothing is refused as "must be a JSON object", named by its path', () => {
  for (const value of [null, [], [{}], 'text', 5, true, undefined]) {
    assert.deepEqual(
      fieldRefusal(() => object(value, child('bookings', 0))),
      {
        field: 'bookings[0]',
        problem: 'must be a JSON object',
      },
    );
  }
});

test('object: the record itself (the empty path) is named "the record"', () => {
  assert.deepEqual(
    fieldRefusal(() => object([], '')),
    { field: 'the record', problem: 'must be a JSON object' },
  );
});

test('array: from the least to the most entries is read; one fewer, one more, or not an array is refused', () => {
  assert.deepEqual(array([], 'list', 0, 2), []);
  assert.deepEqual(array(['a', 'b'], 'list', 0, 2), ['a', 'b']);
  assert.deepEqual(array([1, 2], 'list', 2, 3), [1, 2]);
  assert.deepEqual(
    fieldRefusal(() => array([1], 'list', 2, 3)),
    {
      field: 'list',
      problem: 'must have 2 to 3 entries, has 1',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => array([1, 2, 3], 'list', 0, 2)),
    {
      field: 'list',
      problem: 'must have 0 to 2 entries, has 3',
    },
  );
  for (const value of [undefined, null, 'ab', { 0: 'a', length: 1 }]) {
    assert.deepEqual(
      fieldRefusal(() => array(value, 'list', 0, 2)),
      { field: 'list', problem: 'must be an array' },
    );
  }
});

test('text: a string matching the pattern is read as given', () => {
  assert.equal(text('ABC', 'code', /^[A-Z]{3}$/, 'must be three letters'), 'ABC');
});

test('text: missing is "is required", not a string is "must be a string", a mismatch is the rule and what was got', () => {
  const read = (value: unknown) => fieldRefusal(() => text(value, 'code', /^[A-Z]{3}$/, 'must be three letters'));
  assert.deepEqual(read(undefined), { field: 'code', problem: 'is required' });
  for (const value of [null, 123, true, ['ABC'], { code: 'ABC' }]) {
    assert.deepEqual(read(value), { field: 'code', problem: 'must be a string' });
  }
  assert.deepEqual(read('abc'), { field: 'code', problem: 'must be three letters, got "abc"' });
  assert.deepEqual(read(''), { field: 'code', problem: 'must be three letters, got ""' });
  assert.deepEqual(read('A"B'), { field: 'code', problem: 'must be three letters, got "A\\"B"' });
});

test('text: what was got is shown up to its first 80 characters', () => {
  const long = `${'x'.repeat(80)}TAIL`;
  assert.deepEqual(
    fieldRefusal(() => text(long, 'code', /^[A-Z]{3}$/, 'must be three letters')),
    {
      field: 'code',
      problem: `must be three letters, got "${'x'.repeat(80)}"`,
    },
  );
});

test('optionalText: missing or null is null; anything else is read as text is', () => {
  const read = (value: unknown) => optionalText(value, 'changeId', /^[A-Z]+$/, 'must be letters');
  assert.equal(read(undefined), null);
  assert.equal(read(null), null);
  assert.equal(read('ABC'), 'ABC');
  assert.deepEqual(
    fieldRefusal(() => read('a1')),
    { field: 'changeId', problem: 'must be letters, got "a1"' },
  );
  assert.deepEqual(
    fieldRefusal(() => read('')),
    { field: 'changeId', problem: 'must be letters, got ""' },
  );
  assert.deepEqual(
    fieldRefusal(() => read(7)),
    { field: 'changeId', problem: 'must be a string' },
  );
});

test('bool: true and false are read; missing is required; anything else must be true or false', () => {
  assert.equal(bool(true, 'refundable'), true);
  assert.equal(bool(false, 'refundable'), false);
  assert.deepEqual(
    fieldRefusal(() => bool(undefined, 'refundable')),
    { field: 'refundable', problem: 'is required' },
  );
  for (const value of [null, 'true', 0, 1, []]) {
    assert.deepEqual(
      fieldRefusal(() => bool(value, 'refundable')),
      {
        field: 'refundable',
        problem: 'must be true or false',
      },
    );
  }
});

test('oneOf: each allowed value is read; the fallback stands in only for a missing value', () => {
  const allowed = ['ACCEPT', 'CANCEL'] as const;
  assert.equal(oneOf('ACCEPT', 'c', allowed), 'ACCEPT');
  assert.equal(oneOf('CANCEL', 'c', allowed, 'ACCEPT'), 'CANCEL');
  assert.equal(oneOf(undefined, 'c', allowed, 'CANCEL'), 'CANCEL');
  assert.deepEqual(
    fieldRefusal(() => oneOf(null, 'c', allowed, 'CANCEL')),
    {
      field: 'c',
      problem: 'must be one of ACCEPT, CANCEL, got null',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => oneOf('accept', 'c', allowed, 'CANCEL')),
    {
      field: 'c',
      problem: 'must be one of ACCEPT, CANCEL, got "accept"',
    },
  );
});

test('oneOf: without a fallback a missing value is refused; a value not a string is refused with what it was', () => {
  const allowed = ['A', 'B'] as const;
  assert.deepEqual(
    fieldRefusal(() => oneOf(undefined, 'kind', allowed)),
    {
      field: 'kind',
      problem: 'must be one of A, B, got undefined',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => oneOf(['A'], 'kind', allowed)),
    {
      field: 'kind',
      problem: 'must be one of A, B, got ["A"]',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => oneOf('', 'kind', allowed)),
    {
      field: 'kind',
      problem: 'must be one of A, B, got ""',
    },
  );
});

test('instant: every form with a zone is read as given: with or without seconds, 1 to 9 decimals, Z or an offset', () => {
  for (const value of [
    '2026-12-01T10:00Z',
    '2026-12-01T10:00:59Z',
    '2026-12-01T10:00:00.1Z',
    '2026-12-01T10:00:00.123456789Z',
    '2026-12-01T10:00+05:30',
    '2026-12-01T10:00:00-08:00',
    '2026-12-01T10:00:00.5+00:00',
    '0001-01-01T00:00:00Z',
  ]) {
    assert.equal(instant(value, 'at'), value);
  }
});

test('instant: a date-time without a zone, or with anything more, less or else, is refused with the rule', () => {
  for (const value of [
    '2026-12-01T10:00:00',
    '2026-12-01',
    '2026-12-01T10Z',
    '2026-12-01 10:00:00Z',
    '2026-12-01t10:00:00Z',
    '2026-12-01T10:00:00z',
    '2026-12-01T10:00:00.Z',
    '2026-12-01T10:00:00.1234567890Z',
    '2026-12-01T10:00:00+0100',
    '2026-12-01T10:00:00+01',
    '2026-12-01T10:00:00 Z',
    ' 2026-12-01T10:00:00Z',
    '2026-12-01T10:00:00Z ',
    'x2026-12-01T10:00:00Z',
    '2026-12-01T10:00:00Zx',
    '26-12-01T10:00:00Z',
    '02026-12-01T10:00:00Z',
    '2026-1-01T10:00:00Z',
    '2026-12-1T10:00:00Z',
    '2026-12-01T1:00:00Z',
    '2026-12-01T10:0:00Z',
    '2026-12-01T10:00:0Z',
    '2026-12-01T10:00:00+1:00',
    '2026-12-01T10:00:00+01:0',
    '2026-12-01T10:00:00*01:00',
    'aaaa-bb-ccTdd:ee:ffZ',
    '',
  ]) {
    assert.deepEqual(
      fieldRefusal(() => instant(value, 'at')),
      { field: 'at', problem: `${ISO_RULE}, got ${JSON.stringify(value)}` },
      value,
    );
  }
});

test('instant: every day of a month is read, 29 February in a leap year too', () => {
  for (const value of [
    '2026-01-31T10:00:00Z',
    '2026-02-28T10:00:00Z',
    '2024-02-29T10:00:00Z',
    '2000-02-29T10:00:00Z',
    '2026-04-30T10:00:00Z',
    '2026-12-31T23:59:59+14:00',
  ]) {
    assert.equal(instant(value, 'at'), value);
  }
});

test('instant: a well-formed date-time that is no real time is refused as such, a day its month lacks too', () => {
  for (const value of [
    '2026-02-30T10:00:00Z',
    '2026-02-29T10:00:00Z',
    '1900-02-29T10:00:00Z',
    '2026-04-31T10:00:00Z',
    '2026-11-31T10:00:00Z',
    '2026-12-32T10:00:00Z',
    '2026-12-00T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-12-01T24:01:00Z',
    '2026-12-01T10:60:00Z',
  ]) {
    assert.deepEqual(
      fieldRefusal(() => instant(value, 'at')),
      {
        field: 'at',
        problem: `is not a real date-time, got ${JSON.stringify(value)}`,
      },
    );
  }
  assert.deepEqual(
    fieldRefusal(() => instant(undefined, 'at')),
    { field: 'at', problem: 'is required' },
  );
  assert.deepEqual(
    fieldRefusal(() => instant(null, 'at')),
    { field: 'at', problem: 'must be a string' },
  );
});

test('instantTime: the instant in milliseconds since the epoch, the offset taken into account', () => {
  assert.equal(instantTime('2026-12-01T10:00:00Z', 'at'), Date.UTC(2026, 11, 1, 10));
  assert.equal(instantTime('2026-12-01T12:30+02:30', 'at'), Date.UTC(2026, 11, 1, 10));
  assert.equal(instantTime('1970-01-01T00:00:00.001Z', 'at'), 1);
  assert.deepEqual(
    fieldRefusal(() => instantTime('2026-12-01', 'at')),
    {
      field: 'at',
      problem: `${ISO_RULE}, got "2026-12-01"`,
    },
  );
});

test("amount: a decimal with at most the currency's decimals, in minor units, up to the largest amount", () => {
  assert.equal(amount('0', 'a', 'EUR'), 0);
  assert.equal(amount('570.50', 'a', 'EUR'), 57050);
  assert.equal(amount('570.5', 'a', 'EUR'), 57050);
  assert.equal(amount('1200', 'a', 'JPY'), 1200);
  assert.equal(amount('0.125', 'a', 'KWD'), 125);
  assert.equal(amount('9999999999999.99', 'a', 'EUR'), 999_999_999_999_999);
  assert.equal(amount('999999999999999', 'a', 'JPY'), 999_999_999_999_999);
});

test('amount: one minor unit past the largest amount is refused naming the largest, in the currency and in minor units', () => {
  assert.deepEqual(
    fieldRefusal(() => amount('10000000000000.00', 'baseFare', 'EUR')),
    {
      field: 'baseFare',
      problem: 'must be at most 9999999999999.99 EUR (999999999999999 minor units), got "10000000000000.00"',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => amount('1000000000000000', 'baseFare', 'JPY')),
    {
      field: 'baseFare',
      problem: 'must be at most 999999999999999 JPY (999999999999999 minor units), got "1000000000000000"',
    },
  );
  const huge = '9'.repeat(100);
  assert.deepEqual(
    fieldRefusal(() => amount(huge, 'baseFare', 'EUR')),
    {
      field: 'baseFare',
      problem: `must be at most 9999999999999.99 EUR (999999999999999 minor units), got "${'9'.repeat(80)}"`,
    },
  );
});

test('amount: too many decimals, a sign, an exponent or no digits is refused as not a decimal of the currency', () => {
  for (const [value, currency] of [
    ['1.001', 'EUR'],
    ['1.5', 'JPY'],
    ['-1', 'EUR'],
    ['+1', 'EUR'],
    ['1e3', 'EUR'],
    ['1.', 'EUR'],
    ['.5', 'EUR'],
    [' 1', 'EUR'],
    ['', 'EUR'],
    ['99999999999999999999.999', 'EUR'],
  ] as const) {
    assert.deepEqual(
      fieldRefusal(() => amount(value, 'taxes', currency)),
      {
        field: 'taxes',
        problem: `must be a non-negative decimal with at most the decimals of ${currency}, got ${JSON.stringify(value)}`,
      },
    );
  }
  const long = `1.${'0'.repeat(100)}`;
  assert.deepEqual(
    fieldRefusal(() => amount(long, 'taxes', 'EUR')),
    {
      field: 'taxes',
      problem: `must be a non-negative decimal with at most the decimals of EUR, got ${JSON.stringify(long.slice(0, 80))}`,
    },
  );
});

test('amount: a number, or no value, is refused: amounts are decimal strings', () => {
  for (const value of [450, undefined, null, ['1.00']]) {
    assert.deepEqual(
      fieldRefusal(() => amount(value, 'taxes', 'EUR')),
      {
        field: 'taxes',
        problem: 'must be a decimal string such as "450.00"',
      },
    );
  }
});

test('unique: distinct values pass; a repeat is named at its own index, with what repeats', () => {
  unique([], 'segments', 'segmentId');
  unique(['S1', 'S2', 's1'], 'segments', 'segmentId');
  assert.deepEqual(
    fieldRefusal(() => unique(['S1', 'S1'], 'segments', 'segmentId')),
    {
      field: 'segments[1]',
      problem: 'repeats the segmentId S1',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => unique(['A', 'B', 'C', 'B', 'A'], child('bookings', 2), 'passengerId')),
    {
      field: 'bookings[2][3]',
      problem: 'repeats the passengerId B',
    },
  );
});
