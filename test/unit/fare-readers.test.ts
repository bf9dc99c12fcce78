import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFareRules, readTaxBreakdown } from '../../src/documents/fare-readers.js';
import { fieldRefusal } from '../helpers/refusals.js';

/** A ticket's tax breakdown and fare rules: what is read, and every refusal in the words the operator reads. */

const line = (code: string, amount: string, refundable?: boolean) => ({
  code,
  amount,
  ...(refundable === undefined ? {} : { refundable }),
});

test('a tax breakdown is read line by line, refundable kept only where given', () => {
  assert.deepEqual(
    readTaxBreakdown([line('YQ', '10.00', false), line('DE', '2.50'), line('US', '0.05', true)], 'tb', 'EUR', 1255),
    [
      { code: 'YQ', amount: 1000, refundable: false },
      { code: 'DE', amount: 250 },
      { code: 'US', amount: 5, refundable: true },
    ],
  );
  assert.deepEqual(readTaxBreakdown([line('XF', '300')], 'tb', 'JPY', 300), [{ code: 'XF', amount: 300 }]);
});

test('a tax code is two capital letters or digits', () => {
  for (const code of ['YQ', 'X1', '99'])
    assert.equal(readTaxBreakdown([line(code, '1.00')], 'tb', 'EUR', 100)[0]!.code, code);
  for (const code of ['Y', 'YQX', 'yq', 'Y-', '']) {
    assert.deepEqual(
      fieldRefusal(() => readTaxBreakdown([line(code, '1.00')], 'tb', 'EUR', 100)),
      {
        field: 'tb[0].code',
        problem: `must be a two-character tax code such as YQ or DE, got ${JSON.stringify(code)}`,
      },
    );
  }
});

test('a tax line that is not an object, or has a bad amount or refundable flag, is refused at that line', () => {
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([line('YQ', '1.00'), 'DE'], 'tb', 'EUR', 100)),
    {
      field: 'tb[1]',
      problem: 'must be a JSON object',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([line('YQ', '1.001')], 'tb', 'EUR', 100)),
    {
      field: 'tb[0].amount',
      problem: 'must be a non-negative decimal with at most the decimals of EUR, got "1.001"',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([{ code: 'YQ', amount: '1.00', refundable: null }], 'tb', 'EUR', 100)),
    {
      field: 'tb[0].refundable',
      problem: 'must be true or false',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown('YQ', 'tb', 'EUR', 100)),
    { field: 'tb', problem: 'must be an array' },
  );
});

test("a tax breakdown must add up to the ticket's taxes exactly, neither less nor more", () => {
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([line('YQ', '1.00'), line('DE', '0.99')], 'tb', 'EUR', 200)),
    {
      field: 'tb',
      problem: "amounts add up to 1.99, not to the ticket's taxes 2.00",
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([line('YQ', '1.00'), line('DE', '1.01')], 'tb', 'EUR', 200)),
    {
      field: 'tb',
      problem: "amounts add up to 2.01, not to the ticket's taxes 2.00",
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readTaxBreakdown([line('YQ', '5')], 'tb', 'JPY', 6)),
    {
      field: 'tb',
      problem: "amounts add up to 5, not to the ticket's taxes 6",
    },
  );
});

test('a tax code given twice is refused at its second line', () => {
  assert.deepEqual(
    fieldRefusal(() =>
      readTaxBreakdown([line('YQ', '1.00'), line('DE', '1.00'), line('DE', '1.00')], 'tb', 'EUR', 300),
    ),
    {
      field: 'tb[2]',
      problem: 'repeats the code DE',
    },
  );
});

test('fare rules: refundable alone, with a penalty amount, or with a penalty percentage', () => {
  assert.deepEqual(readFareRules({ refundable: true }, 'fr', 'EUR'), { refundable: true });
  assert.deepEqual(readFareRules({ refundable: false, penalty: '0' }, 'fr', 'EUR'), { refundable: false, penalty: 0 });
  assert.deepEqual(readFareRules({ refundable: true, penaltyPercent: '12.5' }, 'fr', 'EUR'), {
    refundable: true,
    penaltyBasisPoints: 1250,
  });
  assert.deepEqual(readFareRules({ refundable: true, penaltyPercent: 7 }, 'fr', 'EUR'), {
    refundable: true,
    penaltyBasisPoints: 700,
  });
});

test('fare rules that are not an object, or without refundable, or with a bad penalty, are refused by field', () => {
  assert.deepEqual(
    fieldRefusal(() => readFareRules([], 'fr', 'EUR')),
    { field: 'fr', problem: 'must be a JSON object' },
  );
  assert.deepEqual(
    fieldRefusal(() => readFareRules({ refundable: 'no' }, 'fr', 'EUR')),
    {
      field: 'fr.refundable',
      problem: 'must be true or false',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readFareRules({ refundable: true, penalty: 25 }, 'fr', 'EUR')),
    {
      field: 'fr.penalty',
      problem: 'must be a decimal string such as "450.00"',
    },
  );
  assert.deepEqual(
    fieldRefusal(() => readFareRules({ refundable: true, penalty: '0', penaltyPercent: '0' }, 'fr', 'EUR')),
    {
      field: 'fr.penaltyPercent',
      problem: 'cannot be given with penalty: the penalty is an amount or a percentage',
    },
  );
});

test('a penalty percentage: hundredths of a percent from its text, each digit where it stands', () => {
  const points = (value: unknown) =>
    readFareRules({ refundable: true, penaltyPercent: value }, 'fr', 'EUR').penaltyBasisPoints;
  assert.deepEqual(
    ['0', '1', '9.9', '10.05', '050', '99.9', '100', '100.0', '100.00', 0.5, 99.99].map(points),
    [0, 100, 990, 1005, 5000, 9990, 10000, 10000, 10000, 50, 9999],
  );
});

test('a penalty percentage over 100 or malformed is refused showing at most 80 characters of it', () => {
  const long = '1'.repeat(100);
  assert.deepEqual(
    fieldRefusal(() => readFareRules({ refundable: true, penaltyPercent: long }, 'fr', 'EUR')),
    {
      field: 'fr.penaltyPercent',
      problem: `must be a percentage from 0 to 100 with at most two decimals, got "${'1'.repeat(80)}"`,
    },
  );
  for (const value of ['100.01', '1000', '0.001', 'x', '5%']) {
    assert.deepEqual(
      fieldRefusal(() => readFareRules({ refundable: true, penaltyPercent: value }, 'fr', 'EUR')),
      {
        field: 'fr.penaltyPercent',
        problem: `must be a percentage from 0 to 100 with at most two decimals, got ${JSON.stringify(value)}`,
      },
    );
  }
});

test('a penalty percentage that is neither text nor a finite number is refused as such', () => {
  for (const value of [null, false, ['35'], { value: '35' }, Number.NaN, Number.NEGATIVE_INFINITY]) {
    assert.deepEqual(
      fieldRefusal(() => readFareRules({ refundable: true, penaltyPercent: value }, 'fr', 'EUR')),
      {
        field: 'fr.penaltyPercent',
        problem: 'must be a percentage such as "35" or "12.5"',
      },
    );
  }
});
