/**
 * docs/contract.md §9 (limits) and the protections around the operations: the per-token rate limit (429
 * RATE_LIMITED with Retry-After and RateLimit-* headers), the request time-out (503 UNAVAILABLE with
 * Retry-After), the 8 KiB request-header limit (431 REQUEST_HEADER_TOO_LARGE) and the security
 * headers on every response. Runs on the store named by TEST_STORE. (The 20-reference limit is
 * covered by validation.test.ts.)
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { REQUEST_ERRORS } from '../../src/errors/error-codes.js';
import { bookingState, refundRows } from '../helpers/booking-state.js';
import { bearer, change, simpleOrder } from '../helpers/documents.js';
import { holdOrder, untilWaitingForLock } from '../helpers/store-hold.js';
import { testStoreKind } from '../helpers/test-database.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import {
  OPERATION_CASES,
  asHttpResponse,
  assertFailureEnvelope,
  assertSecurityHeaders,
  assertRequestId,
  logLinesOf,
  rawRequest,
  snapshotStore,
  type SenderBlock,
} from '../helpers/wire-checks.js';
import { scaled } from '../helpers/time-scale.js';

const [CANCEL, , INVOLUNTARY_CANCEL] = OPERATION_CASES as [
  (typeof OPERATION_CASES)[0],
  (typeof OPERATION_CASES)[1],
  (typeof OPERATION_CASES)[2],
];

function senderOf(agencyId: string): SenderBlock {
  return { Name: `Agency ${agencyId}`, IATA_Number: '', AgencyID: agencyId, Contacts: { Contact: [] } };
}

/** A booking with one ticket and one pending flight cancellation: an involuntary cancel refunds 570.50. */
async function orderWithPendingChange(
  service: TestService,
  orderId: string,
  agencyId: string,
  reference: string,
  ticket: string,
) {
  await service.importOrders([simpleOrder(orderId, agencyId, reference, ticket)]);
  await service.importChanges([change(`${orderId}-C`, orderId, reference, ['S1'], [], 'FLIGHT_CANCELLATION')]);
}

// ---------------------------------------------------------------------------------------------
// Rate limit

describe('rate limit: a token bucket per token (RATE_LIMIT_PER_SECOND=2, RATE_LIMIT_BURST=3)', () => {
  let service: TestService;
  // The service's clock, moved only by the tests: the bucket refills when they say, however slow the machine.
  let now = Date.parse('2026-11-25T08:00:00.000Z');
  before(async () => {
    service = await startTestService({
      env: { RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '3' },
      clock: () => new Date(now).toISOString(),
    });
  });
  after(() => service.close());

  /** Requests sent at once, at one instant of the service's clock: a full bucket serves exactly 3 of them. */
  async function burst(count: number, send: (index: number) => Promise<HttpResponse>) {
    const responses = await Promise.all(Array.from({ length: count }, (_, index) => send(index)));
    const served = responses.filter((response) => response.status === 200);
    const limited = responses.filter((response) => response.status === 429);
    assert.equal(served.length + limited.length, count, responses.map((response) => response.text).join('\n'));
    assert.equal(served.length, 3, `a full bucket serves a burst of 3 at one instant, served ${served.length}`);
    return { responses, served, limited };
  }

  test('a burst over 3 is answered 429 RATE_LIMITED in the envelope with Retry-After and RateLimit-*; a limited request changes nothing', async () => {
    const token = await service.tokenFor('RL1');
    const orders = Array.from({ length: 8 }, (_, i) => ({
      orderId: `RL-ORD-${i}`,
      reference: `RLA00${i}`,
      ticket: `220123450000${i}`,
    }));
    for (const { orderId, reference, ticket } of orders)
      await orderWithPendingChange(service, orderId, 'RL1', reference, ticket);

    const { responses, served, limited } = await burst(orders.length, (i) =>
      service.post(
        '/AirOrderInvoluntaryCancel',
        INVOLUNTARY_CANCEL.build(orders[i]!.orderId, [orders[i]!.reference.toLowerCase()]),
        bearer(token),
      ),
    );
    assert.equal(limited.length, 5, 'a burst of 8 is limited past the 3 a full bucket holds');

    for (const response of served) {
      assert.equal(response.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 570.5);
      assert.equal(response.headers.get('ratelimit-limit'), '3');
      assert.match(response.headers.get('ratelimit-remaining') ?? '', /^[0-2]$/);
      assert.match(response.headers.get('ratelimit-reset') ?? '', /^\d+$/);
      assert.match(response.headers.get('ratelimit-policy') ?? '', /^3;w=\d+$/);
      assert.equal(response.headers.get('retry-after'), null, 'a served request has no Retry-After');
    }
    assert.ok(
      served.some((response) => response.headers.get('ratelimit-remaining') === '2'),
      'the first request leaves 2 of 3',
    );

    for (const response of limited) {
      const index = responses.indexOf(response);
      const { orderId, reference } = orders[index]!;
      assertFailureEnvelope(response, INVOLUNTARY_CANCEL, {
        status: 429,
        code: 'RATE_LIMITED',
        sender: senderOf('RL1'),
        orderId,
        references: [reference],
      });
      assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.equal(response.headers.get('ratelimit-limit'), '3');
      assert.equal(response.headers.get('ratelimit-remaining'), '0');
      assert.match(response.headers.get('ratelimit-reset') ?? '', /^[1-9]\d*$/);
      assert.match(response.headers.get('ratelimit-policy') ?? '', /^3;w=\d+$/);
      assertSecurityHeaders(response.headers, 'a 429');
      // Nothing of the limited request happened.
      assert.equal((await bookingState(service, orderId, reference)).status, 'CONFIRMED');
      assert.deepEqual(await refundRows(service, orderId), []);
      assert.deepEqual(
        await service.store.db
          .selectFrom('audit_events')
          .select('event')
          .where('order_id', '=', orderId)
          .where('actor', '=', 'agency')
          .execute(),
        [],
      );
    }

    // After the delay Retry-After names, the token is served again (the bucket refills at 2/s).
    const retryAfter = Number(limited[0]!.headers.get('retry-after'));
    const { orderId, reference } = orders[responses.indexOf(limited[0]!)]!;
    assert.equal(retryAfter, 1, 'one token comes back in half a second: Retry-After in whole seconds says 1');
    now += 499;
    const early = await service.post(
      '/AirOrderInvoluntaryCancel',
      INVOLUNTARY_CANCEL.build(orderId, [reference]),
      bearer(token),
    );
    assert.equal(early.status, 429, 'before half a second the token is still limited');
    now += retryAfter * 1000 - 499;
    const again = await service.post(
      '/AirOrderInvoluntaryCancel',
      INVOLUNTARY_CANCEL.build(orderId, [reference]),
      bearer(token),
    );
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 570.5);
    assert.equal(again.headers.get('ratelimit-limit'), '3');
    assert.equal((await refundRows(service, orderId)).length, 1);
  });

  test('two tokens have separate buckets, even of one agency', async () => {
    const first = await service.tokenFor('RL2');
    const second = await service.tokenFor('RL2');
    const other = await service.tokenFor('RL3');
    await service.importOrders([
      simpleOrder('RL-ORD-A', 'RL2', 'RLB001', '2201234500101'),
      simpleOrder('RL-ORD-B', 'RL3', 'RLC001', '2201234500102'),
    ]);

    const exhausted = await burst(10, () =>
      service.post('/AirOrderCancel', CANCEL.build('RL-ORD-A', ['NOPE01']), bearer(first)),
    );
    assert.equal(exhausted.limited.length, 7);
    // The first token's bucket is empty; the agency's second token and another agency's token start full.
    for (const [token, orderId] of [
      [second, 'RL-ORD-A'],
      [other, 'RL-ORD-B'],
    ] as const) {
      const responses: HttpResponse[] = [];
      for (let i = 0; i < 3; i++)
        responses.push(await service.post('/AirOrderCancel', CANCEL.build(orderId, ['NOPE01']), bearer(token)));
      assert.deepEqual(
        responses.map((response) => response.status),
        [200, 200, 200],
      );
      assert.equal(responses[0]!.headers.get('ratelimit-remaining'), '2');
    }
  });

  test('a token idle for an hour is served 3 requests at once, not more', async () => {
    const token = await service.tokenFor('RL5');
    await service.importOrders([simpleOrder('RL-ORD-E', 'RL5', 'RLF001', '2201234500104')]);
    const send = () => service.post('/AirOrderCancel', CANCEL.build('RL-ORD-E', ['NOPE01']), bearer(token));
    assert.equal((await send()).status, 200);
    now += 3_600_000;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send()).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });

  test('the three operations draw on the same bucket of their token', async () => {
    const token = await service.tokenFor('RL4');
    await service.importOrders([simpleOrder('RL-ORD-C', 'RL4', 'RLD001', '2201234500103')]);
    // Three of each: with a bucket per operation all nine would be served.
    const { responses, limited } = await burst(9, (i) => {
      const operation = OPERATION_CASES[i % 3]!;
      return service.post(operation.path, operation.build('RL-ORD-C', ['NOPE01']), bearer(token));
    });
    assert.equal(limited.length, 6, 'nine requests over three operations: 3 served, the other 6 limited');
    for (const response of limited) {
      const operation = OPERATION_CASES[responses.indexOf(response) % 3]!;
      assertFailureEnvelope(response, operation, {
        status: 429,
        code: 'RATE_LIMITED',
        sender: senderOf('RL4'),
        orderId: 'RL-ORD-C',
        references: ['NOPE01'],
      });
    }
  });
});

for (const [setting, env] of [
  ['RATE_LIMIT_PER_SECOND=0', { RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_BURST: '3' }],
  ['RATE_LIMIT_BURST=0', { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '0' }],
] as const) {
  describe(`rate limit off: ${setting}`, () => {
    let service: TestService;
    before(async () => {
      service = await startTestService({ env });
    });
    after(() => service.close());

    test('many requests at once are all served, without RateLimit-* headers', async () => {
      const token = await service.tokenFor('RL0');
      await service.importOrders([simpleOrder('RL0-ORD', 'RL0', 'RLE001', '2201234500006')]);
      const responses = await Promise.all(
        Array.from({ length: 30 }, () =>
          service.post('/AirOrderCancel', CANCEL.build('RL0-ORD', ['NOPE01']), bearer(token)),
        ),
      );
      for (const response of responses) {
        assert.equal(response.status, 200, response.text);
        for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) {
          assert.equal(response.headers.get(name), null, `${name} with rate limiting off`);
        }
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Request time-out

describe('request time-out (REQUEST_TIMEOUT_MS=300 times TEST_TIME_SCALE)', () => {
  let service: TestService;
  before(async () => {
    // The time-out is the window in which the test sees the request wait and /healthz answer: its
    // length is not what is asserted (test/unit/with-timeout.test.ts does that), so it scales.
    service = await startTestService({ env: { REQUEST_TIMEOUT_MS: String(scaled(300)) } });
  });
  after(() => service.close());

  test('a request kept waiting by a busy store is answered 503 UNAVAILABLE with Retry-After at the time-out; the service keeps answering', async () => {
    const token = await service.tokenFor('TO1');
    await orderWithPendingChange(service, 'TO-ORD-1', 'TO1', 'TOA001', '2201234500011');

    const hold = await holdOrder(service, 'TO-ORD-1');
    let timedOut: HttpResponse;
    try {
      let answered = false;
      const pending = service
        .post('/AirOrderInvoluntaryCancel', INVOLUNTARY_CANCEL.build('TO-ORD-1', ['TOA001']), bearer(token))
        .finally(() => {
          answered = true;
        });
      // While the request waits, the process still answers: the wait does not block it. Asserted by
      // order, not duration: /healthz is answered before the waiting request is. (Waiting inside
      // SQLite's busy handler would freeze the process for the whole 5 s busy time-out, and the
      // request's 503 would come first.)
      await untilWaitingForLock(service);
      assert.equal(answered, false, 'the request waits for the store before it is answered');
      const health = await service.request('/healthz', { method: 'GET' });
      assert.equal(health.status, 200);
      assert.equal(answered, false, '/healthz answered while a request waited for the store');

      // Answered while the store is still held: the time-out ended the wait, not the store's release.
      // How long the time-out is, to the millisecond, is test/unit/with-timeout.test.ts's concern.
      timedOut = await pending;
      assertFailureEnvelope(timedOut, INVOLUNTARY_CANCEL, {
        status: 503,
        code: 'UNAVAILABLE',
        sender: senderOf('TO1'),
        orderId: 'TO-ORD-1',
        references: ['TOA001'],
      });
      assert.match(timedOut.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assertSecurityHeaders(timedOut.headers, 'a 503');
      // The operator learns of it from a warning, not an error: the service did not fail.
      const warned = service.logs.filter((line) => line.msg === 'store unavailable');
      assert.deepEqual(
        warned.map((line) => [line.level, typeof line.cause]),
        [[40, 'string']],
      );
      assert.deepEqual(
        service.logs.filter((line) => (line.level as number) >= 50),
        [],
      );
    } finally {
      await hold.release();
    }
    // The 503 said the item failed, and it did: the work that resumes once the store is free rolls
    // back. A retry, which waits for that work's lock, is the one that cancels and refunds, once.
    const retry = await service.post(
      '/AirOrderInvoluntaryCancel',
      INVOLUNTARY_CANCEL.build('TO-ORD-1', ['TOA001']),
      bearer(token),
    );
    assert.equal(retry.status, 200, retry.text);
    assert.deepEqual(
      (await refundRows(service, 'TO-ORD-1')).map((row) => [row.ticket_number, row.amount_minor]),
      [['2201234500011', 57050]],
    );
    const audited = await service.store.db
      .selectFrom('audit_events')
      .select(['event', 'request_id'])
      .where('order_id', '=', 'TO-ORD-1')
      .where('actor', '=', 'agency')
      .execute();
    assert.ok(audited.some((row) => row.event === 'TICKET_REFUNDED'));
    assert.deepEqual(
      audited.map((row) => row.request_id),
      audited.map(() => assertRequestId(retry)),
      'only the retry changed anything',
    );
    assert.notEqual(assertRequestId(retry), assertRequestId(timedOut));
  });

  test('the timed-out work commits nothing, not even its kept response: a retry with the same Idempotency-Key is processed anew', async () => {
    const token = await service.tokenFor('TO2');
    await orderWithPendingChange(service, 'TO-ORD-2', 'TO2', 'TOB001', '2201234500012');
    const headers = { ...bearer(token), 'idempotency-key': 'timeout-retry-1' };

    const hold = await holdOrder(service, 'TO-ORD-2');
    let timedOut: HttpResponse;
    try {
      const pending = service.post(
        '/AirOrderInvoluntaryCancel',
        INVOLUNTARY_CANCEL.build('TO-ORD-2', ['TOB001']),
        headers,
      );
      // It waits for the lock before the retry below is sent, so it is first in line when the lock goes.
      await untilWaitingForLock(service);
      timedOut = await pending;
      assert.equal(timedOut.status, 503, timedOut.text);
    } finally {
      await hold.release();
    }
    const firstId = assertRequestId(timedOut);

    // The retry waits for the first request's transaction if it is still running; that one kept
    // nothing, so the retry is not a replay but the request done for the first time.
    const retry = await service.post(
      '/AirOrderInvoluntaryCancel',
      INVOLUNTARY_CANCEL.build('TO-ORD-2', ['TOB001']),
      headers,
    );
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    const retryId = assertRequestId(retry);
    assert.notEqual(retryId, firstId);
    assert.deepEqual(retry.body.OrderInvoluntaryCancelRS.Result[0].RefundPaxWiseFare, [
      { TicketNumber: '2201234500012', Amount: 570.5 },
    ]);
    assert.deepEqual(
      (await refundRows(service, 'TO-ORD-2')).map((row) => [row.ticket_number, row.amount_minor]),
      [['2201234500012', 57050]],
    );
    const audited = await service.store.db
      .selectFrom('audit_events')
      .select(['event', 'request_id'])
      .where('order_id', '=', 'TO-ORD-2')
      .where('actor', '=', 'agency')
      .execute();
    assert.ok(audited.some((row) => row.event === 'TICKET_REFUNDED'));
    assert.deepEqual(
      audited.map((row) => row.request_id),
      audited.map(() => retryId),
      'the audit trail names the request that did the work',
    );

    // From now on the key replays the retry's response.
    const again = await service.post(
      '/AirOrderInvoluntaryCancel',
      INVOLUNTARY_CANCEL.build('TO-ORD-2', ['TOB001']),
      headers,
    );
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.headers.get('x-request-id'), retryId);
  });

  test(
    "SQLite: another process holding the write lock for longer than SQLite's busy time-out (5 s): the request waits as long as its own time allows, and is served once the lock is free",
    {
      skip:
        testStoreKind() === 'sqlite'
          ? false
          : 'SQLite only: PostgreSQL locks rows, and its lock waits end at the statement time-out',
    },
    async () => {
      // A request time-out well past the 5 s that a write once waited for the lock before SQLITE_BUSY.
      const patient = await startTestService({ env: { REQUEST_TIMEOUT_MS: '20000' } });
      try {
        const token = await patient.tokenFor('TO4');
        await orderWithPendingChange(patient, 'TO-ORD-4', 'TO4', 'TOD001', '2201234500014');
        const hold = await holdOrder(patient, 'TO-ORD-4');
        let answered = false;
        let released = false;
        let response: HttpResponse;
        try {
          const pending = patient
            .post('/AirOrderInvoluntaryCancel', INVOLUNTARY_CANCEL.build('TO-ORD-4', ['TOD001']), bearer(token))
            .finally(() => {
              answered = true;
            });
          // Held past the busy time-out: the request still waits, and the process keeps answering.
          await sleep(6_000);
          assert.equal(answered, false, 'the request waits for the lock past the busy time-out');
          assert.equal((await patient.request('/healthz', { method: 'GET' })).status, 200);
          released = true;
          await hold.release();
          response = await pending;
        } finally {
          if (!released) await hold.release();
        }
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS', response.text);
        assert.equal(
          (await refundRows(patient, 'TO-ORD-4')).length,
          response.body.OrderInvoluntaryCancelRS.Result[0].RefundPaxWiseFare.length,
          'the refund is stored',
        );
      } finally {
        await patient.close();
      }
    },
  );

  test('a request that does not wait is not affected by the time-out', async () => {
    const token = await service.tokenFor('TO3');
    await orderWithPendingChange(service, 'TO-ORD-3', 'TO3', 'TOC001', '2201234500013');
    const response = await service.post(
      '/AirOrderInvoluntaryCancel',
      INVOLUNTARY_CANCEL.build('TO-ORD-3', ['TOC001']),
      bearer(token),
    );
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.OrderInvoluntaryCancelRS.Success, {});
  });
});

// ---------------------------------------------------------------------------------------------
// Receive time-out

/**
 * Opens a connection and writes `pieces` to it, `gapMs` apart (the last one is followed by silence).
 * Resolves once the server has closed the connection, with what it sent and how many pieces had been
 * written by then.
 */
function sendInPieces(
  port: number,
  pieces: string[],
  gapMs: number,
): Promise<{ status: number; headers: Headers; body: string; piecesWritten: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    let piecesWritten = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after ${scaled(10_000)} ms; received: ${received}`));
    }, scaled(10_000));
    socket.on('connect', async () => {
      for (const [index, piece] of pieces.entries()) {
        if (index > 0) await sleep(gapMs);
        if (socket.destroyed || !socket.writable) return;
        socket.write(piece);
        piecesWritten += 1;
      }
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
    });
    // Writing to a connection the server has just closed may fail; 'close' follows either way.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers();
      for (const line of lines)
        headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0), headers, body, piecesWritten });
    });
  });
}

describe('receive time-out (RECEIVE_TIMEOUT_MS=1000)', () => {
  let service: TestService;
  let port: number;
  let token: string;
  before(async () => {
    service = await startTestService({ env: { RECEIVE_TIMEOUT_MS: '1000' } });
    port = Number(new URL(service.baseUrl).port);
    token = await service.tokenFor('RT1');
    await service.importOrders([simpleOrder('RT-ORD-1', 'RT1', 'RTA001', '2201234500031')]);
  });
  after(() => service.close());

  const body = JSON.stringify(CANCEL.build('RT-ORD-1', ['RTA001']));
  const head = (contentLength: number) =>
    `POST /AirOrderCancel HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Authorization: Bearer ${token}\r\nConnection: close\r\nContent-Length: ${contentLength}\r\n\r\n`;

  const incomplete: [string, () => string[], number][] = [
    // Content-Length 200, 81 bytes sent, then silence.
    ['a body that stops arriving', () => [head(200) + body.slice(0, 81)], 0],
    // Never silent for more than 150 ms, yet never done: the limit is on the whole request.
    [
      'a body sent a few bytes at a time, never in full in time',
      () => [head(body.length), ...Array.from({ length: 30 }, (_, i) => body.slice(i * 3, i * 3 + 3))],
      150,
    ],
    ['headers that stop arriving', () => [head(body.length).slice(0, 60)], 0],
  ];
  for (const [what, pieces, gapMs] of incomplete) {
    test(`${what}: 408 REQUEST_TIMEOUT at the time-out, in the plain form, with X-Request-Id, security headers and a log line; nothing is processed`, async () => {
      const before = await snapshotStore(service);
      const response = await sendInPieces(port, pieces(), gapMs);
      assert.equal(response.status, 408, response.body);
      // The time-out, not the client, ended it: answered before the client had written all it meant
      // to (or, when it fell silent, at all), on a server whose limits are the setting's 1 s.
      if (gapMs > 0)
        assert.ok(
          response.piecesWritten < pieces().length,
          `answered after all ${response.piecesWritten} pieces: the limit is on the whole request`,
        );
      const server = service.app.server;
      assert.deepEqual([server.requestTimeout, server.headersTimeout], [1000, 1000]);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(JSON.parse(response.body), {
        Errors: [{ Code: 'REQUEST_TIMEOUT', Message: REQUEST_ERRORS.REQUEST_TIMEOUT.message }],
      });
      assertSecurityHeaders(response.headers, 'a 408');
      const requestId = response.headers.get('x-request-id');
      assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
      const lines = await logLinesOf(service, requestId!);
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.deepEqual(
        { code: lines[0]!.code, status: lines[0]!.status, msg: lines[0]!.msg },
        { code: 'REQUEST_TIMEOUT', status: 408, msg: 'request' },
      );
      assert.deepEqual(await snapshotStore(service), before);
    });
  }

  test('a slow client that sends the whole request within the time-out is served', async () => {
    const third = Math.ceil(body.length / 3);
    const response = await sendInPieces(
      port,
      [head(body.length) + body.slice(0, third), body.slice(third, 2 * third), body.slice(2 * third)],
      200,
    );
    assert.equal(response.status, 200, response.body);
    assert.equal(JSON.parse(response.body).OrderViewRS.Response[0].BookingStatus, 'CANCELED');
  });

  test('by default the time-out is 30 s for the whole request and 10 s for its headers, looked for every second', async () => {
    const defaults = await startTestService();
    try {
      const server = defaults.app.server as typeof defaults.app.server & { connectionsCheckingInterval: number };
      // A headers' time-out longer than the request's (Node's 60 s) would make Node use the longer one for both.
      assert.deepEqual(
        [server.requestTimeout, server.headersTimeout, server.connectionsCheckingInterval, server.keepAliveTimeout],
        [30_000, 10_000, 1_000, 72_000],
      );
    } finally {
      await defaults.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Header limit and security headers

describe('request headers over 8 KiB, and security headers on every response', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    service = await startTestService();
    token = await service.tokenFor('HL1');
    await service.importOrders([simpleOrder('HL-ORD-1', 'HL1', 'HLA001', '2201234500021')]);
  });
  after(() => service.close());

  const body = JSON.stringify(CANCEL.build('HL-ORD-1', ['NOPE01']));

  test('headers over 8 KiB: 431 with {"Errors":[{"Code":"REQUEST_HEADER_TOO_LARGE",…}]}, and nothing is processed', async () => {
    const before = await snapshotStore(service);
    for (const operation of OPERATION_CASES) {
      const raw = await rawRequest(service.baseUrl, {
        path: operation.path,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'x-padding': 'p'.repeat(9 * 1024),
        },
        body: JSON.stringify(operation.build('HL-ORD-1', ['HLA001'])),
      });
      const response = asHttpResponse(raw);
      assert.equal(response.status, 431, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(Object.keys(response.body), ['Errors']);
      assert.equal(response.body.Errors.length, 1);
      assert.deepEqual(Object.keys(response.body.Errors[0]).sort(), ['Code', 'Message']);
      assert.equal(response.body.Errors[0].Code, 'REQUEST_HEADER_TOO_LARGE');
      assert.ok(response.body.Errors[0].Message.length > 0);
      assertSecurityHeaders(response.headers, 'a 431');
      // No route saw it, but it is still a request answered: an id, and its log line under that id.
      const requestId = response.headers.get('x-request-id');
      assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
      const lines = await logLinesOf(service, requestId!);
      assert.deepEqual(
        lines.map((line) => [line.msg, line.code, line.status]),
        [['request', 'REQUEST_HEADER_TOO_LARGE', 431]],
      );
    }
    // Many headers that only together exceed the limit are the same.
    const many: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    for (let i = 0; i < 40; i++) many[`x-padding-${i}`] = 'q'.repeat(250);
    const split = asHttpResponse(await rawRequest(service.baseUrl, { path: '/AirOrderCancel', headers: many, body }));
    assert.equal(split.status, 431, split.text);
    assert.equal(split.body.Errors[0].Code, 'REQUEST_HEADER_TOO_LARGE');
    assert.deepEqual(await snapshotStore(service), before);
  });

  test('headers under 8 KiB are served', async () => {
    const raw = await rawRequest(service.baseUrl, {
      path: '/AirOrderCancel',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-padding': 'p'.repeat(6 * 1024),
      },
      body,
    });
    const response = asHttpResponse(raw);
    assert.equal(response.status, 200, response.text);
    assertRequestId(response);
  });

  test('security headers on every kind of response', async () => {
    const responses: [string, HttpResponse][] = [];
    const post = (path: string, payload: unknown, headers: Record<string, string>) =>
      service.post(path, payload, headers);
    responses.push(['200', await post('/AirOrderCancel', body, bearer(token))]);
    responses.push([
      '200 with a success',
      await post('/AirOrderCancel', CANCEL.build('HL-ORD-1', ['HLA001']), bearer(token)),
    ]);
    responses.push(['401', await post('/AirOrderCancel', body, {})]);
    responses.push(['401 invalid', await post('/AirOrderCancel', body, bearer('aot_nonsense'))]);
    responses.push(['400 JSON', await post('/AirOrderCancel', '{"OrderCancelRQ":', bearer(token))]);
    responses.push(['400 schema', await post('/AirOrderCancel', CANCEL.build('HL-ORD-1', ['X']), bearer(token))]);
    responses.push([
      '403',
      await post(
        '/AirOrderCancel',
        CANCEL.build('HL-ORD-1', ['HLA001'], { Party: { Sender: { TravelAgencySender: { AgencyID: 'ELSE' } } } }),
        bearer(token),
      ),
    ]);
    responses.push([
      '404 order',
      await post('/AirOrderInvoluntaryAccept', OPERATION_CASES[1]!.build('NO-SUCH', ['HLA001']), bearer(token)),
    ]);
    responses.push(['404 route', await post('/Nowhere', body, bearer(token))]);
    responses.push(['400 path', await post('/AirOrderCancel%', body, bearer(token))]);
    responses.push([
      '415',
      await service.request('/AirOrderCancel', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...bearer(token) },
        body,
      }),
    ]);
    responses.push([
      '413',
      await post('/AirOrderCancel', JSON.stringify({ OrderCancelRQ: { Pad: 'x'.repeat(70 * 1024) } }), bearer(token)),
    ]);
    responses.push([
      '400 key',
      await post('/AirOrderCancel', body, { ...bearer(token), 'idempotency-key': 'k'.repeat(256) }),
    ]);
    responses.push(['GET /healthz', await service.request('/healthz', { method: 'GET' })]);
    responses.push(['GET /readyz', await service.request('/readyz', { method: 'GET' })]);
    responses.push([
      'gzip',
      await service.request('/AirOrderCancel', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', ...bearer(token) },
        body,
      }),
    ]);
    const statuses = responses.map(([what, response]) => [what, response.status]);
    assert.deepEqual(statuses, [
      ['200', 200],
      ['200 with a success', 200],
      ['401', 401],
      ['401 invalid', 401],
      ['400 JSON', 400],
      ['400 schema', 400],
      ['403', 403],
      ['404 order', 404],
      ['404 route', 404],
      ['400 path', 400],
      ['415', 415],
      ['413', 413],
      ['400 key', 400],
      ['GET /healthz', 200],
      ['GET /readyz', 200],
      ['gzip', 200],
    ]);
    for (const [what, response] of responses) assertSecurityHeaders(response.headers, what);

    const malformed = await rawRequest(service.baseUrl, {
      path: '/AirOrderCancel',
      headers: { 'content-type': 'application/json', 'content-length': 'abc' },
    });
    assert.equal(malformed.status, 400);
    assertSecurityHeaders(asHttpResponse(malformed).headers, 'a malformed request');
  });
});
