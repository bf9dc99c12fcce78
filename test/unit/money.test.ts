import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatAmount,
  isTooLargeAmount,
  LARGEST_MINOR,
  parseAmount,
  splitEvenly,
  sumMinor,
  toWireAmount,
} from '../../src/domain/money.js';

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

  test("rejects amounts past the bound, whatever the currency's decimals", () => {
    assert.equal(parseAmount('999999999999999.999', 'KWD'), null);
    assert.equal(parseAmount('999999999999.999', 'KWD'), 999_999_999_999_999);
    assert.equal(parseAmount('1000000000000.000', 'KWD'), null);
    assert.equal(parseAmount('999999999999999', 'JPY'), 999_999_999_999_999);
    assert.equal(parseAmount('1000000000000000', 'JPY'), null);
  });

  test('reads up to 10^15 - 1 minor units whatever the number of digits, and says when an amount is only too large', () => {
    assert.equal(LARGEST_MINOR, 999_999_999_999_999);
    assert.equal(parseAmount('999999999999999', 'JPY'), LARGEST_MINOR);
    assert.equal(parseAmount('9999999999999.99', 'EUR'), LARGEST_MINOR);
    assert.equal(parseAmount('0009999999999999.99', 'EUR'), LARGEST_MINOR);
    assert.equal(parseAmount('1000000000000000', 'JPY'), null);
    assert.equal(parseAmount('10000000000000.00', 'EUR'), null);
    // The earlier bound, 2^53 - 1 minor units, is too large now.
    assert.equal(parseAmount('90071992547409.91', 'EUR'), null);
    assert.equal(parseAmount('9007199254740991', 'JPY'), null);
    assert.equal(isTooLargeAmount('10000000000000.00', 'EUR'), true);
    assert.equal(isTooLargeAmount('90071992547409.91', 'EUR'), true);
    assert.equal(isTooLargeAmount('1'.padEnd(400, '0'), 'EUR'), true);
    for (const text of ['9999999999999.99', '1e400', '-0', '1.005', '10000000000000.001'])
      assert.equal(isTooLargeAmount(text, 'EUR'), false, text);
  });

  test('the bound leaves sums exact: two amounts within it add up to less than 2^53', () => {
    assert.ok(Number.isSafeInteger(LARGEST_MINOR + LARGEST_MINOR));
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
    for (const [text, currency] of [
      ['570.50', 'EUR'],
      ['1200', 'JPY'],
      ['12.345', 'KWD'],
      ['0.001', 'KWD'],
      ['0.00', 'EUR'],
    ] as const) {
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

  test('prints back as the exact decimal up to the bound, in every currency', () => {
    const wire = (minor: number, currency: string) => JSON.stringify(toWireAmount(minor, currency));
    // The decimal as JSON writes it: no trailing zeros after the point, and no point without decimals.
    const canonical = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
    assert.equal(wire(LARGEST_MINOR, 'EUR'), '9999999999999.99');
    assert.equal(wire(LARGEST_MINOR, 'JPY'), '999999999999999');
    assert.equal(wire(LARGEST_MINOR, 'KWD'), '999999999999.999');
    assert.equal(wire(LARGEST_MINOR - 1, 'EUR'), '9999999999999.98');
    // Every amount of 15 digits with each last digit, and a spread of amounts below the bound.
    const amounts = [LARGEST_MINOR, 100_000_000_000_000];
    for (let last = 0; last < 10; last += 1)
      amounts.push(LARGEST_MINOR - last, 123_456_789_012_340 + last, 900_719_925_474_090 + last);
    let seed = 1;
    for (let index = 0; index < 2000; index += 1) {
      seed = (seed * 48271) % 2147483647;
      amounts.push(Math.floor((seed / 2147483647) * LARGEST_MINOR));
    }
    for (const currency of ['EUR', 'JPY', 'KWD']) {
      for (const minor of amounts)
        assert.equal(wire(minor, currency), canonical(formatAmount(minor, currency)), `${minor} ${currency}`);
    }
  });

  test('past the bound the wire may not be exact: why the bound is 10^15 - 1', () => {
    // 2^53 - 1 minor units, the earlier bound, prints with its last digit dropped; so does a 16-digit decimal such as 99999999999999.99.
    assert.equal(JSON.stringify(toWireAmount(Number.MAX_SAFE_INTEGER, 'EUR')), '90071992547409.9');
    assert.equal(JSON.stringify(Number('99999999999999.99')), '99999999999999.98');
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

  test("guards exactness, not the import's bound: past LARGEST_MINOR it still adds up exactly", () => {
    assert.equal(sumMinor([LARGEST_MINOR, 1]), 1_000_000_000_000_000);
    assert.equal(sumMinor([Number.MAX_SAFE_INTEGER - 1, 1]), Number.MAX_SAFE_INTEGER);
  });
});
