import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCodesOf, OPERATION_ITEM_ERRORS, requestErrorsOf } from '../../src/http/operation-errors.js';
import { EVENT_LIST, OPERATIONS, RETRIEVE } from '../../src/http/operations.js';

/** docs/contract.md §5, §6: the codes each operation's `Errors[].Code` can hold, as its response schema lists them. */
const READS = [
  'INVALID_JSON',
  'INVALID_REQUEST',
  'AUTH_MISSING',
  'AUTH_INVALID',
  'SENDER_MISMATCH',
  'ORDER_NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'UNAVAILABLE',
];
const KEYED = ['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEYS_EXHAUSTED'];

/** The request-level codes in the catalogue's order (src/errors/error-codes.ts). */
const CATALOGUE_READS = [
  'AUTH_MISSING',
  'AUTH_INVALID',
  'SENDER_MISMATCH',
  'INVALID_JSON',
  'INVALID_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'ORDER_NOT_FOUND',
];
const CATALOGUE_KEYED = ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEYS_EXHAUSTED'];
const CATALOGUE_LAST = ['RATE_LIMITED', 'INTERNAL_ERROR', 'UNAVAILABLE'];

test('each operation names its own item-level failures', () => {
  assert.deepEqual(OPERATION_ITEM_ERRORS, {
    cancel: ['BOOKING_NOT_FOUND'],
    involuntaryAccept: ['BOOKING_NOT_FOUND', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE', 'NO_REPLACEMENT_OFFERED'],
    involuntaryCancel: ['BOOKING_NOT_FOUND', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE'],
    refundQuote: ['BOOKING_NOT_FOUND', 'PASSENGER_NOT_FOUND', 'ALREADY_REFUNDED', 'NO_FARE_RULES', 'PARTLY_FLOWN'],
    refund: ['BOOKING_NOT_FOUND', 'QUOTE_NOT_FOUND', 'QUOTE_EXPIRED', 'QUOTE_OUTDATED'],
    retrieve: ['BOOKING_NOT_FOUND'],
    eventList: [],
  });
});

test('an operation that changes orders answers the read codes and the idempotency ones', () => {
  for (const operation of Object.values(OPERATIONS)) {
    assert.deepEqual(requestErrorsOf(operation), [...READS, ...KEYED], operation.name);
  }
});

test('a read answers no idempotency code, and the feed, which names no order, no ORDER_NOT_FOUND', () => {
  assert.deepEqual(requestErrorsOf(RETRIEVE), READS);
  assert.deepEqual(
    requestErrorsOf(EVENT_LIST),
    READS.filter((code) => code !== 'ORDER_NOT_FOUND'),
  );
});

test("an operation's codes: its request-level ones, then its item-level ones, each in the catalogue's order", () => {
  const changing = [...CATALOGUE_READS, ...CATALOGUE_KEYED, ...CATALOGUE_LAST];
  assert.deepEqual(errorCodesOf(OPERATIONS.cancel), [...changing, 'BOOKING_NOT_FOUND']);
  assert.deepEqual(errorCodesOf(OPERATIONS.involuntaryAccept), [
    ...changing,
    'BOOKING_NOT_FOUND',
    'BOOKING_CANCELED',
    'NO_PENDING_CHANGE',
    'NO_REPLACEMENT_OFFERED',
  ]);
  assert.deepEqual(errorCodesOf(OPERATIONS.involuntaryCancel), [
    ...changing,
    'BOOKING_NOT_FOUND',
    'BOOKING_CANCELED',
    'NO_PENDING_CHANGE',
  ]);
  assert.deepEqual(errorCodesOf(OPERATIONS.refundQuote), [
    ...changing,
    'BOOKING_NOT_FOUND',
    'PASSENGER_NOT_FOUND',
    'ALREADY_REFUNDED',
    'NO_FARE_RULES',
    'PARTLY_FLOWN',
  ]);
  assert.deepEqual(errorCodesOf(OPERATIONS.refund), [
    ...changing,
    'BOOKING_NOT_FOUND',
    'QUOTE_NOT_FOUND',
    'QUOTE_EXPIRED',
    'QUOTE_OUTDATED',
  ]);
  assert.deepEqual(errorCodesOf(RETRIEVE), [...CATALOGUE_READS, ...CATALOGUE_LAST, 'BOOKING_NOT_FOUND']);
  assert.deepEqual(errorCodesOf(EVENT_LIST), [
    ...CATALOGUE_READS.filter((code) => code !== 'ORDER_NOT_FOUND'),
    ...CATALOGUE_LAST,
  ]);
});
