/**
 * `runOperation` (src/service/order-operations.ts) called in process, as the routes and the console
 * call it, on both stores: what an operator's act stores and announces, the request's time budget,
 * and the responses kept under an Idempotency-Key (their lifetime, their replay, the agency's cap).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TimeBudget } from '../../src/runtime/time-budget.js';
import {
  KEPT_RESPONSE_TTL_MS,
  runOperation,
  type OperationRequest,
  type OperationResult,
} from '../../src/service/order-operations.js';
import { runSql } from '../../src/store/raw-sql.js';
import { change, segment, simpleOrder } from '../helpers/documents.js';
import { orderSnapshot } from '../helpers/booking-state.js';
import { settledFeed } from '../helpers/settled-feed.js';
import { refuseRecordWrites } from '../helpers/stored-records.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
let now = T0;
const clock = () => new Date(now).toISOString();
let service: TestService;
let token: string;

before(async () => {
  service = await startTestService({ clock });
  token = await service.tokenFor('AGO');
});
after(() => service?.close());

function agencyRequest(orderId: string, references: string[], extra: Partial<OperationRequest> = {}): OperationRequest {
  return {
    operation: 'cancel',
    actor: { actor: 'agency', agencyId: 'AGO', tokenId: null, requestId: 'req-agency', operation: 'AirOrderCancel' },
    orderId,
    references,
    keptResponse: null,
    ...extra,
  };
}

/** The desk's operator acting in the console, as its acts reach runOperation. */
function operatorActor(requestId: string, operation: string, reason?: string): OperationRequest['actor'] {
  return {
    actor: 'operator',
    agencyId: 'AGO',
    tokenId: null,
    requestId,
    operation,
    operatorEmail: 'desk@airline.example',
    ...(reason === undefined ? {} : { reason }),
  };
}

/** The caller's response: the items' references and whether each succeeded. */
const respond = (result: OperationResult) => ({
  status: 200,
  body: JSON.stringify(result.items.map((item) => [item.reference, item.outcome.ok])),
});

function kept(key: string, requestHash = 'hash-1') {
  return { key, requestHash, respond };
}

async function journal() {
  return runSql<{ email: string; action: string; target: string; reason: string | null }>(
    service.store.db,
    'select email, action, target, reason from operator_actions order by occurred_at, action_id',
    [],
  );
}

async function eventsOf(orderId: string) {
  return (await settledFeed(service, token, 'AGO')).filter((event) => event.Data.OrderID === orderId);
}

test("an operator's act: announced as the operator's, and the journal's row stored with it, reason and all", async () => {
  await service.importOrders([simpleOrder('ORD-O1', 'AGO', 'OPR001', '2205550000101')]);
  await service.importChanges([change('CHG-O1', 'ORD-O1', 'OPR001', ['S1'], [segment('S1B', 1, 14)])]);
  const outcome = await runOperation(service.store, clock, {
    operation: 'involuntaryAccept',
    actor: operatorActor('req-op', 'AirOrderInvoluntaryAccept', 'passenger called'),
    orderId: 'ORD-O1',
    references: ['OPR001'],
    keptResponse: null,
    operatorRecord: { action: 'change accepted', target: 'ORD-O1 OPR001' },
  });
  assert.equal(outcome.kind, 'processed');
  const events = await eventsOf('ORD-O1');
  assert.deepEqual(
    events.map((event) => [event.Type, event.Data.ResolvedBy]),
    [
      ['airline_change.detected', undefined],
      ['airline_change.resolved', 'OPERATOR'],
    ],
  );
  assert.deepEqual(await journal(), [
    { email: 'desk@airline.example', action: 'change accepted', target: 'ORD-O1 OPR001', reason: 'passenger called' },
  ]);
});

test("an operator's act that succeeds for no booking, or a journal row asked for by an agency, stores no row", async () => {
  await service.importOrders([simpleOrder('ORD-O2', 'AGO', 'OPR002', '2205550000102')]);
  const operator = operatorActor('req-op2', 'AirOrderCancel');
  const failedAct = await runOperation(service.store, clock, {
    ...agencyRequest('ORD-O2', ['NOSUCH1']),
    actor: operator,
    operatorRecord: { action: 'cancelled', target: 'ORD-O2 NOSUCH1' },
  });
  assert.equal(failedAct.kind, 'processed');
  const byAgency = await runOperation(service.store, clock, {
    ...agencyRequest('ORD-O2', ['OPR002']),
    operatorRecord: { action: 'cancelled', target: 'ORD-O2 OPR002' },
  });
  assert.equal(byAgency.kind, 'processed');
  assert.deepEqual(
    (await journal()).map((row) => row.target),
    ['ORD-O1 OPR001'],
  );
  // Without a reason given, the row says none.
  await service.importOrders([simpleOrder('ORD-O3', 'AGO', 'OPR003', '2205550000103')]);
  await runOperation(service.store, clock, {
    ...agencyRequest('ORD-O3', ['OPR003']),
    actor: operator,
    operatorRecord: { action: 'cancelled', target: 'ORD-O3 OPR003' },
  });
  assert.deepEqual((await journal()).at(-1), {
    email: 'desk@airline.example',
    action: 'cancelled',
    target: 'ORD-O3 OPR003',
    reason: null,
  });
});

test("an operator's act that succeeds for one booking of two stores its journal row", async () => {
  await service.importOrders([simpleOrder('ORD-O11', 'AGO', 'OPR011', '2205550000111')]);
  const outcome = await runOperation(service.store, clock, {
    ...agencyRequest('ORD-O11', ['NOSUCH11', 'OPR011']),
    actor: operatorActor('req-op11', 'AirOrderCancel'),
    operatorRecord: { action: 'cancelled', target: 'ORD-O11 NOSUCH11 OPR011' },
  });
  assert.equal(outcome.kind, 'processed');
  assert.deepEqual(
    outcome.kind === 'processed' && outcome.result.items.map((item) => [item.reference, item.outcome.ok]),
    [
      ['NOSUCH11', false],
      ['OPR011', true],
    ],
  );
  assert.deepEqual((await journal()).at(-1), {
    email: 'desk@airline.example',
    action: 'cancelled',
    target: 'ORD-O11 NOSUCH11 OPR011',
    reason: null,
  });
});

test('a wall clock stepped back across an action deadline between reads: the request gives up with an error, stores nothing', async () => {
  await service.importOrders([simpleOrder('ORD-O12', 'AGO', 'OPR012', '2205550000112')]);
  await service.importChanges([
    {
      ...change('CHG-O12', 'ORD-O12', 'OPR012', ['S1'], [segment('S1B', 1, 14)]),
      actionDeadline: new Date(T0 + 3_600_000).toISOString(),
    },
  ]);
  const before = await orderSnapshot(service, 'ORD-O12');
  // The request reads the deadline as passed; the consequence's own read, an hour before it: never applied.
  let reads = 0;
  const stepping = () => new Date(T0 + ((reads += 1) % 2 === 1 ? 7_200_000 : 0)).toISOString();
  await assert.rejects(runOperation(service.store, stepping, agencyRequest('ORD-O12', ['OPR012'])), (error: Error) => {
    assert.equal(error.constructor.name, 'ActionDeadlinePassed');
    return true;
  });
  assert.deepEqual(await orderSnapshot(service, 'ORD-O12'), before);
});

test("a refund operation run without its refund input is a caller's bug: it throws, and stores nothing", async () => {
  await service.importOrders([simpleOrder('ORD-O13', 'AGO', 'OPR013', '2205550000113')]);
  const before = await orderSnapshot(service, 'ORD-O13');
  for (const operation of ['refundQuote', 'refund'] as const)
    await assert.rejects(runOperation(service.store, clock, agencyRequest('ORD-O13', ['OPR013'], { operation })), {
      message: 'AirOrderRefundQuote and AirOrderRefund are run with their RefundInput',
    });
  assert.deepEqual(await orderSnapshot(service, 'ORD-O13'), before);
});

test('a request whose time budget has run out is refused and stores nothing, even with nothing to store', async () => {
  await service.importOrders([simpleOrder('ORD-O4', 'AGO', 'OPR004', '2205550000104')]);
  const before = await orderSnapshot(service, 'ORD-O4');
  for (const references of [['OPR004'], ['NOSUCH4']]) {
    const budget = new TimeBudget(60_000);
    budget.expire();
    const outcome = await runOperation(service.store, clock, agencyRequest('ORD-O4', references, { budget }));
    assert.deepEqual(outcome, { kind: 'refused', refusal: 'out-of-time' });
  }
  assert.deepEqual(await orderSnapshot(service, 'ORD-O4'), before);
});

test('a request within its budget claims its commit only when it stores something', async () => {
  await service.importOrders([simpleOrder('ORD-O5', 'AGO', 'OPR005', '2205550000105')]);
  const nothing = new TimeBudget(60_000);
  assert.equal(
    (await runOperation(service.store, clock, agencyRequest('ORD-O5', ['NOSUCH5'], { budget: nothing }))).kind,
    'processed',
  );
  assert.equal(nothing.expire(), true, 'nothing stored: no commit claimed');
  const something = new TimeBudget(60_000);
  assert.equal(
    (await runOperation(service.store, clock, agencyRequest('ORD-O5', ['OPR005'], { budget: something }))).kind,
    'processed',
  );
  assert.equal(something.expire(), false, 'a booking cancelled: the commit was claimed');
});

test('a kept response is replayed with the first request id until it expires; from its expiry on, the request is run again', async () => {
  now = T0;
  await service.importOrders([simpleOrder('ORD-O6', 'AGO', 'OPR006', '2205550000106')]);
  const request = agencyRequest('ORD-O6', ['OPR006', 'NOSUCH6'], { keptResponse: kept('key-o6') });
  const first = await runOperation(service.store, clock, request);
  assert.equal(first.kind, 'processed');
  assert.deepEqual(first.kind === 'processed' && first.kept, {
    status: 200,
    body: '[["OPR006",true],["NOSUCH6",false]]',
  });
  now = T0 + KEPT_RESPONSE_TTL_MS - 1;
  const replay = await runOperation(service.store, clock, {
    ...request,
    actor: { ...request.actor, requestId: 'req-again' },
  });
  assert.deepEqual(replay, {
    kind: 'replayed',
    response: { status: 200, body: '[["OPR006",true],["NOSUCH6",false]]' },
    originalRequestId: 'req-agency',
  });
  assert.deepEqual(await runOperation(service.store, clock, { ...request, keptResponse: kept('key-o6', 'hash-2') }), {
    kind: 'refused',
    refusal: 'idempotency-key-reused',
  });
  now = T0 + KEPT_RESPONSE_TTL_MS;
  const again = await runOperation(service.store, clock, { ...request, keptResponse: kept('key-o6', 'hash-2') });
  assert.equal(again.kind, 'processed');
  now = T0;
});

test('a kept response without a request id replays an empty one', async () => {
  await service.importOrders([simpleOrder('ORD-O7', 'AGO', 'OPR007', '2205550000107')]);
  const request = agencyRequest('ORD-O7', ['OPR007'], { keptResponse: kept('key-o7') });
  request.actor = { ...request.actor, requestId: null };
  await runOperation(service.store, clock, request);
  const replay = await runOperation(service.store, clock, request);
  assert.equal(replay.kind === 'replayed' && replay.originalRequestId, '');
});

test("past the agency's cap a new key is refused, to be retried in whole seconds, rounded up, when the oldest expires", async () => {
  await service.addAgency('AGC');
  now = T0;
  await service.importOrders([
    simpleOrder('ORD-O8', 'AGC', 'OPR008', '2205550000108'),
    simpleOrder('ORD-O9', 'AGC', 'OPR009', '2205550000109'),
  ]);
  const request = (orderId: string, reference: string, key: string): OperationRequest => ({
    ...agencyRequest(orderId, [reference], { keptResponse: kept(key), keptResponsesPerAgency: 1 }),
    actor: { actor: 'agency', agencyId: 'AGC', tokenId: null, requestId: `req-${key}`, operation: 'AirOrderCancel' },
  });
  assert.equal((await runOperation(service.store, clock, request('ORD-O8', 'OPR008', 'key-o8'))).kind, 'processed');
  const before = await orderSnapshot(service, 'ORD-O9');
  now = T0 + KEPT_RESPONSE_TTL_MS - 1_200;
  assert.deepEqual(await runOperation(service.store, clock, request('ORD-O9', 'OPR009', 'key-o9')), {
    kind: 'refused',
    refusal: 'kept-responses-exhausted',
    retryAfterSeconds: 2,
  });
  assert.deepEqual(await orderSnapshot(service, 'ORD-O9'), before);
  // Under the key already kept, the request is still answered.
  assert.equal((await runOperation(service.store, clock, request('ORD-O8', 'OPR008', 'key-o8'))).kind, 'replayed');
  now = T0;
});

test("a store that fails the change: the store's error, thrown once the change is undone, and nothing stored", async () => {
  await service.importOrders([simpleOrder('ORD-O10', 'AGO', 'OPR010', '2205550000110')]);
  const before = await orderSnapshot(service, 'ORD-O10');
  const undo = await refuseRecordWrites(
    service.store.db,
    'refuse_o10',
    "NEW.order_id = 'ORD-O10'",
    'store-refused-o10',
  );
  try {
    await assert.rejects(runOperation(service.store, clock, agencyRequest('ORD-O10', ['OPR010'])), /store-refused-o10/);
  } finally {
    await undo();
  }
  assert.deepEqual(await orderSnapshot(service, 'ORD-O10'), before);
});
