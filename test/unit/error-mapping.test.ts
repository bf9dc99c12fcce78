import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, errors } from '../../src/errors/api-error.js';
import { refusalError, STORE_RETRY_AFTER_SECONDS, toApiError } from '../../src/http/error-mapping.js';

/**
 * docs/errors.md: what the service answers for anything thrown while it serves a request. Each
 * case names the code, the HTTP status, the message the client reads and the headers it gets.
 */
const storeIsUp = () => false;

function answer(error: unknown, rootKey?: string, isStoreUnavailable: (error: unknown) => boolean = storeIsUp) {
  const mapped = toApiError(error, rootKey, isStoreUnavailable);
  return { code: mapped.code, status: mapped.status, message: mapped.message, headers: mapped.headers };
}

/** An error as Fastify and its plugins throw them: a code, a message and sometimes a status. */
function fastifyError(code: string | undefined, message = 'from fastify', statusCode?: number): Error {
  return Object.assign(new Error(message), { code, statusCode });
}

test('an ApiError is answered as it is', () => {
  const error = errors.orderNotFound('ORD-1');
  assert.equal(
    toApiError(error, 'Root', () => true),
    error,
  );
});

test('the store away or busy: 503 UNAVAILABLE, retry after one second, whatever the error says', () => {
  assert.equal(STORE_RETRY_AFTER_SECONDS, 1);
  const seen: unknown[] = [];
  const error = fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 'connection refused', 400);
  assert.deepEqual(
    answer(error, 'Root', (candidate) => {
      seen.push(candidate);
      return true;
    }),
    {
      code: 'UNAVAILABLE',
      status: 503,
      message: 'The service is temporarily unavailable; retry after the delay in Retry-After.',
      headers: { 'retry-after': '1' },
    },
  );
  assert.deepEqual(seen, [error]);
});

test('a schema violation: 400 INVALID_REQUEST naming the first field', () => {
  const error = Object.assign(new Error('body/x must be string'), {
    validation: [
      { instancePath: '/Query/OrderID', keyword: 'type', params: { type: 'string' }, message: 'must be string' },
      { instancePath: '/Other', keyword: 'type', params: { type: 'string' }, message: 'must be string' },
    ],
    statusCode: 400,
  });
  const mapped = answer(error, 'AirOrderCancelRQ');
  assert.equal(mapped.code, 'INVALID_REQUEST');
  assert.equal(mapped.status, 400);
  assert.match(mapped.message, /Query\.OrderID/);
  assert.doesNotMatch(mapped.message, /Other/);
  assert.equal(
    answer(
      Object.assign(new Error('extra'), {
        validation: [{ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'Extra' } }],
      }),
      'AirOrderCancelRQ',
    ).message,
    'The body must have the single root key AirOrderCancelRQ; found Extra.',
  );
  assert.equal(
    answer(
      Object.assign(new Error('extra'), {
        validation: [{ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'Extra' } }],
      }),
    ).message,
    'The body must have the single root key ; found Extra.',
    'without an operation there is no root key to name',
  );
});

test('an empty list of schema violations is no schema violation', () => {
  assert.equal(answer(Object.assign(new Error('odd'), { validation: [] })).code, 'INTERNAL_ERROR');
});

test('a client that closed the connection before its whole body arrived: 400 INVALID_JSON, no failure of ours', () => {
  assert.deepEqual(answer(fastifyError('ECONNRESET', 'aborted')), {
    code: 'INVALID_JSON',
    status: 400,
    message: 'The body is not valid JSON: the connection closed before the whole body arrived',
    headers: {},
  });
  assert.equal(answer(fastifyError('ECONNRESET', 'socket hang up')).code, 'INTERNAL_ERROR', 'another reset is ours');
  assert.equal(answer(fastifyError('EPIPE', 'aborted')).code, 'INTERNAL_ERROR', 'another code is ours');
});

test("Fastify's body errors each have their code, status and words", () => {
  const cases: [string, { code: string; status: number; message: string }][] = [
    [
      'FST_ERR_CTP_BODY_TOO_LARGE',
      { code: 'PAYLOAD_TOO_LARGE', status: 413, message: 'The body is larger than 64 KiB.' },
    ],
    [
      'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, message: 'Content-Type must be application/json.' },
    ],
    [
      'FST_ERR_CTP_INVALID_TYPE',
      { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, message: 'Content-Type must be application/json.' },
    ],
    ['FST_ERR_CTP_INVALID_JSON_BODY', { code: 'INVALID_JSON', status: 400, message: 'The body is not valid JSON.' }],
    [
      'FST_ERR_CTP_EMPTY_JSON_BODY',
      { code: 'INVALID_JSON', status: 400, message: 'The body is not valid JSON: the body is empty' },
    ],
    [
      'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
      {
        code: 'INVALID_JSON',
        status: 400,
        message: 'The body is not valid JSON: the body is shorter or longer than its Content-Length',
      },
    ],
    [
      'FST_CP_ERR_INVALID_CONTENT_ENCODING',
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        status: 415,
        message: 'Content-Encoding must be gzip, deflate, br or identity.',
      },
    ],
    [
      'FST_CP_ERR_INVALID_CONTENT',
      {
        code: 'INVALID_JSON',
        status: 400,
        message: 'The body is not valid JSON: it could not be decompressed as its Content-Encoding says',
      },
    ],
  ];
  for (const [fastifyCode, expected] of cases) {
    // Fastify's own status (and a 5xx one) does not decide: the code does.
    assert.deepEqual(
      answer(fastifyError(fastifyCode, 'fastify words', 500)),
      { ...expected, headers: {} },
      fastifyCode,
    );
  }
});

test("a SyntaxError is the client's only when Fastify marked it 400 (its JSON parser); otherwise ours", () => {
  const parser = Object.assign(new SyntaxError('Unexpected token } in JSON at position 9'), { statusCode: 400 });
  assert.deepEqual(answer(parser), {
    code: 'INVALID_JSON',
    status: 400,
    message: 'The body is not valid JSON: Unexpected token } in JSON at position 9',
    headers: {},
  });
  assert.equal(answer(new SyntaxError('a stored document that does not parse')).code, 'INTERNAL_ERROR');
  assert.equal(answer(Object.assign(new SyntaxError('marked 500'), { statusCode: 500 })).code, 'INTERNAL_ERROR');
});

test('another error marked 4xx keeps its status and says what it was; 3xx, 5xx and unmarked errors are ours', () => {
  const cases: [number, string, { code: string; status: number; message: string }][] = [
    [400, 'a bad header', { code: 'INVALID_REQUEST', status: 400, message: 'a bad header' }],
    [400, '', { code: 'INVALID_REQUEST', status: 400, message: 'The request could not be read.' }],
    [404, 'a file outside the folder', { code: 'ROUTE_NOT_FOUND', status: 404, message: 'No such route.' }],
    [408, 'slow', { code: 'REQUEST_TIMEOUT', status: 408, message: 'The request was not received in full in time.' }],
    [413, 'big', { code: 'PAYLOAD_TOO_LARGE', status: 413, message: 'The body is larger than 64 KiB.' }],
    [415, 'odd', { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, message: 'Content-Type must be application/json.' }],
    [
      431,
      'many headers',
      { code: 'REQUEST_HEADER_TOO_LARGE', status: 431, message: 'The request headers are too large.' },
    ],
    [
      403,
      'a dot file',
      { code: 'REQUEST_REFUSED', status: 403, message: 'The request is for something the service does not serve.' },
    ],
    [
      405,
      'Method Not Allowed',
      { code: 'REQUEST_REFUSED', status: 405, message: 'The request was refused (Method Not Allowed).' },
    ],
    [416, '', { code: 'REQUEST_REFUSED', status: 416, message: 'The request was refused (416).' }],
    [
      499,
      'last of the range',
      { code: 'REQUEST_REFUSED', status: 499, message: 'The request was refused (last of the range).' },
    ],
  ];
  for (const [status, message, expected] of cases) {
    assert.deepEqual(answer(fastifyError('FST_SOMETHING', message, status)), { ...expected, headers: {} }, `${status}`);
  }
  const internal = {
    code: 'INTERNAL_ERROR',
    status: 500,
    message: 'An internal error occurred; nothing was changed.',
    headers: {},
  };
  assert.deepEqual(
    answer({ statusCode: 405 }),
    {
      code: 'REQUEST_REFUSED',
      status: 405,
      message: 'The request was refused (405).',
      headers: {},
    },
    'a thrown object without a message',
  );
  assert.deepEqual(answer(fastifyError('FST_SOMETHING', 'a redirect', 399)), internal);
  assert.deepEqual(answer(fastifyError('FST_SOMETHING', 'ours', 500)), internal);
  assert.deepEqual(answer(fastifyError(undefined, 'no status')), internal);
  assert.deepEqual(answer(Object.assign(new Error('a string status'), { statusCode: '404' })), internal);
  assert.deepEqual(answer('a thrown string'), internal);
});

test('a refused request: IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE (retry after a second), UNAVAILABLE when out of time', () => {
  const view = (error: ApiError) => ({ code: error.code, status: error.status, headers: error.headers });
  assert.deepEqual(view(refusalError('idempotency-key-reused')), {
    code: 'IDEMPOTENCY_KEY_REUSED',
    status: 422,
    headers: {},
  });
  assert.deepEqual(view(refusalError('idempotency-key-in-use')), {
    code: 'IDEMPOTENCY_KEY_IN_USE',
    status: 409,
    headers: { 'retry-after': '1' },
  });
  assert.deepEqual(view(refusalError('out-of-time')), {
    code: 'UNAVAILABLE',
    status: 503,
    headers: { 'retry-after': '1' },
  });
});

test('an agency out of kept responses: 429 IDEMPOTENCY_KEYS_EXHAUSTED, retry after the delay given, a second by default', () => {
  const view = (error: ApiError) => ({ code: error.code, status: error.status, headers: error.headers });
  assert.deepEqual(view(refusalError('kept-responses-exhausted', 7)), {
    code: 'IDEMPOTENCY_KEYS_EXHAUSTED',
    status: 429,
    headers: { 'retry-after': '7' },
  });
  assert.deepEqual(view(refusalError('kept-responses-exhausted')), {
    code: 'IDEMPOTENCY_KEYS_EXHAUSTED',
    status: 429,
    headers: { 'retry-after': '1' },
  });
  // A request out of time keeps the store's delay whatever delay is given.
  assert.deepEqual(view(refusalError('out-of-time', 7)).headers, { 'retry-after': '1' });
});

test('a thrown null or undefined is 500 INTERNAL_ERROR like any other unknown error', () => {
  for (const thrown of [null, undefined]) {
    assert.deepEqual(answer(thrown), {
      code: 'INTERNAL_ERROR',
      status: 500,
      message: 'An internal error occurred; nothing was changed.',
      headers: {},
    });
  }
});
