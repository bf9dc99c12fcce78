/** The request-level codes each operation documents, grouped by HTTP status (src/http/openapi/operation-docs.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorStatusesOf } from '../../src/http/openapi/operation-docs.js';
import { EVENT_LIST, OPERATIONS, RETRIEVE } from '../../src/http/operations.js';

test('an operation that changes orders: its codes by status, statuses ascending, the idempotency codes among them', () => {
  assert.deepEqual(
    [...errorStatusesOf(OPERATIONS.cancel)],
    [
      [400, ['INVALID_JSON', 'INVALID_REQUEST']],
      [401, ['AUTH_MISSING', 'AUTH_INVALID']],
      [403, ['SENDER_MISMATCH']],
      [404, ['ORDER_NOT_FOUND']],
      [409, ['IDEMPOTENCY_KEY_IN_USE']],
      [413, ['PAYLOAD_TOO_LARGE']],
      [415, ['UNSUPPORTED_MEDIA_TYPE']],
      [422, ['IDEMPOTENCY_KEY_REUSED']],
      [429, ['RATE_LIMITED', 'IDEMPOTENCY_KEYS_EXHAUSTED']],
      [500, ['INTERNAL_ERROR']],
      [503, ['UNAVAILABLE']],
    ],
  );
});

test('the reads: no idempotency codes, and the event feed, which names no order, no 404', () => {
  assert.deepEqual([...errorStatusesOf(RETRIEVE).keys()], [400, 401, 403, 404, 413, 415, 429, 500, 503]);
  assert.deepEqual([...errorStatusesOf(EVENT_LIST).keys()], [400, 401, 403, 413, 415, 429, 500, 503]);
});
