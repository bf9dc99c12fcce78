/**
 * Automatic retries against the real service: 429 honouring Retry-After, 503 from a busy store,
 * a dropped connection after the service committed — every attempt of one call carries one
 * Idempotency-Key, so the retry is answered by a replay and nothing is applied twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { simpleOrder } from '../../../test/helpers/documents.js';
import { refundRows } from '../../../test/helpers/booking-state.js';
import {
  AirOrderClient,
  AirOrderConnectionError,
  AirOrderRateLimitError,
  AirOrderTimeoutError,
  AirOrderUnavailableError,
  VERSION,
  type RetryInfo,
} from '../src/index.js';
import {
  cancellationOf,
  clientFor,
  holdWriteLock,
  logLinesOf,
  startDroppingProxy,
  startTestService,
  type TestService,
} from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('429 RATE_LIMITED (RATE_LIMIT_PER_SECOND=1, RATE_LIMIT_BURST=1)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } });
  });
  after(() => service.close());

  test('a rate-limited call waits for Retry-After, retries with the same Idempotency-Key and succeeds', async () => {
    const retries: RetryInfo[] = [];
    const client = await clientFor(service, 'RT1', { onRetry: (info) => retries.push(info) });
    await service.importOrders([
      simpleOrder('RT-1', 'RT1', 'RTA001', '2201234580001'),
      simpleOrder('RT-2', 'RT1', 'RTB001', '2201234580002'),
    ]);

    const first = await client.cancel({ orderId: 'RT-1', bookingReferences: ['RTA001'] });
    assert.equal(first.attempts, 1);
    const started = Date.now();
    const second = await client.cancel({ orderId: 'RT-2', bookingReferences: ['RTB001'] });
    const elapsed = Date.now() - started;

    assert.equal(second.success, true);
    assert.deepEqual(
      second.items.map((item) => [item.bookingReference, item.status, item.bookingStatus]),
      [['RTB001', 'SUCCESS', 'CANCELED']],
    );
    assert.equal(second.attempts, 2);
    assert.equal(second.replayed, false, 'the 429 changed nothing, so the retry was processed');
    assert.equal(retries.length, 1);
    const [retry] = retries;
    assert.ok(retry!.error instanceof AirOrderRateLimitError);
    assert.equal(retry!.error.code, 'RATE_LIMITED');
    assert.equal(retry!.error.retryAfter, 1);
    assert.equal(retry!.attempt, 1);
    assert.ok(retry!.delayMs >= 1000, `waited ${retry!.delayMs} ms, at least Retry-After`);
    assert.ok(elapsed >= 1000, `the call took ${elapsed} ms: it honoured Retry-After: 1`);
    assert.equal(retry!.idempotencyKey, second.idempotencyKey, 'one key for every attempt');

    // The service saw a 429 and then the success, under two request ids.
    const [limitedLine] = await logLinesOf(service, retry!.error.requestId!);
    assert.equal(limitedLine?.code, 'RATE_LIMITED');
    const [okLine] = await logLinesOf(service, second.requestId);
    assert.equal(okLine?.code, 'OK');
  });

  test('a Retry-After longer than maxRetryAfterSeconds is not waited for: AirOrderRateLimitError at once', async () => {
    const client = await clientFor(service, 'RT2', { maxRetries: 1, maxRetryAfterSeconds: 0.5 });
    await service.importOrders([simpleOrder('RT-3', 'RT2', 'RTC001', '2201234580003')]);
    await client.cancel({ orderId: 'RT-3', bookingReferences: ['RTC001'] });
    await assert.rejects(client.cancel({ orderId: 'RT-3', bookingReferences: ['RTC001'] }), (error: unknown) => {
      assert.ok(error instanceof AirOrderRateLimitError);
      assert.equal(error.retryAfter, 1);
      assert.equal(error.attempts, 1, 'a Retry-After over maxRetryAfterSeconds is not waited for');
      return true;
    });
  });

  test('three calls at once on a bucket of one: each waits for its Retry-After and all succeed, in 1, 2 and 3 attempts', async () => {
    const client = await clientFor(service, 'RT3', { maxRetries: 2 });
    await service.importOrders([
      simpleOrder('RT-4', 'RT3', 'RTD001', '2201234580004'),
      simpleOrder('RT-5', 'RT3', 'RTD002', '2201234580011'),
      simpleOrder('RT-6', 'RT3', 'RTD003', '2201234580012'),
    ]);
    const results = await Promise.all(
      [
        ['RT-4', 'RTD001'],
        ['RT-5', 'RTD002'],
        ['RT-6', 'RTD003'],
      ].map(([orderId, reference]) => client.cancel({ orderId: orderId!, bookingReferences: [reference!] })),
    );
    assert.deepEqual(results.map((result) => result.attempts).sort(), [1, 2, 3]);
    for (const result of results) {
      assert.deepEqual(
        result.items.map((item) => [item.status, item.bookingStatus]),
        [['SUCCESS', 'CANCELED']],
      );
      assert.equal(result.replayed, false);
    }
    const limited = service.logs.filter(
      (line) => line.msg === 'request' && line.agency === 'RT3' && line.code === 'RATE_LIMITED',
    );
    assert.equal(limited.length, 3, 'the service answered 429 three times');
  });
});

describe('503 UNAVAILABLE (REQUEST_TIMEOUT_MS=300, the store held busy)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { REQUEST_TIMEOUT_MS: '300' } });
  });
  after(() => service.close());

  test('the retry after a 503 does the work, which the timed-out attempt did not: refunded once', async () => {
    await service.addAgency('RT5');
    await service.importOrders([simpleOrder('RT-503', 'RT5', 'RTE001', '2201234580005')]);
    await service.importChanges([cancellationOf('RT-503', 'RTE001')]);
    const retries: RetryInfo[] = [];
    const held: { lock?: { release(): void } } = {};
    const client = await clientFor(service, 'RT5', {
      // The store is freed while the client waits for Retry-After.
      onRetry: (info) => {
        retries.push(info);
        held.lock?.release();
      },
    });
    const hold = holdWriteLock(service);
    held.lock = hold;
    let result;
    try {
      result = await client.cancelInvoluntarily({ orderId: 'RT-503', bookingReferences: ['RTE001'], currency: 'EUR' });
    } finally {
      hold.release();
    }
    assert.equal(retries.length, 1);
    const unavailable = retries[0]!.error;
    assert.ok(unavailable instanceof AirOrderUnavailableError);
    assert.equal(unavailable.status, 503);
    assert.ok(retries[0]!.delayMs >= 1000, 'Retry-After: 1 honoured');
    assert.equal(result.attempts, 2);
    // A 503 means nothing was done: the timed-out attempt rolled back, kept no response, so the
    // retry under the same Idempotency-Key is processed, not replayed.
    assert.equal(result.replayed, false, 'the timed-out attempt left nothing to replay');
    assert.notEqual(result.requestId, unavailable.requestId);
    assert.equal(result.items[0]!.status, 'SUCCESS');
    assert.equal(result.items[0]!.refund.amountMinor, 57050);
    assert.deepEqual(
      (await refundRows(service, 'RT-503')).map((row) => [row.ticket_number, row.amount_minor]),
      [['2201234580005', 57050]],
    );
  });
});

describe('network failures', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
    await service.addAgency('RT6', { name: 'Blue Sky Travel' });
  });
  after(() => service.close());

  test('a dropped connection after the service committed: the retry carries the same Idempotency-Key and is replayed, refunding once', async () => {
    const proxy = await startDroppingProxy(service.baseUrl, 1);
    try {
      await service.importOrders([simpleOrder('RT-DROP', 'RT6', 'RTF001', '2201234580006')]);
      await service.importChanges([cancellationOf('RT-DROP', 'RTF001')]);
      const retries: RetryInfo[] = [];
      const client = await clientFor(service, 'RT6', {
        baseUrl: proxy.baseUrl,
        onRetry: (info) => retries.push(info),
        userAgent: 'bluesky/1.0',
      });

      const result = await client.cancelInvoluntarily({
        orderId: 'RT-DROP',
        bookingReferences: ['RTF001'],
        currency: 'EUR',
      });

      assert.equal(proxy.dropped, 1);
      assert.equal(retries.length, 1);
      assert.ok(
        retries[0]!.error instanceof AirOrderConnectionError,
        `a connection error, got ${retries[0]!.error.name}`,
      );
      assert.equal(retries[0]!.error.code, 'CONNECTION_ERROR');
      assert.equal(retries[0]!.error.requestId, undefined, 'no response arrived');

      // Both attempts went through the proxy with one and the same key.
      const keys = proxy.idempotencyKeys();
      assert.equal(keys.length, 2);
      assert.match(keys[0]!, UUID);
      assert.deepEqual(keys, [result.idempotencyKey, result.idempotencyKey]);

      assert.equal(result.attempts, 2);
      assert.equal(result.replayed, true, 'Idempotent-Replayed: the retry was not applied again');
      assert.equal(result.items[0]!.status, 'SUCCESS');
      assert.equal(result.items[0]!.refund.amountMinor, 57050);
      assert.deepEqual(
        (await refundRows(service, 'RT-DROP')).map((row) => [row.ticket_number, row.amount_minor]),
        [['2201234580006', 57050]],
      );

      // The service processed it once (the dropped response) and replayed it once.
      const lines = service.logs.filter(
        (line) => line.msg === 'request' && line.operation === 'AirOrderInvoluntaryCancel' && line.agency === 'RT6',
      );
      assert.deepEqual(
        lines.map((line) => line.code),
        ['OK', 'REPLAYED'],
      );
      assert.equal(lines[0]!.requestId, result.requestId, 'the replay carries the request id of the processed attempt');

      // What every request carried.
      assert.deepEqual(
        proxy.headerValues('authorization').map((value) => value.replace(/aot_\S+/, 'aot_…')),
        ['Bearer aot_…', 'Bearer aot_…'],
      );
      assert.deepEqual(proxy.headerValues('content-type'), ['application/json', 'application/json']);
      assert.deepEqual(proxy.headerValues('accept-encoding'), ['gzip, deflate, br', 'gzip, deflate, br']);
      for (const agent of proxy.headerValues('user-agent')) {
        assert.equal(agent, `airorder-client-node/${VERSION} node/${process.version} bluesky/1.0`);
      }
    } finally {
      await proxy.close();
    }
  });

  test('the same for a voluntary cancel: one cancellation, the retry replayed', async () => {
    const proxy = await startDroppingProxy(service.baseUrl, 1);
    try {
      await service.importOrders([simpleOrder('RT-DROP2', 'RT6', 'RTG001', '2201234580007')]);
      const client = await clientFor(service, 'RT6', { baseUrl: proxy.baseUrl });
      const result = await client.cancel({
        orderId: 'RT-DROP2',
        bookingReferences: ['RTG001'],
        idempotencyKey: 'cancel-RT-DROP2',
      });
      assert.equal(result.attempts, 2);
      assert.equal(result.replayed, true);
      assert.deepEqual(proxy.idempotencyKeys(), ['cancel-RT-DROP2', 'cancel-RT-DROP2']);
      assert.deepEqual(
        result.items.map((item) => [item.status, item.bookingStatus]),
        [['SUCCESS', 'CANCELED']],
      );
    } finally {
      await proxy.close();
    }
  });

  test('with every response dropped, the call ends in AirOrderConnectionError after 1 + maxRetries attempts, all with one key', async () => {
    const proxy = await startDroppingProxy(service.baseUrl, 10);
    try {
      await service.importOrders([simpleOrder('RT-DROP3', 'RT6', 'RTH001', '2201234580008')]);
      const client = await clientFor(service, 'RT6', { baseUrl: proxy.baseUrl, maxRetries: 2 });
      await assert.rejects(client.cancel({ orderId: 'RT-DROP3', bookingReferences: ['RTH001'] }), (error: unknown) => {
        assert.ok(error instanceof AirOrderConnectionError);
        assert.equal(error.attempts, 3);
        assert.equal(error.status, undefined);
        assert.deepEqual(proxy.idempotencyKeys(), [error.idempotencyKey, error.idempotencyKey, error.idempotencyKey]);
        return true;
      });
      assert.equal(proxy.dropped, 3);
    } finally {
      await proxy.close();
    }
  });

  test('connection refused is retried, then AirOrderConnectionError', async () => {
    const proxy = await startDroppingProxy(service.baseUrl, 0);
    const deadUrl = proxy.baseUrl;
    await proxy.close();
    const retries: RetryInfo[] = [];
    const client = new AirOrderClient({
      baseUrl: deadUrl,
      token: 'aot_x',
      maxRetries: 1,
      initialRetryDelayMs: 10,
      onRetry: (info) => retries.push(info),
    });
    await assert.rejects(
      client.acceptInvoluntaryChange({ orderId: 'X-1', bookingReferences: ['ABCDE1'] }),
      (error: unknown) => {
        assert.ok(error instanceof AirOrderConnectionError);
        assert.equal(error.code, 'CONNECTION_ERROR');
        assert.equal(error.attempts, 2);
        assert.match(error.message, /ECONNREFUSED/);
        return true;
      },
    );
    assert.equal(retries.length, 1);
  });

  test('a time-out per attempt: AirOrderTimeoutError after the retries, with the Idempotency-Key to learn the outcome later', async () => {
    const held = await startTestService({ env: { REQUEST_TIMEOUT_MS: '5000' } });
    try {
      const client = await clientFor(held, 'RT7', { timeoutMs: 150, maxRetries: 1 });
      await held.importOrders([simpleOrder('RT-SLOW', 'RT7', 'RTI001', '2201234580009')]);
      const hold = holdWriteLock(held);
      let key: string | undefined;
      try {
        await assert.rejects(client.cancel({ orderId: 'RT-SLOW', bookingReferences: ['RTI001'] }), (error: unknown) => {
          assert.ok(error instanceof AirOrderTimeoutError);
          assert.ok(error instanceof AirOrderConnectionError);
          assert.equal(error.code, 'TIMEOUT');
          assert.equal(error.attempts, 2);
          key = error.idempotencyKey;
          return true;
        });
      } finally {
        hold.release();
      }
      const later = await client.cancel({ orderId: 'RT-SLOW', bookingReferences: ['RTI001'], idempotencyKey: key! });
      assert.equal(
        later.replayed,
        true,
        'the attempts that timed out were applied once; the call with their key replays it',
      );
      assert.deepEqual(
        later.items.map((item) => [item.status, item.bookingStatus]),
        [['SUCCESS', 'CANCELED']],
      );
    } finally {
      await held.close();
    }
  });

  test("the caller's AbortSignal stops the call, including a wait between retries", async () => {
    const limited = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } });
    try {
      const client = await clientFor(limited, 'RT8');
      await limited.importOrders([simpleOrder('RT-ABORT', 'RT8', 'RTJ001', '2201234580010')]);
      await client.cancel({ orderId: 'RT-ABORT', bookingReferences: ['RTJ001'] });
      const controller = new AbortController();
      const started = Date.now();
      const call = client.cancel({ orderId: 'RT-ABORT', bookingReferences: ['RTJ001'] }, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('caller gave up')), 200);
      await assert.rejects(call, /caller gave up/);
      assert.ok(Date.now() - started < 900, 'did not sit out the Retry-After');
    } finally {
      await limited.close();
    }
  });
});
