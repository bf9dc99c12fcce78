/**
 * docs/contract.md §8.1: Idempotency-Key, scoped to agency + operation. The first 200 response (status and
 * body, byte for byte) is kept for 24 hours and replayed with `Idempotent-Replayed: true`; the same
 * key with another body is 422 IDEMPOTENCY_KEY_REUSED; a duplicate sent while the first runs waits
 * for it, or gets 409 IDEMPOTENCY_KEY_IN_USE when it acts on another order. Request-level failures
 * are not kept. Runs on the store named by TEST_STORE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { bookingState, refundRows } from '../helpers/booking-state.js';
import { bearer, booking, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { socketRequest } from '../helpers/raw-socket.js';
import { holdKeptResponses, holdOrder, untilWaitingForLock } from '../helpers/store-hold.js';
import { testStoreKind } from '../helpers/test-database.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import {
  OPERATION_CASES,
  asHttpResponse,
  assertFailureEnvelope,
  assertRequestId,
  rawRequest,
  snapshotStore,
  type OperationCase,
  type RawResponse,
  type SenderBlock,
} from '../helpers/wire-checks.js';
import { scaled } from '../helpers/time-scale.js';

const [CANCEL, ACCEPT, INVOLUNTARY_CANCEL] = OPERATION_CASES as [OperationCase, OperationCase, OperationCase];

function senderOf(agencyId: string): SenderBlock {
  return { Name: `Agency ${agencyId}`, IATA_Number: '', AgencyID: agencyId, Contacts: { Contact: [] } };
}

function keyed(token: string, key: string): Record<string, string> {
  return { ...bearer(token), 'idempotency-key': key };
}

/** POST with the exact bytes of the answer (no compression, nothing added by fetch). */
function rawPost(
  service: TestService,
  path: string,
  body: object | string,
  headers: Record<string, string>,
): Promise<RawResponse> {
  return rawRequest(service.baseUrl, {
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Two tickets, one pending flight cancellation: an involuntary cancel refunds both (570.50 + 110.01). */
async function twoTicketOrder(
  service: TestService,
  orderId: string,
  agencyId: string,
  reference: string,
  tickets: [string, string],
) {
  await service.importOrders([
    order(orderId, agencyId, 'EUR', [
      booking(
        reference,
        [segment('S1')],
        [
          passenger('P1', {
            ticketNumber: tickets[0],
            baseFare: '450.00',
            taxes: '120.50',
            coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
          }),
          passenger(
            'P2',
            { ticketNumber: tickets[1], baseFare: '100.00', taxes: '10.01', coupons: [{ segmentId: 'S1' }] },
            'CHD',
          ),
        ],
      ),
    ]),
  ]);
  await service.importChanges([change(`${orderId}-C`, orderId, reference, ['S1'], [], 'FLIGHT_CANCELLATION')]);
}

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

async function keptRows(service: TestService) {
  return service.store.db
    .selectFrom('idempotency_keys')
    .select(['agency_id', 'operation', 'idempotency_key', 'response_status', 'request_id', 'created_at', 'expires_at'])
    .orderBy('agency_id')
    .orderBy('operation')
    .orderBy('idempotency_key')
    .execute();
}

async function auditRows(service: TestService, orderId?: string) {
  let query = service.store.db.selectFrom('audit_events').selectAll();
  if (orderId !== undefined) query = query.where('order_id', '=', orderId);
  return query.orderBy('event_id').execute();
}

/** Everything a request could change, including the kept responses and the audit trail. */
async function fullSnapshot(service: TestService) {
  return { ...(await snapshotStore(service)), kept: await keptRows(service), audit: await auditRows(service) };
}

function resultOf(response: HttpResponse, operation: OperationCase): any[] {
  return response.body[operation.responseRoot][operation.resultKey];
}

// Connection-level headers differ between any two responses; everything else is part of the response.
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive']);

describe('Idempotency-Key', () => {
  let service: TestService;
  let tokenA: string;
  let tokenB: string;
  before(async () => {
    service = await startTestService();
    tokenA = await service.tokenFor('IKA');
    tokenB = await service.tokenFor('IKB');
  });
  after(() => service.close());

  /** The log lines of replays of `originalId`, once `count` of them have been written. */
  async function replayLogLines(originalId: string, count: number): Promise<Record<string, unknown>[]> {
    for (const deadline = Date.now() + scaled(10_000); Date.now() < deadline;) {
      const lines = service.logs.filter((line) => line.replayOf === originalId);
      if (lines.length >= count) return lines;
      await sleep(10);
    }
    return service.logs.filter((line) => line.replayOf === originalId);
  }

  test('a repeat with the same key and body replays the first response byte for byte, with Idempotent-Replayed: true, and changes nothing', async () => {
    await twoTicketOrder(service, 'IK-ORD-1', 'IKA', 'IKR001', ['2201234510001', '2201234510002']);
    const body = INVOLUNTARY_CANCEL.build('IK-ORD-1', ['ikr001']);
    const first = await rawPost(service, INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'replay-1'));
    const firstResponse = asHttpResponse(first);
    assert.equal(first.status, 200, firstResponse.text);
    assert.equal(first.headers['idempotent-replayed'], undefined, 'the first response is not a replay');
    const firstId = assertRequestId(firstResponse);
    assert.equal(resultOf(firstResponse, INVOLUNTARY_CANCEL)[0].RefundAmount, 680.51);
    const afterFirst = await fullSnapshot(service);

    for (let repeat = 0; repeat < 3; repeat++) {
      const again = await rawPost(service, INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'replay-1'));
      assert.equal(again.status, first.status);
      assert.ok(
        again.raw.equals(first.raw),
        `the body is the first one, byte for byte:\n${again.raw.toString()}\n${first.raw.toString()}`,
      );
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.headers['x-request-id'], firstId, 'X-Request-Id is the original ShoppingResponseId');
      for (const [name, value] of Object.entries(first.headers)) {
        if (!PER_CONNECTION.has(name)) assert.deepEqual(again.headers[name], value, `header ${name} of the replay`);
      }
      const added = Object.keys(again.headers).filter((name) => !(name in first.headers) && !PER_CONNECTION.has(name));
      assert.deepEqual(added, ['idempotent-replayed']);
    }
    assert.deepEqual(await fullSnapshot(service), afterFirst, 'a replay changes nothing and records nothing');
    // Each replay has a log line of its own that names the request it repeats.
    const replayLines = await replayLogLines(firstId, 3);
    assert.equal(replayLines.length, 3, JSON.stringify(replayLines));
    for (const line of replayLines) {
      assert.equal(line.code, 'REPLAYED');
      assert.notEqual(line.requestId, firstId);
    }
    assert.deepEqual(
      (await refundRows(service, 'IK-ORD-1')).map((row) => [row.ticket_number, row.amount_minor]),
      [
        ['2201234510001', 57050],
        ['2201234510002', 11001],
      ],
    );

    // Compressed as the client asks, the replay still carries the same bytes.
    const gzip = await service.request(INVOLUNTARY_CANCEL.path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', ...keyed(tokenA, 'replay-1') },
    });
    assert.equal(gzip.status, 200);
    assert.equal(gzip.headers.get('content-encoding'), 'gzip');
    assert.equal(gzip.headers.get('idempotent-replayed'), 'true');
    assert.equal(gzip.text, first.raw.toString('utf8'));

    // Without the key the same body is a new request (a retry of the operation: same refund, new id).
    const unkeyed = await service.post(INVOLUNTARY_CANCEL.path, body, bearer(tokenA));
    assert.equal(unkeyed.status, 200);
    assert.equal(unkeyed.headers.get('idempotent-replayed'), null);
    assert.notEqual(assertRequestId(unkeyed), firstId);
    assert.deepEqual(resultOf(unkeyed, INVOLUNTARY_CANCEL), resultOf(firstResponse, INVOLUNTARY_CANCEL));
  });

  test('the same body with its keys in another order and other whitespace is the same body: replayed, not 422', async () => {
    await service.importOrders([simpleOrder('IK-ORD-R1', 'IKA', 'IKRR01', '2201234519901')]);
    const first = await service.post(CANCEL.path, CANCEL.build('IK-ORD-R1', ['IKRR01']), keyed(tokenA, 'reordered-1'));
    assert.equal(first.status, 200, first.text);
    const reordered = `{ "OrderCancelRQ" : {\n  "Query": { "GdsBookingReference": ["IKRR01"], "OrderID": "IK-ORD-R1" } } }`;
    const again = await service.request(CANCEL.path, {
      method: 'POST',
      body: reordered,
      headers: { 'content-type': 'application/json', ...keyed(tokenA, 'reordered-1') },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
    // A value that differs is still another body.
    const changed = await service.request(CANCEL.path, {
      method: 'POST',
      body: reordered.replace('IKRR01', 'IKRR02'),
      headers: { 'content-type': 'application/json', ...keyed(tokenA, 'reordered-1') },
    });
    assert.equal(changed.status, 422, changed.text);
  });

  test('a 200 whose items failed is kept too: the repeat replays it even after the state has changed', async () => {
    await service.importOrders([simpleOrder('IK-ORD-2', 'IKA', 'IKR002', '2201234510003')]);
    const body = INVOLUNTARY_CANCEL.build('IK-ORD-2', ['IKR002']);
    const first = await service.post(INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'failed-item-1'));
    assert.equal(first.status, 200);
    assert.match(resultOf(first, INVOLUNTARY_CANCEL)[0].ErrorMsg, /^NO_PENDING_CHANGE: /);

    await service.importChanges([change('IK-ORD-2-C', 'IK-ORD-2', 'IKR002', ['S1'], [], 'FLIGHT_CANCELLATION')]);
    const replay = await service.post(INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'failed-item-1'));
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, first.text);
    assert.deepEqual(await refundRows(service, 'IK-ORD-2'), [], 'the replay did not act on the new change');
    assert.equal((await bookingState(service, 'IK-ORD-2', 'IKR002')).status, 'CONFIRMED');

    const fresh = await service.post(INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'failed-item-2'));
    assert.equal(fresh.headers.get('idempotent-replayed'), null);
    assert.equal(resultOf(fresh, INVOLUNTARY_CANCEL)[0].Status, 'SUCCESS');
  });

  test('the same key with another body: 422 IDEMPOTENCY_KEY_REUSED, nothing changes, and the first body still replays', async () => {
    await service.importOrders([
      order('IK-ORD-3', 'IKA', 'EUR', [
        booking('IKR003', [segment('S1')], [passenger('P1', null)]),
        booking('IKR004', [segment('S1')], [passenger('P1', null)]),
      ]),
      simpleOrder('IK-ORD-4', 'IKA', 'IKR005', '2201234510004'),
    ]);
    const first = await service.post(CANCEL.path, CANCEL.build('IK-ORD-3', ['IKR003']), keyed(tokenA, 'reused-1'));
    assert.equal(first.status, 200);
    const before = await fullSnapshot(service);

    const others: [string, object][] = [
      ['another reference', CANCEL.build('IK-ORD-3', ['IKR004'])],
      ['more references', CANCEL.build('IK-ORD-3', ['IKR003', 'IKR004'])],
      ['another order', CANCEL.build('IK-ORD-4', ['IKR005'])],
      ['another envelope', CANCEL.build('IK-ORD-3', ['IKR003'], { Document: { Name: 'x', ReferenceVersion: '2.0' } })],
    ];
    for (const [what, body] of others) {
      const response = await service.post(CANCEL.path, body, keyed(tokenA, 'reused-1'));
      const query = (body as { OrderCancelRQ: { Query: { OrderID: string; GdsBookingReference: string[] } } })
        .OrderCancelRQ.Query;
      assertFailureEnvelope(response, CANCEL, {
        status: 422,
        code: 'IDEMPOTENCY_KEY_REUSED',
        sender: senderOf('IKA'),
        orderId: query.OrderID,
        references: query.GdsBookingReference,
        referenceVersion: what === 'another envelope' ? '2.0' : '1.0',
      });
      assert.equal(response.headers.get('idempotent-replayed'), null);
    }
    assert.deepEqual(await fullSnapshot(service), before, 'a reused key changes nothing');
    assert.equal((await bookingState(service, 'IK-ORD-3', 'IKR004')).status, 'CONFIRMED');
    assert.equal((await bookingState(service, 'IK-ORD-4', 'IKR005')).status, 'CONFIRMED');

    const replay = await service.post(CANCEL.path, CANCEL.build('IK-ORD-3', ['IKR003']), keyed(tokenA, 'reused-1'));
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, first.text);
  });

  test('10 parallel involuntary cancels with one key: the same body for all, one refund per ticket, all but one replayed', async () => {
    await twoTicketOrder(service, 'IK-ORD-5', 'IKA', 'IKR006', ['2201234510005', '2201234510006']);
    const body = INVOLUNTARY_CANCEL.build('IK-ORD-5', ['IKR006']);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => rawPost(service, INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'parallel-1'))),
    );

    for (const response of responses) {
      assert.equal(response.status, 200, response.raw.toString());
      assert.ok(response.raw.equals(responses[0]!.raw), 'every answer is the same, byte for byte');
    }
    const original = responses.filter((response) => response.headers['idempotent-replayed'] === undefined);
    const replayed = responses.filter((response) => response.headers['idempotent-replayed'] === 'true');
    assert.equal(original.length, 1, 'exactly one request was processed');
    assert.equal(replayed.length, 9);
    const id = assertRequestId(asHttpResponse(original[0]!));
    for (const response of responses) assert.equal(response.headers['x-request-id'], id);

    const item = resultOf(asHttpResponse(original[0]!), INVOLUNTARY_CANCEL)[0];
    assert.equal(item.Status, 'SUCCESS');
    assert.equal(item.RefundAmount, 680.51);
    assert.deepEqual(
      (await refundRows(service, 'IK-ORD-5')).map((row) => [row.ticket_number, row.amount_minor]),
      [
        ['2201234510005', 57050],
        ['2201234510006', 11001],
      ],
    );
    const audit = await auditRows(service, 'IK-ORD-5');
    assert.deepEqual(
      [...new Set(audit.filter((row) => row.actor === 'agency').map((row) => row.request_id))],
      [id],
      'one request changed the order',
    );
    assert.equal((await keptRows(service)).filter((row) => row.idempotency_key === 'parallel-1').length, 1);
  });

  test('a duplicate sent while the first is still running waits for it and gets its response', async () => {
    await orderWithPendingChange(service, 'IK-ORD-6', 'IKA', 'IKR007', '2201234510007');
    const body = INVOLUNTARY_CANCEL.build('IK-ORD-6', ['IKR007']);
    const hold = await holdOrder(service, 'IK-ORD-6');
    let first: Promise<RawResponse>;
    let second: Promise<RawResponse>;
    try {
      first = rawPost(service, INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'in-flight-1'));
      await untilWaitingForLock(service, 1);
      second = rawPost(service, INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'in-flight-1'));
      await untilWaitingForLock(service, 2);
    } finally {
      await hold.release();
    }
    const responses = await Promise.all([first, second]);
    for (const response of responses) assert.equal(response.status, 200, response.raw.toString());
    assert.ok(responses[1].raw.equals(responses[0].raw));
    assert.deepEqual(responses.map((response) => response.headers['idempotent-replayed']).sort(), ['true', undefined]);
    assert.equal((await refundRows(service, 'IK-ORD-6')).length, 1);
  });

  test('the same key on another order while the first request runs: 409 IDEMPOTENCY_KEY_IN_USE (or 422 once it has finished); the loser changes nothing', async () => {
    await orderWithPendingChange(service, 'IK-ORD-7', 'IKA', 'IKR008', '2201234510008');
    await orderWithPendingChange(service, 'IK-ORD-8', 'IKA', 'IKR009', '2201234510009');
    const bodies = [INVOLUNTARY_CANCEL.build('IK-ORD-7', ['IKR008']), INVOLUNTARY_CANCEL.build('IK-ORD-8', ['IKR009'])];
    const postgres = testStoreKind() === 'postgres';

    // On PostgreSQL both requests are made to reach the moment they keep their response together:
    // another connection holds the kept-responses table until both wait for it.
    const hold = postgres ? await holdKeptResponses(service) : null;
    let pending: Promise<HttpResponse>[];
    try {
      pending = bodies.map((body) => service.post(INVOLUNTARY_CANCEL.path, body, keyed(tokenA, 'two-orders-1')));
      if (hold) await untilWaitingForLock(service, 2);
    } finally {
      await hold?.release();
    }
    const responses = await Promise.all(pending);
    const winners = responses.filter((response) => response.status === 200);
    assert.equal(winners.length, 1, responses.map((response) => response.text).join('\n'));
    const winner = responses.indexOf(winners[0]!);
    const loser = 1 - winner;
    const loserResponse = responses[loser]!;
    const orderIds = ['IK-ORD-7', 'IK-ORD-8'];
    const references = ['IKR008', 'IKR009'];
    if (postgres || loserResponse.status === 409) {
      assertFailureEnvelope(loserResponse, INVOLUNTARY_CANCEL, {
        status: 409,
        code: 'IDEMPOTENCY_KEY_IN_USE',
        sender: senderOf('IKA'),
        orderId: orderIds[loser],
        references: [references[loser]!],
      });
      assert.match(loserResponse.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    } else {
      // SQLite runs one transaction at a time: the second request finds the first one finished.
      assertFailureEnvelope(loserResponse, INVOLUNTARY_CANCEL, {
        status: 422,
        code: 'IDEMPOTENCY_KEY_REUSED',
        sender: senderOf('IKA'),
        orderId: orderIds[loser],
        references: [references[loser]!],
      });
    }
    // The loser's order is untouched, and its transaction left no trace.
    assert.equal((await bookingState(service, orderIds[loser]!, references[loser]!)).status, 'CONFIRMED');
    assert.deepEqual(await refundRows(service, orderIds[loser]!), []);
    assert.deepEqual(
      (await auditRows(service, orderIds[loser])).filter((row) => row.actor === 'agency'),
      [],
    );
    assert.equal((await refundRows(service, orderIds[winner]!)).length, 1);

    // The key now belongs to the winner's request.
    const replay = await service.post(INVOLUNTARY_CANCEL.path, bodies[winner]!, keyed(tokenA, 'two-orders-1'));
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, winners[0]!.text);
    const again = await service.post(INVOLUNTARY_CANCEL.path, bodies[loser]!, keyed(tokenA, 'two-orders-1'));
    assert.equal(again.status, 422);
  });

  test('scoped per operation: one key value on the three operations is three independent keys', async () => {
    await service.importOrders([
      order('IK-ORD-9', 'IKA', 'EUR', [
        booking(
          'IKR010',
          [segment('S1')],
          [
            passenger('P1', {
              ticketNumber: '2201234510010',
              baseFare: '450.00',
              taxes: '120.50',
              coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
            }),
          ],
        ),
      ]),
    ]);
    await service.importChanges([change('IK-ORD-9-C', 'IK-ORD-9', 'IKR010', ['S1'], [segment('S1B', 1, 14)])]);

    const accept = await service.post(
      ACCEPT.path,
      ACCEPT.build('IK-ORD-9', ['IKR010']),
      keyed(tokenA, 'per-operation'),
    );
    assert.equal(accept.status, 200);
    assert.equal(accept.headers.get('idempotent-replayed'), null);
    assert.equal(resultOf(accept, ACCEPT)[0].Status, 'SUCCESS');

    // Same key, another operation: processed on its own (the change is accepted, so nothing awaits action).
    const involuntary = await service.post(
      INVOLUNTARY_CANCEL.path,
      INVOLUNTARY_CANCEL.build('IK-ORD-9', ['IKR010']),
      keyed(tokenA, 'per-operation'),
    );
    assert.equal(involuntary.status, 200, involuntary.text);
    assert.equal(involuntary.headers.get('idempotent-replayed'), null);
    assert.match(resultOf(involuntary, INVOLUNTARY_CANCEL)[0].ErrorMsg, /^NO_PENDING_CHANGE: /);

    const cancel = await service.post(
      CANCEL.path,
      CANCEL.build('IK-ORD-9', ['IKR010']),
      keyed(tokenA, 'per-operation'),
    );
    assert.equal(cancel.status, 200, cancel.text);
    assert.equal(cancel.headers.get('idempotent-replayed'), null);
    assert.equal(resultOf(cancel, CANCEL)[0].BookingStatus, 'CANCELED');
    assert.equal((await bookingState(service, 'IK-ORD-9', 'IKR010')).status, 'CANCELED');

    // Each operation replays its own first response.
    for (const [operation, first] of [
      [ACCEPT, accept],
      [INVOLUNTARY_CANCEL, involuntary],
      [CANCEL, cancel],
    ] as const) {
      const again = await service.post(
        operation.path,
        operation.build('IK-ORD-9', ['IKR010']),
        keyed(tokenA, 'per-operation'),
      );
      assert.equal(again.headers.get('idempotent-replayed'), 'true', operation.path);
      assert.equal(again.text, first.text, operation.path);
    }
    assert.deepEqual(
      (await keptRows(service))
        .filter((row) => row.idempotency_key === 'per-operation')
        .map((row) => row.operation)
        .sort(),
      ['cancel', 'involuntaryAccept', 'involuntaryCancel'],
    );
  });

  test('scoped per agency: another token of the agency gets the replay; another agency never does', async () => {
    await orderWithPendingChange(service, 'IK-ORD-A', 'IKA', 'IKR011', '2201234510011');
    await orderWithPendingChange(service, 'IK-ORD-B', 'IKB', 'IKR012', '2201234510012');
    const bodyA = INVOLUNTARY_CANCEL.build('IK-ORD-A', ['IKR011']);
    const first = await service.post(INVOLUNTARY_CANCEL.path, bodyA, keyed(tokenA, 'shared-value'));
    assert.equal(first.status, 200);
    assert.equal(resultOf(first, INVOLUNTARY_CANCEL)[0].Status, 'SUCCESS');

    const secondTokenOfA = await service.tokenFor('IKA');
    const sameAgency = await service.post(INVOLUNTARY_CANCEL.path, bodyA, keyed(secondTokenOfA, 'shared-value'));
    assert.equal(sameAgency.headers.get('idempotent-replayed'), 'true');
    assert.equal(sameAgency.text, first.text);

    // Agency B, the same key value, its own order: processed as B's own request, neither replayed nor refused.
    const own = await service.post(
      INVOLUNTARY_CANCEL.path,
      INVOLUNTARY_CANCEL.build('IK-ORD-B', ['IKR012']),
      keyed(tokenB, 'shared-value'),
    );
    assert.equal(own.status, 200, own.text);
    assert.equal(own.headers.get('idempotent-replayed'), null);
    assert.notEqual(assertRequestId(own), assertRequestId(first));
    assert.deepEqual(own.body.OrderInvoluntaryCancelRS.Party.Sender.TravelAgencySender, senderOf('IKB'));
    assert.equal(resultOf(own, INVOLUNTARY_CANCEL)[0].Status, 'SUCCESS');
    assert.equal((await refundRows(service, 'IK-ORD-B')).length, 1);
    const ownReplay = await service.post(
      INVOLUNTARY_CANCEL.path,
      INVOLUNTARY_CANCEL.build('IK-ORD-B', ['IKR012']),
      keyed(tokenB, 'shared-value'),
    );
    assert.equal(ownReplay.text, own.text, 'B replays its own response');
  });

  test("another agency sending A's order id, with A's key or any other, gets 404 exactly as for a missing order, and nothing changes", async () => {
    await orderWithPendingChange(service, 'IK-ORD-T', 'IKA', 'IKR013', '2201234510013');
    const bodyA = INVOLUNTARY_CANCEL.build('IK-ORD-T', ['IKR013']);
    const first = await service.post(INVOLUNTARY_CANCEL.path, bodyA, keyed(tokenA, 'tenant-key'));
    assert.equal(first.status, 200);
    // Another of A's orders, still untouched, probed by B as well.
    await orderWithPendingChange(service, 'IK-ORD-U', 'IKA', 'IKR014', '2201234510014');
    const before = await fullSnapshot(service);

    const probe = (orderId: string, reference: string, key: string | null) =>
      service.post(
        INVOLUNTARY_CANCEL.path,
        INVOLUNTARY_CANCEL.build(orderId, [reference]),
        key === null ? bearer(tokenB) : keyed(tokenB, key),
      );
    const probes: [string, HttpResponse][] = [
      ["A's order and A's key, A's exact body", await probe('IK-ORD-T', 'IKR013', 'tenant-key')],
      ["A's untouched order and A's key", await probe('IK-ORD-U', 'IKR014', 'tenant-key')],
      ["A's untouched order, a new key", await probe('IK-ORD-U', 'IKR014', 'b-new-key')],
      ["A's untouched order, no key", await probe('IK-ORD-U', 'IKR014', null)],
    ];
    const missing = await probe('IK-ORD-NONE', 'IKR014', 'b-missing-key');
    assertFailureEnvelope(missing, INVOLUNTARY_CANCEL, {
      status: 404,
      code: 'ORDER_NOT_FOUND',
      sender: senderOf('IKB'),
      orderId: 'IK-ORD-NONE',
      references: ['IKR014'],
    });

    const normalise = (response: HttpResponse, orderId: string) => ({
      status: response.status,
      headers: [...response.headers.keys()].filter((name) => !PER_CONNECTION.has(name)).sort(),
      body: response.text.split(assertRequestId(response)).join('<id>').split(orderId).join('<order>'),
    });
    const expected = normalise(missing, 'IK-ORD-NONE');
    for (const [what, response] of probes) {
      const orderId = response.body.OrderInvoluntaryCancelRS.Result[0].OrderID;
      assertFailureEnvelope(response, INVOLUNTARY_CANCEL, {
        status: 404,
        code: 'ORDER_NOT_FOUND',
        sender: senderOf('IKB'),
        orderId,
        references: [response.body.OrderInvoluntaryCancelRS.Result[0].GdsBookingReference[0]],
      });
      const reference = response.body.OrderInvoluntaryCancelRS.Result[0].GdsBookingReference[0];
      assert.deepEqual(
        normalise(response, orderId),
        { ...expected, body: expected.body.split('IKR014').join(reference) },
        what,
      );
      assert.equal(response.headers.get('idempotent-replayed'), null, what);
    }
    assert.deepEqual(await fullSnapshot(service), before, "B's attempts changed nothing and kept nothing");
  });

  test('request-level failures are not kept: after a 404, 400 or 403 the same key is still free', async () => {
    const cases: [string, object, object][] = [];
    // 404: the order does not exist yet; it is imported afterwards.
    const notFound = await service.post(CANCEL.path, CANCEL.build('IK-LATER', ['IKR015']), keyed(tokenA, 'after-404'));
    assert.equal(notFound.status, 404);
    // 400: an invalid reference; then the valid body.
    const invalid = await service.post(CANCEL.path, CANCEL.build('IK-ORD-V', ['X']), keyed(tokenA, 'after-400'));
    assert.equal(invalid.status, 400);
    // 403: the body names another agency; then the body without it.
    const mismatch = await service.post(
      CANCEL.path,
      CANCEL.build('IK-ORD-V', ['IKR016'], { Party: { Sender: { TravelAgencySender: { AgencyID: 'IKB' } } } }),
      keyed(tokenA, 'after-403'),
    );
    assert.equal(mismatch.status, 403);
    // 401: an unknown token.
    const unauthenticated = await service.post(
      CANCEL.path,
      CANCEL.build('IK-ORD-V', ['IKR016']),
      keyed('aot_unknown', 'after-401'),
    );
    assert.equal(unauthenticated.status, 401);
    assert.deepEqual(
      (await keptRows(service)).filter((row) => row.idempotency_key.startsWith('after-')),
      [],
    );

    await service.importOrders([
      simpleOrder('IK-LATER', 'IKA', 'IKR015', '2201234510015'),
      order('IK-ORD-V', 'IKA', 'EUR', [
        booking('IKR016', [segment('S1')], [passenger('P1', null)]),
        booking('IKR017', [segment('S1')], [passenger('P1', null)]),
      ]),
    ]);
    cases.push(['after-404', CANCEL.build('IK-LATER', ['IKR015']), { ref: 'IKR015', orderId: 'IK-LATER' }]);
    cases.push(['after-400', CANCEL.build('IK-ORD-V', ['IKR016']), { ref: 'IKR016', orderId: 'IK-ORD-V' }]);
    cases.push(['after-403', CANCEL.build('IK-ORD-V', ['IKR017']), { ref: 'IKR017', orderId: 'IK-ORD-V' }]);
    for (const [key, body, { ref, orderId }] of cases as [string, object, { ref: string; orderId: string }][]) {
      const response = await service.post(CANCEL.path, body, keyed(tokenA, key));
      assert.equal(response.status, 200, `${key}: ${response.text}`);
      assert.equal(response.headers.get('idempotent-replayed'), null, key);
      assert.equal(resultOf(response, CANCEL)[0].BookingStatus, 'CANCELED', key);
      assert.equal((await bookingState(service, orderId, ref)).status, 'CANCELED', key);
    }
    const afterUnauthenticated = await service.post(
      CANCEL.path,
      CANCEL.build('IK-ORD-V', ['IKR016']),
      keyed(tokenA, 'after-401'),
    );
    assert.equal(afterUnauthenticated.headers.get('idempotent-replayed'), null);
  });

  test('a malformed key (empty, over 255 characters, not printable ASCII) is 400 INVALID_REQUEST and changes nothing', async () => {
    await service.importOrders([simpleOrder('IK-ORD-M', 'IKA', 'IKR018', '2201234510018')]);
    const before = await fullSnapshot(service);
    const body = CANCEL.build('IK-ORD-M', ['IKR018']);
    for (const key of ['', 'k'.repeat(256), 'tab\tinside', 'caf\u00e9', 'k'.repeat(1000)]) {
      const response = asHttpResponse(
        await rawPost(service, CANCEL.path, body, { authorization: `Bearer ${tokenA}`, 'idempotency-key': key }),
      );
      assertFailureEnvelope(response, CANCEL, {
        status: 400,
        code: 'INVALID_REQUEST',
        sender: senderOf('IKA'),
        orderId: 'IK-ORD-M',
        references: ['IKR018'],
      });
      assert.match(
        response.body.OrderViewRS.Errors[0].Message,
        /Idempotency-Key/,
        `the message names the header (key ${JSON.stringify(key)})`,
      );
    }
    assert.deepEqual(await fullSnapshot(service), before);

    // The limits themselves are fine: one character, 255 characters, every printable character.
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
      .join('')
      .trim();
    for (const key of ['!', 'k'.repeat(255), printable, 'a key with spaces']) {
      const response = await service.post(CANCEL.path, body, keyed(tokenA, key));
      assert.equal(response.status, 200, `key ${JSON.stringify(key)}: ${response.text}`);
    }
    assert.equal(
      (await keptRows(service)).filter((row) =>
        ['!', 'k'.repeat(255), printable, 'a key with spaces'].includes(row.idempotency_key),
      ).length,
      4,
    );
  });

  test('a repeated Idempotency-Key header, in any case, is 400 INVALID_REQUEST and changes nothing; one key with ", " in it is a key', async () => {
    await orderWithPendingChange(service, 'IK-ORD-R', 'IKA', 'IKR019', '2201234510019');
    const before = await fullSnapshot(service);
    const body = JSON.stringify(INVOLUNTARY_CANCEL.build('IK-ORD-R', ['IKR019']));
    const port = Number(new URL(service.baseUrl).port);
    // Over a bare socket, so that each header line is sent exactly as written.
    const send = async (keys: [string, string][]) => {
      const response = await socketRequest(port, {
        path: INVOLUNTARY_CANCEL.path,
        headers: [
          ['Host', '127.0.0.1'],
          ['Content-Type', 'application/json'],
          ['Authorization', `Bearer ${tokenA}`],
          ...keys,
          ['Content-Length', String(Buffer.byteLength(body))],
        ],
        body,
      });
      assert.ok(response, 'answered');
      return asHttpResponse({ status: response.status, headers: { ...response.headers }, raw: response.raw });
    };

    const repeated: [string, string][][] = [
      [
        ['Idempotency-Key', 'x1'],
        ['Idempotency-Key', 'y1'],
      ],
      [
        ['Idempotency-Key', 'x1'],
        ['idempotency-key', 'x1'],
      ],
      [
        ['IDEMPOTENCY-KEY', 'x1, y1'],
        ['X-Client', 'between'],
        ['Idempotency-Key', 'z1'],
      ],
    ];
    for (const keys of repeated) {
      const response = await send(keys);
      assertFailureEnvelope(response, INVOLUNTARY_CANCEL, {
        status: 400,
        code: 'INVALID_REQUEST',
        sender: senderOf('IKA'),
        orderId: 'IK-ORD-R',
        references: ['IKR019'],
      });
      assert.match(
        response.body.OrderInvoluntaryCancelRS.Errors[0].Message,
        /Idempotency-Key .*sent once/,
        JSON.stringify(keys),
      );
    }
    assert.deepEqual(await fullSnapshot(service), before, 'no refund, no kept response');

    // "x1, y1" sent once is one key (what Node would make of x1 and y1 sent apart): processed, kept, replayed.
    const first = await send([['Idempotency-Key', 'x1, y1']]);
    assert.equal(first.status, 200, first.text);
    assert.equal(resultOf(first, INVOLUNTARY_CANCEL)[0].RefundAmount, 570.5);
    const again = await send([['Idempotency-Key', 'x1, y1']]);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
    assert.deepEqual(
      (await keptRows(service)).filter((row) => row.idempotency_key.startsWith('x1')).map((row) => row.idempotency_key),
      ['x1, y1'],
    );
    assert.equal((await refundRows(service, 'IK-ORD-R')).length, 1);
  });
});

describe('Idempotency-Key expiry (24 hours, on an injected clock)', () => {
  let service: TestService;
  let token: string;
  let nowMs = Date.parse('2026-11-25T10:00:00.000Z');
  const HOUR = 3_600_000;
  before(async () => {
    service = await startTestService({ clock: () => new Date(nowMs).toISOString() });
    token = await service.tokenFor('IKE');
  });
  after(() => service.close());

  test('replayed until 24 hours have passed, then processed anew and kept again', async () => {
    await service.importOrders([simpleOrder('IK-EXP-1', 'IKE', 'IKE001', '2201234520001')]);
    const body = INVOLUNTARY_CANCEL.build('IK-EXP-1', ['IKE001']);
    const start = nowMs;
    const first = await service.post(INVOLUNTARY_CANCEL.path, body, keyed(token, 'expiring'));
    assert.match(resultOf(first, INVOLUNTARY_CANCEL)[0].ErrorMsg, /^NO_PENDING_CHANGE: /);
    assert.deepEqual(
      (await keptRows(service)).map((row) => [row.idempotency_key, row.created_at, row.expires_at]),
      [['expiring', new Date(start).toISOString(), new Date(start + 24 * HOUR).toISOString()]],
    );

    await service.importChanges([change('IK-EXP-1-C', 'IK-EXP-1', 'IKE001', ['S1'], [], 'FLIGHT_CANCELLATION')]);
    nowMs = start + 24 * HOUR - 1;
    const stillKept = await service.post(INVOLUNTARY_CANCEL.path, body, keyed(token, 'expiring'));
    assert.equal(stillKept.headers.get('idempotent-replayed'), 'true');
    assert.equal(stillKept.text, first.text);
    assert.deepEqual(await refundRows(service, 'IK-EXP-1'), []);

    nowMs = start + 24 * HOUR + 1000;
    const anew = await service.post(INVOLUNTARY_CANCEL.path, body, keyed(token, 'expiring'));
    assert.equal(anew.status, 200);
    assert.equal(anew.headers.get('idempotent-replayed'), null, 'an expired key is processed anew');
    assert.notEqual(assertRequestId(anew), assertRequestId(first));
    assert.equal(resultOf(anew, INVOLUNTARY_CANCEL)[0].Status, 'SUCCESS');
    assert.equal(resultOf(anew, INVOLUNTARY_CANCEL)[0].RefundAmount, 570.5);
    assert.equal((await refundRows(service, 'IK-EXP-1')).length, 1);
    assert.deepEqual(
      (await keptRows(service)).map((row) => [row.idempotency_key, row.created_at, row.expires_at, row.request_id]),
      [['expiring', new Date(nowMs).toISOString(), new Date(nowMs + 24 * HOUR).toISOString(), assertRequestId(anew)]],
    );

    nowMs += HOUR;
    const replayOfNew = await service.post(INVOLUNTARY_CANCEL.path, body, keyed(token, 'expiring'));
    assert.equal(replayOfNew.headers.get('idempotent-replayed'), 'true');
    assert.equal(replayOfNew.text, anew.text);
  });

  test('an expired key may be used with another body', async () => {
    await service.importOrders([
      simpleOrder('IK-EXP-2', 'IKE', 'IKE002', '2201234520002'),
      simpleOrder('IK-EXP-3', 'IKE', 'IKE003', '2201234520003'),
    ]);
    const first = await service.post(CANCEL.path, CANCEL.build('IK-EXP-2', ['IKE002']), keyed(token, 'expiring-2'));
    assert.equal(first.status, 200);
    nowMs += 12 * HOUR;
    const early = await service.post(CANCEL.path, CANCEL.build('IK-EXP-3', ['IKE003']), keyed(token, 'expiring-2'));
    assert.equal(early.status, 422);
    nowMs += 13 * HOUR;
    const late = await service.post(CANCEL.path, CANCEL.build('IK-EXP-3', ['IKE003']), keyed(token, 'expiring-2'));
    assert.equal(late.status, 200, late.text);
    assert.equal(late.headers.get('idempotent-replayed'), null);
    assert.equal((await bookingState(service, 'IK-EXP-3', 'IKE003')).status, 'CANCELED');
  });
});
