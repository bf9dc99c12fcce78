/**
 * Every request-level failure of the real service becomes the right typed error, with the code,
 * HTTP status, message, envelope and request id (X-Request-Id = ShoppingResponseId = the log line's).
 * Non-retryable errors are thrown after one attempt.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { simpleOrder } from '../../../test/helpers/documents.js';
import {
  AirOrderAuthenticationError,
  AirOrderClient,
  AirOrderError,
  AirOrderIdempotencyError,
  AirOrderInternalError,
  AirOrderNotFoundError,
  AirOrderPermissionError,
  AirOrderRateLimitError,
  AirOrderUnavailableError,
  AirOrderValidationError,
  type ApiErrorCode,
} from '../src/index.js';
import { cancellationOf, clientFor, holdWriteLock, logLinesOf, startTestService, type TestService } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type ErrorClass = abstract new (...args: never[]) => AirOrderError;

interface Expected {
  type: ErrorClass;
  code: ApiErrorCode;
  status: number;
  /** The operation's response root when the body is its envelope; null for a plain { Errors } body. */
  root: string | null;
  message?: RegExp;
  /** The Idempotency-Key the call gave; a generated UUID otherwise. */
  idempotencyKey?: string;
}

/** Runs the call, which must throw; checks the typed error against the expectation and the service's log. */
async function expectError(
  service: TestService,
  call: () => Promise<unknown>,
  expected: Expected,
): Promise<AirOrderError> {
  let caught: unknown;
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof expected.type, `expected ${expected.type.name}, got ${String(caught)}`);
  assert.ok(caught instanceof AirOrderError);
  const error = caught;
  assert.equal(error.code, expected.code);
  assert.equal(error.status, expected.status);
  assert.equal(error.name, expected.type.name);
  assert.equal(error.attempts, 1, 'not retried');
  if (expected.idempotencyKey) assert.equal(error.idempotencyKey, expected.idempotencyKey);
  else assert.match(error.idempotencyKey ?? '', UUID);
  assert.equal(error.errors.length, 1);
  assert.equal(error.errors[0]!.Code, expected.code);
  assert.equal(error.message, error.errors[0]!.Message);
  assert.ok(error.message.length > 0);
  if (expected.message) assert.match(error.message, expected.message);
  assert.ok(error.headers instanceof Headers);

  // Every answer of the service carries its request id and has its log line, even the HTTP parser's.
  assert.match(error.requestId ?? '', UUID);
  assert.equal(error.requestId, error.headers.get('x-request-id'));
  const [line] = await logLinesOf(service, error.requestId!);
  assert.equal(line?.code, expected.code, 'the service logged this request id with this code');
  assert.equal(line?.status, expected.status);

  if (expected.root === null) {
    assert.equal(error.envelope, undefined);
    assert.deepEqual(error.body, { Errors: error.errors });
  } else {
    assert.ok(error.envelope, 'the parsed envelope');
    assert.deepEqual(Object.keys(error.body as object), [expected.root]);
    assert.equal(error.envelope, (error.body as Record<string, unknown>)[expected.root]);
    assert.equal(error.envelope.ShoppingResponseId, error.requestId);
    assert.equal(error.envelope.Success, undefined);
    assert.deepEqual(error.envelope.Errors, error.errors);
  }
  return error;
}

let service: TestService;
let client: AirOrderClient;
before(async () => {
  service = await startTestService({ env: { REQUEST_TIMEOUT_MS: '300' } });
  client = await clientFor(service, 'ERR1', { maxRetries: 0 });
  await service.addAgency('ERR9');
  await service.importOrders([
    simpleOrder('ERR-1', 'ERR1', 'ERRA01', '2201234570001'),
    simpleOrder('ERR-2', 'ERR1', 'ERRB01', '2201234570002'),
    simpleOrder('ERR-OTHER', 'ERR9', 'ERRZ01', '2201234570009'),
  ]);
});
after(() => service.close());

const params = { orderId: 'ERR-1', bookingReferences: ['ERRA01'] };

describe('authentication and tenancy', () => {
  test('AUTH_MISSING: AirOrderAuthenticationError, items FAILED with the code in the envelope', async () => {
    const error = await expectError(service, () => client.cancel(params, { headers: { authorization: null } }), {
      type: AirOrderAuthenticationError,
      code: 'AUTH_MISSING',
      status: 401,
      root: 'OrderViewRS',
    });
    assert.equal(error.headers?.get('www-authenticate'), 'Bearer');
    assert.deepEqual(error.envelope?.Party.Sender.TravelAgencySender, {
      Name: '',
      IATA_Number: '',
      AgencyID: '',
      Contacts: { Contact: [] },
    });
  });

  test('AUTH_INVALID: an unknown token', async () => {
    const stranger = new AirOrderClient({
      baseUrl: service.baseUrl,
      token: 'aot_notatokenthisserviceissued',
      maxRetries: 0,
    });
    await expectError(service, () => stranger.acceptInvoluntaryChange(params), {
      type: AirOrderAuthenticationError,
      code: 'AUTH_INVALID',
      status: 401,
      root: 'OrderInvoluntaryAcceptRS',
    });
  });

  test('SENDER_MISMATCH: AirOrderPermissionError when the request names another agency', async () => {
    await expectError(service, () => client.cancel({ ...params, sender: { agencyId: 'ERR9' } }), {
      type: AirOrderPermissionError,
      code: 'SENDER_MISMATCH',
      status: 403,
      root: 'OrderViewRS',
      message: /AgencyID/,
    });
  });

  test("ORDER_NOT_FOUND: AirOrderNotFoundError, for a missing order and for another agency's order alike", async () => {
    const missing = await expectError(
      service,
      () => client.cancelInvoluntarily({ orderId: 'ERR-MISSING', bookingReferences: ['ERRA01'] }),
      {
        type: AirOrderNotFoundError,
        code: 'ORDER_NOT_FOUND',
        status: 404,
        root: 'OrderInvoluntaryCancelRS',
      },
    );
    assert.equal(missing.message, 'Order ERR-MISSING was not found.');
    await expectError(service, () => client.cancel({ orderId: 'ERR-OTHER', bookingReferences: ['ERRZ01'] }), {
      type: AirOrderNotFoundError,
      code: 'ORDER_NOT_FOUND',
      status: 404,
      root: 'OrderViewRS',
    });
  });
});

describe('requests refused as sent', () => {
  test('INVALID_REQUEST: AirOrderValidationError naming the field', async () => {
    await expectError(service, () => client.cancel({ orderId: 'ERR-1', bookingReferences: ['x'] }), {
      type: AirOrderValidationError,
      code: 'INVALID_REQUEST',
      status: 400,
      root: 'OrderViewRS',
      message: /GdsBookingReference/,
    });
  });

  test('INVALID_JSON: a broken body through the escape hatch', async () => {
    await expectError(service, () => client.request('involuntaryAccept', '{"OrderInvoluntaryAcceptRQ":'), {
      type: AirOrderValidationError,
      code: 'INVALID_JSON',
      status: 400,
      root: 'OrderInvoluntaryAcceptRS',
    });
  });

  test('UNSUPPORTED_MEDIA_TYPE: a Content-Type other than application/json', async () => {
    await expectError(service, () => client.cancel(params, { headers: { 'content-type': 'text/plain' } }), {
      type: AirOrderValidationError,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      status: 415,
      root: 'OrderViewRS',
    });
  });

  test('PAYLOAD_TOO_LARGE: a body over 64 KiB', async () => {
    await expectError(service, () => client.cancel({ orderId: 'A'.repeat(70_000), bookingReferences: ['ERRA01'] }), {
      type: AirOrderValidationError,
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
      root: 'OrderViewRS',
    });
  });

  test('REQUEST_HEADER_TOO_LARGE: answered by the HTTP parser before routing, so a plain { Errors } body, with its request id and log line', async () => {
    await expectError(service, () => client.cancel(params, { headers: { 'x-padding': 'p'.repeat(10_000) } }), {
      type: AirOrderValidationError,
      code: 'REQUEST_HEADER_TOO_LARGE',
      status: 431,
      root: null,
    });
  });

  test('ROUTE_NOT_FOUND: a wrong base URL is AirOrderNotFoundError with a plain { Errors } body', async () => {
    const misconfigured = new AirOrderClient({
      baseUrl: `${service.baseUrl}/v2/`,
      token: await service.tokenFor('ERR1'),
      maxRetries: 0,
    });
    await expectError(service, () => misconfigured.cancel(params), {
      type: AirOrderNotFoundError,
      code: 'ROUTE_NOT_FOUND',
      status: 404,
      root: null,
      message: /\/v2\/AirOrderCancel/,
    });
  });
});

describe('idempotency, limits and the service failing', () => {
  test('IDEMPOTENCY_KEY_REUSED: AirOrderIdempotencyError, not retried even with retries on', async () => {
    const retrying = await clientFor(service, 'ERR1', { maxRetries: 2 });
    const first = await retrying.cancel({
      orderId: 'ERR-2',
      bookingReferences: ['ERRB01'],
      idempotencyKey: 'err-reused-1',
    });
    assert.equal(first.success, true);
    const error = await expectError(
      service,
      () => retrying.cancel({ orderId: 'ERR-2', bookingReferences: ['NOPE14'], idempotencyKey: 'err-reused-1' }),
      {
        type: AirOrderIdempotencyError,
        code: 'IDEMPOTENCY_KEY_REUSED',
        status: 422,
        root: 'OrderViewRS',
        idempotencyKey: 'err-reused-1',
      },
    );
    assert.notEqual(error.requestId, first.requestId);
  });

  test('INTERNAL_ERROR: AirOrderInternalError when the store fails mid-request; not retried', async () => {
    const retrying = await clientFor(service, 'ERR1', { maxRetries: 2 });
    await service.importOrders([simpleOrder('ERR-500', 'ERR1', 'ERRC01', '2201234570003')]);
    await sql
      .raw(
        `CREATE TRIGGER client_fail_500 BEFORE UPDATE ON order_records WHEN NEW.order_id = 'ERR-500'
      BEGIN SELECT RAISE(ABORT, 'secret-detail'); END`,
      )
      .execute(service.store.db);
    try {
      const error = await expectError(
        service,
        () => retrying.cancel({ orderId: 'ERR-500', bookingReferences: ['ERRC01'] }),
        {
          type: AirOrderInternalError,
          code: 'INTERNAL_ERROR',
          status: 500,
          root: 'OrderViewRS',
        },
      );
      assert.doesNotMatch(JSON.stringify(error.body), /secret-detail/);
    } finally {
      await sql.raw('DROP TRIGGER client_fail_500').execute(service.store.db);
    }
  });

  test('UNAVAILABLE: AirOrderUnavailableError with retryAfter when the store stays busy past the time-out', async () => {
    await service.importOrders([simpleOrder('ERR-503', 'ERR1', 'ERRD01', '2201234570004')]);
    await service.importChanges([cancellationOf('ERR-503', 'ERRD01')]);
    const hold = holdWriteLock(service);
    try {
      const error = await expectError(
        service,
        () => client.cancelInvoluntarily({ orderId: 'ERR-503', bookingReferences: ['ERRD01'] }),
        {
          type: AirOrderUnavailableError,
          code: 'UNAVAILABLE',
          status: 503,
          root: 'OrderInvoluntaryCancelRS',
        },
      );
      assert.equal(error.retryAfter, 1);
    } finally {
      hold.release();
    }
  });
});

test('RATE_LIMITED: AirOrderRateLimitError with retryAfter, when retries are off', async () => {
  const limited = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } });
  try {
    const noRetries = await clientFor(limited, 'ERR2', { maxRetries: 0 });
    await limited.importOrders([simpleOrder('ERR-429', 'ERR2', 'ERRE01', '2201234570005')]);
    await noRetries.cancel({ orderId: 'ERR-429', bookingReferences: ['ERRE01'] });
    const error = await expectError(
      limited,
      () => noRetries.cancel({ orderId: 'ERR-429', bookingReferences: ['ERRE01'] }),
      {
        type: AirOrderRateLimitError,
        code: 'RATE_LIMITED',
        status: 429,
        root: 'OrderViewRS',
      },
    );
    assert.equal(error.retryAfter, 1);
    assert.equal(error.headers?.get('ratelimit-limit'), '1');
  } finally {
    await limited.close();
  }
});
