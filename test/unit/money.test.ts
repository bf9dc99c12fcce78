import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatAmount, isTooLargeAmount, parseAmount, splitEvenly, sumMinor, toWireAmount } from '../../src/domain/money.js';

describe('parseAmount', () => {
  test('reads decimal strings into minor units per currency exponent', () => {
    assert.equal(parseAmount('1200', 'JPY'), 1200);
    assert.equal(parseAmount('570.50', 'EUR'), 57050);
    assert.equal(parseAmount('570.5', 'EUR'), 57050);
    assert.equal(parseAmount('570', 'EUR'), 57000);
    assert.equal(parseAmount('0.01', 'EUR'), 1);
    assert.equal(parseAmount('12.345', 'KWD'), 12345);
    assert.equal(parseAmount('12.3', 'KWD'), 12300);
    assert.equal(parseAmount('0', 'KWD'), 0);
  });

  test('is exact where binary floating point is not', () => {
    // 0.1 + 0.2 and 1.005 * 100 are the classic traps.
    assert.equal(parseAmount('0.30', 'EUR'), 30);
    assert.equal(parseAmount('1.005', 'KWD'), 1005);
    assert.equal(parseAmount('1.15', 'EUR'), 115);
    assert.equal(parseAmount('4.35', 'EUR'), 435);
  });

  test('rejects more decimals than the currency has', () => {
    assert.equal(parseAmount('1200.5', 'JPY'), null);
    assert.equal(parseAmount('1.0', 'JPY'), null);
    assert.equal(parseAmount('570.505', 'EUR'), null);
    assert.equal(parseAmount('1.2345', 'KWD'), null);
  });

  test('rejects text that is not a non-negative decimal', () => {
    for (const text of ['', '-1.00', '+1.00', '1,00', '1.', '.5', ' 1', '1e3', 'abc', '1.2.3', 'NaN']) {
      assert.equal(parseAmount(text, 'EUR'), null, text);
    }
  });

  test('rejects amounts beyond safe integers', () => {
    assert.equal(parseAmount('999999999999999.999', 'KWD'), null);
    assert.equal(parseAmount('999999999999999', 'JPY'), 999999999999999);
  });

  test('reads up to 2^53 - 1 minor units whatever the number of digits, and says when an amount is only too large', () => {
    assert.equal(parseAmount('9007199254740991', 'JPY'), Number.MAX_SAFE_INTEGER);
    assert.equal(parseAmount('90071992547409.91', 'EUR'), Number.MAX_SAFE_INTEGER);
    assert.equal(parseAmount('00090071992547409.91', 'EUR'), Number.MAX_SAFE_INTEGER);
    assert.equal(parseAmount('9007199254740992', 'JPY'), null);
    assert.equal(parseAmount('90071992547409.92', 'EUR'), null);
    assert.equal(isTooLargeAmount('90071992547409.92', 'EUR'), true);
    assert.equal(isTooLargeAmount('1'.padEnd(400, '0'), 'EUR'), true);
    for (const text of ['90071992547409.91', '1e400', '-0', '1.005', '90071992547409.921']) assert.equal(isTooLargeAmount(text, 'EUR'), false, text);
  });

  test('throws on an unknown currency', () => {
    assert.throws(() => parseAmount('1.00', 'XXX'));
  });
});

describe('formatAmount', () => {
  test('writes exactly the currency decimals', () => {
    assert.equal(formatAmount(1200, 'JPY'), '1200');
    assert.equal(formatAmount(0, 'JPY'), '0');
    assert.equal(formatAmount(57050, 'EUR'), '570.50');
    assert.equal(formatAmount(5, 'EUR'), '0.05');
    assert.equal(formatAmount(0, 'EUR'), '0.00');
    assert.equal(formatAmount(12345, 'KWD'), '12.345');
    assert.equal(formatAmount(7, 'KWD'), '0.007');
    assert.equal(formatAmount(12300, 'KWD'), '12.300');
  });

  test('round-trips with parseAmount', () => {
    for (const [text, currency] of [['570.50', 'EUR'], ['1200', 'JPY'], ['12.345', 'KWD'], ['0.001', 'KWD'], ['0.00', 'EUR']] as const) {
      assert.equal(formatAmount(parseAmount(text, currency)!, currency), text);
    }
  });

  test('writes a sign for negative amounts', () => {
    assert.equal(formatAmount(-5, 'EUR'), '-0.05');
  });
});

describe('toWireAmount', () => {
  test('is the JSON number of the exact decimal', () => {
    assert.equal(toWireAmount(57050, 'EUR'), 570.5);
    assert.equal(JSON.stringify(toWireAmount(57050, 'EUR')), '570.5');
    assert.equal(toWireAmount(1200, 'JPY'), 1200);
    assert.equal(toWireAmount(12345, 'KWD'), 12.345);
    assert.equal(JSON.stringify(toWireAmount(1005, 'KWD')), '1.005');
    assert.equal(JSON.stringify(toWireAmount(30, 'EUR')), '0.3');
    assert.equal(toWireAmount(0, 'KWD'), 0);
  });
});

describe('splitEvenly', () => {
  test('splits evenly with the remainder to the first share', () => {
    assert.deepEqual(splitEvenly(100, 3), [34, 33, 33]);
    assert.deepEqual(splitEvenly(57050, 2), [28525, 28525]);
    assert.deepEqual(splitEvenly(57051, 2), [28526, 28525]);
    assert.deepEqual(splitEvenly(10000, 3), [3334, 3333, 3333]);
    assert.deepEqual(splitEvenly(2, 3), [2, 0, 0]);
    assert.deepEqual(splitEvenly(1000, 7), [148, 142, 142, 142, 142, 142, 142]);
  });

  test('always sums exactly to the total', () => {
    for (const total of [0, 1, 7, 99, 100, 12345, 57050, 999999]) {
      for (let parts = 1; parts <= 7; parts += 1) {
        const shares = splitEvenly(total, parts);
        assert.equal(shares.length, parts);
        assert.equal(sumMinor(shares), total, `${total}/${parts}`);
        assert.ok(shares.every((share) => Number.isInteger(share) && share >= 0));
        assert.ok(shares[0]! - shares[parts - 1]! < parts, 'remainder is smaller than the number of parts');
      }
    }
  });

  test('gives one share for one part and none for zero parts', () => {
    assert.deepEqual(splitEvenly(57050, 1), [57050]);
    assert.deepEqual(splitEvenly(57050, 0), []);
  });
});

describe('sumMinor', () => {
  test('adds integers and refuses overflow', () => {
    assert.equal(sumMinor([]), 0);
    assert.equal(sumMinor([1, 2, 3]), 6);
    assert.throws(() => sumMinor([Number.MAX_SAFE_INTEGER, 1]), RangeError);
  });
});
