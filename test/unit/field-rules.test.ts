/**
 * The field formats of docs/contract.md §3 as src/http/schemas/field-rules.ts reads them before
 * validation (lenient input, the envelope's echo): which values pass, and the decimal string a
 * numeric ReferenceVersion becomes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isBookingReferenceList,
  isOrderId,
  isReferenceVersionNumber,
  MAX_REFERENCES,
  IATA_NUMBER_PATTERN,
  PASSENGER_ID_PATTERN,
  QUOTE_ID_PATTERN,
  REFERENCE_VERSION_NUMBER_LIMIT,
  REFERENCE_VERSION_PATTERN,
  referenceVersionText,
} from '../../src/http/schemas/field-rules.js';

test('an order id is a string of 1 to 64 letters, digits or - _ . /', () => {
  for (const id of ['A', 'ORD-1_a./b', 'x'.repeat(64)]) assert.equal(isOrderId(id), true, id);
  for (const id of ['', 'x'.repeat(65), 'ORD 1', 'ORD#1', 12345, null, undefined, ['ORD1']]) {
    assert.equal(isOrderId(id), false, String(id));
  }
});

test('booking references are 1 to 20 strings of 5 to 8 letters or digits', () => {
  assert.equal(isBookingReferenceList(['ABC12']), true);
  assert.equal(isBookingReferenceList(['abc12', 'ABCDEF78']), true);
  assert.equal(isBookingReferenceList(Array.from({ length: MAX_REFERENCES }, () => 'ABC12')), true);
  assert.equal(isBookingReferenceList([]), false);
  assert.equal(isBookingReferenceList(Array.from({ length: MAX_REFERENCES + 1 }, () => 'ABC12')), false);
  assert.equal(isBookingReferenceList(['ABC12', 'AB1']), false);
  assert.equal(isBookingReferenceList(['AB1', 'ABC12']), false);
  assert.equal(isBookingReferenceList(['ABC12', 'ABCDEFGH9']), false);
  // A number whose digits would pass as text is not a reference.
  assert.equal(isBookingReferenceList([12345]), false);
  assert.equal(isBookingReferenceList('ABC12'), false);
  assert.equal(isBookingReferenceList({ length: 1, 0: 'ABC12' }), false);
});

test('a ReferenceVersion number is read from 0 to below 1000000000, and nothing but a number is', () => {
  for (const value of [0, -0, 1e-7, 4.5, REFERENCE_VERSION_NUMBER_LIMIT - 0.5]) {
    assert.equal(isReferenceVersionNumber(value), true, String(value));
  }
  for (const value of [-1e-9, -1, REFERENCE_VERSION_NUMBER_LIMIT, 1e21, Number.NaN, Infinity, '5', '1.0', null]) {
    assert.equal(isReferenceVersionNumber(value), false, String(value));
  }
});

test('a ReferenceVersion number becomes its shortest decimal, without an exponent and with at most 9 decimals', () => {
  for (const [value, text] of [
    [0, '0'],
    [-0, '0'],
    [3, '3'],
    [17.25, '17.25'],
    [100, '100'],
    [0.123456789, '0.123456789'],
    // Eight decimals are kept as the number's shortest form, not the 9 of its binary expansion (…791).
    [123456789.12345679, '123456789.12345679'],
    [999999999.9999999, '999999999.9999999'],
    // More than 9 decimals: rounded to 9, trailing zeros and a bare point dropped.
    [0.1 + 0.2, '0.3'],
    [0.1234567891, '0.123456789'],
    [1.6e-9, '0.000000002'],
    [1e-10, '0'],
    // JavaScript writes these with an exponent.
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [1.26e-8, '0.000000013'],
  ] as const) {
    assert.equal(referenceVersionText(value), text, String(value));
  }
});

test('numbers from 1e21, which JavaScript writes with an exponent, are spelled out in digits', () => {
  assert.equal(referenceVersionText(1e21), '1000000000000000000000');
  assert.equal(referenceVersionText(1.2345e22), '12345000000000000000000');
});

test('every decimal string a ReferenceVersion number becomes matches the string form', () => {
  const pattern = new RegExp(REFERENCE_VERSION_PATTERN);
  for (const value of [0, 1e-7, 1e-10, 0.1 + 0.2, 4.5, 123456789.12345679, REFERENCE_VERSION_NUMBER_LIMIT - 0.5]) {
    assert.match(referenceVersionText(value), pattern, String(value));
  }
});

test('the patterns of the other fields: what each accepts and refuses', () => {
  const cases: [string, string, string[], string[]][] = [
    [
      'ReferenceVersion',
      REFERENCE_VERSION_PATTERN,
      ['1', '1.0', '123456789.123456789'],
      ['', 'v1', '1.', '.5', '1.0.0', '1234567890', '1.1234567890'],
    ],
    ['IATA_Number', IATA_NUMBER_PATTERN, ['1234567', '12345678'], ['', '123456', '123456789', '1234567a']],
    ['PassengerID', PASSENGER_ID_PATTERN, ['P', 'P1', 'a_-Z9', 'p'.repeat(32)], ['', 'p'.repeat(33), 'P 1', 'P.1']],
    [
      'QuoteID',
      QUOTE_ID_PATTERN,
      [`rfq_${'0a'.repeat(12)}`],
      ['', `rfq_${'0A'.repeat(12)}`, `rfq_${'0'.repeat(23)}`, `rfq_${'0'.repeat(25)}`, `rfx_${'0'.repeat(24)}`],
    ],
  ];
  for (const [field, pattern, accepted, refused] of cases) {
    const regex = new RegExp(pattern);
    for (const value of accepted) assert.match(value, regex, `${field} ${value}`);
    for (const value of refused) assert.doesNotMatch(value, regex, `${field} ${value}`);
  }
});
