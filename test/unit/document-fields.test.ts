import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFareRules, readTaxBreakdown } from '../../src/documents/fare-readers.js';
import { amount, array, instant, oneOf, text, unique } from '../../src/documents/field-readers.js';
import { fieldRefusal } from '../helpers/refusals.js';

/**
 * The readers of document fields (src/documents), each at its bounds and with malformed values: what
 * is read, and for what is refused, the field it names and the words it uses.
 */
const PATH = 'ticket.fareRules';

const percent = (value: unknown) => readFareRules({ refundable: true, penaltyPercent: value }, PATH, 'EUR');

test('penaltyPercent is read as hundredths of a percent, from 0 to 100, as text or a number', () => {
  assert.deepEqual(
    ['0', '0.01', '0.5', '12.5', '35', '99.99', '100', '100.00', 0, 35, 12.5, 100].map(
      (value) => percent(value).penaltyBasisPoints,
    ),
    [0, 1, 50, 1250, 3500, 9999, 10000, 10000, 0, 3500, 1250, 10000],
  );
});

test('a penaltyPercent out of 0 to 100, with three decimals, or not a decimal at all is refused, never read as NaN', () => {
  for (const value of [
    '100.01',
    '101',
    '999',
    '0.001',
    '',
    'abc',
    '1e2',
    '-1',
    '.5',
    '12.',
    ' 12',
    '12,5',
    '0x10',
    'NaN',
    'Infinity',
    100.01,
    0.001,
    -1,
    1e21,
  ]) {
    assert.deepEqual(
      fieldRefusal(() => percent(value)),
      {
        field: `${PATH}.penaltyPercent`,
        problem: `must be a percentage from 0 to 100 with at most two decimals, got ${JSON.stringify(String(value))}`,
      },
      JSON.stringify(value),
    );
  }
});

test('a penaltyPercent that is neither text nor a finite number is refused', () => {
  for (const value of [null, true, [], {}, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.deepEqual(
      fieldRefusal(() => percent(value)),
      { field: `${PATH}.penaltyPercent`, problem: 'must be a percentage such as "35" or "12.5"' },
      String(value),
    );
  }
});

test('fare rules: refundable is required, a penalty is an amount in the currency, not with a percentage', () => {
  assert.deepEqual(readFareRules({ refundable: false }, PATH, 'EUR'), { refundable: false });
  assert.deepEqual(readFareRules({ refundable: true, penalty: '25.50' }, PATH, 'EUR'), {
    refundable: true,
    penalty: 2550,
  });
  assert.deepEqual(readFareRules({ refundable: true, penalty: '2550' }, PATH, 'JPY').penalty, 2550);
  assert.deepEqual(
    fieldRefusal(() => readFareRules({}, PATH, 'EUR')),
    {
      field: `${PATH}.refundable`,
      problem: 'is required',
    },
  );
  assert.equal(
    fieldRefusal(() => readFareRules({ refundable: true, penalty: '25.5' }, PATH, 'JPY')).field,
    `${PATH}.penalty`,
  );
  assert.equal(
    fieldRefusal(() => readFareRules({ refundable: true, penalty: 'NaN' }, PATH, 'EUR')).field,
    `${PATH}.penalty`,
  );
  assert.deepEqual(
    fieldRefusal(() => readFareRules({ refundable: true, penalty: '1.00', penaltyPercent: '1' }, PATH, 'EUR')),
    {
      field: `${PATH}.penaltyPercent`,
      problem: 'cannot be given with penalty: the penalty is an amount or a percentage',
    },
  );
});

test('a tax breakdown has 1 to 50 lines of two-character codes, each once, adding up exactly to the taxes', () => {
  const line = (code: string, value: string) => ({ code, amount: value });
  assert.deepEqual(readTaxBreakdown([line('YQ', '10.00'), line('DE', '2.50')], 'taxes', 'EUR', 1250), [
    { code: 'YQ', amount: 1000 },
    { code: 'DE', amount: 250 },
  ]);
  const fifty = Array.from({ length: 50 }, (_, index) => line(String(index).padStart(2, '0'), '1.00'));
  assert.equal(readTaxBreakdown(fifty, 'taxes', 'EUR', 5000).length, 50);
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([...fifty, line('ZZ', '1.00')], 'taxes', 'EUR', 5100)),
    {
      field: 'taxes',
      problem: 'must have 1 to 50 entries, has 51',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([], 'taxes', 'EUR', 0)),
    {
      field: 'taxes',
      problem: 'must have 1 to 50 entries, has 0',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([line('YQ', '1.00'), line('YQ', '1.00')], 'taxes', 'EUR', 200)),
    {
      field: 'taxes[1]',
      problem: 'repeats the code YQ',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([line('YQ', '1.00')], 'taxes', 'EUR', 101)),
    {
      field: 'taxes',
      problem: "amounts add up to 1.00, not to the ticket's taxes 1.01",
    },
  );
  for (const code of ['Y', 'YQX', 'yq', 'Y-']) {
    assert.equal(
      fieldRefusal(() => readTaxBreakdown([line(code, '1.00')], 'taxes', 'EUR', 100)).field,
      'taxes[0].code',
    );
  }
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([{ code: 'YQ', amount: '1.00', refundable: 'yes' }], 'taxes', 'EUR', 100)),
    { field: 'taxes[0].refundable', problem: 'must be true or false' },
  );
});

test('array: the least and the most entries are read, one fewer or one more refused', () => {
  assert.equal(array([1], 'list', 1, 3).length, 1);
  assert.equal(array([1, 2, 3], 'list', 1, 3).length, 3);
  assert.deepEqual(
    fieldRefusal(() => array([], 'list', 1, 3)),
    { field: 'list', problem: 'must have 1 to 3 entries, has 0' },
  );
  assert.deepEqual(
    fieldRefusal(() => array([1, 2, 3, 4], 'list', 1, 3)),
    {
      field: 'list',
      problem: 'must have 1 to 3 entries, has 4',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => array({ length: 1 }, 'list', 1, 3)),
    { field: 'list', problem: 'must be an array' },
  );
});

test('instant: a date-time with a zone is read as given; one without a zone, or a day that does not exist, is refused', () => {
  assert.equal(instant('2026-12-01T10:00:00Z', 'at'), '2026-12-01T10:00:00Z');
  assert.equal(instant('2026-12-01T10:00+01:00', 'at'), '2026-12-01T10:00+01:00');
  assert.equal(instant('2026-12-01T10:00:00.123456789Z', 'at'), '2026-12-01T10:00:00.123456789Z');
  for (const value of [
    '2026-12-01T10:00:00',
    '2026-12-01',
    '2026-12-01 10:00:00Z',
    '2026-12-01T10:00:00.1234567890Z',
  ]) {
    assert.deepEqual(
      fieldRefusal(() => instant(value, 'at')),
      {
        field: 'at',
        problem: `must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z, got ${JSON.stringify(value)}`,
      },
    );
  }
  for (const value of ['2026-13-01T10:00:00Z', '2026-12-32T10:00:00Z', '2026-12-01T25:00:00Z']) {
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
    fieldRefusal(() => instant(20261201, 'at')),
    { field: 'at', problem: 'must be a string' },
  );
});

test('amount: at most the decimals of the currency, never negative, never a number', () => {
  assert.deepEqual(
    [amount('0', 'a', 'EUR'), amount('0.00', 'a', 'EUR'), amount('450.5', 'a', 'EUR'), amount('7', 'a', 'JPY')],
    [0, 0, 45050, 7],
  );
  assert.equal(amount('1.234', 'a', 'KWD'), 1234);
  for (const [value, currency] of [
    ['1.001', 'EUR'],
    ['1.5', 'JPY'],
    ['-1.00', 'EUR'],
    ['1e3', 'EUR'],
    ['', 'EUR'],
    ['NaN', 'EUR'],
  ] as const) {
    assert.deepEqual(
      fieldRefusal(() => amount(value, 'a', currency)),
      {
        field: 'a',
        problem: `must be a non-negative decimal with at most the decimals of ${currency}, got ${JSON.stringify(value)}`,
      },
    );
  }
  assert.deepEqual(
    fieldRefusal(() => amount(450, 'a', 'EUR')),
    {
      field: 'a',
      problem: 'must be a decimal string such as "450.00"',
    },
  );
});

test('text, oneOf and unique name the field and what was got', () => {
  assert.equal(text('ABC123', 'ref', /^[A-Z0-9]{6}$/, 'must be six letters or digits'), 'ABC123');
  assert.deepEqual(
    fieldRefusal(() => text('abc', 'ref', /^[A-Z0-9]{6}$/, 'must be six letters or digits')),
    {
      field: 'ref',
      problem: 'must be six letters or digits, got "abc"',
    },
  );
  assert.equal(oneOf(undefined, 'kind', ['A', 'B'] as const, 'B'), 'B');
  assert.deepEqual(
    fieldRefusal(() => oneOf('C', 'kind', ['A', 'B'] as const)),
    {
      field: 'kind',
      problem: 'must be one of A, B, got "C"',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => unique(['S1', 'S2', 'S1'], 'segments', 'segmentId')),
    {
      field: 'segments[2]',
      problem: 'repeats the segmentId S1',
    },
  );
});
