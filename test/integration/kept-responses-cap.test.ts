/**
 * docs/contract.md §8.1 and docs/security.md: an agency keeps at most KEPT_RESPONSES_PER_AGENCY
 * responses under Idempotency-Keys within their 24 hours. Past the cap a request under a new key is
 * answered 429 IDEMPOTENCY_KEYS_EXHAUSTED in the operation's envelope, with Retry-After until the
 * agency's oldest kept response expires, and nothing of it is done; a key already kept is still
 * answered, and a request without a key is served as ever. Runs on the store named by TEST_STORE,
 * with a cap of 3 (10 for the requests sent at once) and an injected clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import { bookingState } from '../helpers/booking-state.js';
import { bearer, simpleOrder } from '../helpers/documents.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import {
  OPERATION_CASES,
  assertFailureEnvelope,
  snapshotStore,
  type OperationCase,
  type SenderBlock,
} from '../helpers/wire-checks.js';

const CANCEL = OPERATION_CASES[0] as OperationCase;
const HOUR = 3_600_000;
/** Unknown to every order: a cancel of them changes nothing and keeps a response of about 5 kB. */
const UNKNOWN = Array.from({ length: 20 }, (_, index) => `ZZ${String(index).padStart(4, '0')}`);

function senderOf(agencyId: string): SenderBlock {
  return { Name: `Agency ${agencyId}`, IATA_Number: '', AgencyID: agencyId, Contacts: { Contact: [] } };
}

function keyed(token: string, key: string): Record<string, string> {
  return { ...bearer(token), 'idempotency-key': key };
}

/** The agency's kept responses, by key, and its count as the store keeps it. */
async function keptOf(service: TestService, agencyId: string): Promise<{ keys: string[]; count: number }> {
  const rows = await service.store.db
    .selectFrom('idempotency_keys')
    .select('idempotency_key')
    .where('agency_id', '=', agencyId)
    .orderBy('idempotency_key')
    .execute();
  const counted = await service.store.db
    .selectFrom('kept_response_counts')
    .select('kept')
    .where('agency_id', '=', agencyId)
    .executeTakeFirst();
  return { keys: rows.map((row) => row.idempotency_key), count: Number(counted?.kept ?? 0) };
}

function assertNoErrorLines(service: TestService): void {
  const lines = service.logs.filter((line) => Number(line.level) >= 50);
  assert.deepEqual(lines, [], 'no line at error level');
}

describe('kept responses per agency (a cap of 3, on an injected clock)', () => {
  let service: TestService;
  let token: string;
  const start = Date.parse('2026-11-25T10:00:00.000Z');
  let nowMs = start;
  before(async () => {
    service = await startTestService({
      clock: () => new Date(nowMs).toISOString(),
      env: { KEPT_RESPONSES_PER_AGENCY: '3' },
    });
    token = await service.tokenFor('KCA');
    await service.importOrders([
      simpleOrder('KC-1', 'KCA', 'KCR001', '2201234530001'),
      simpleOrder('KC-2', 'KCA', 'KCR002', '2201234530002'),
      simpleOrder('KC-3', 'KCA', 'KCR003', '2201234530003'),
      simpleOrder('KC-4', 'KCA', 'KCR004', '2201234530004'),
    ]);
  });
  after(() => service.close());

  const unknownCancel = (key: string) => service.post(CANCEL.path, CANCEL.build('KC-1', UNKNOWN), keyed(token, key));

  test('three new keys are kept; a fourth is 429 IDEMPOTENCY_KEYS_EXHAUSTED with Retry-After until the oldest expires, in the envelope, and nothing of it is done', async () => {
    for (const [hour, key] of [
      [0, 'k1'],
      [1, 'k2'],
      [2, 'k3'],
    ] as const) {
      nowMs = start + hour * HOUR;
      const kept = await unknownCancel(key);
      assert.equal(kept.status, 200, kept.text);
    }

    nowMs = start + 3 * HOUR;
    const before = await snapshotStore(service);
    const refused = await service.post(CANCEL.path, CANCEL.build('KC-2', ['KCR002']), keyed(token, 'k4'));
    assertFailureEnvelope(refused, CANCEL, {
      status: 429,
      code: 'IDEMPOTENCY_KEYS_EXHAUSTED',
      sender: senderOf('KCA'),
      orderId: 'KC-2',
      references: ['KCR002'],
    });
    // k1 was kept at the start and lives 24 hours: it expires 21 hours from now.
    assert.equal(refused.headers.get('retry-after'), String(21 * 3600));
    assert.equal(refused.headers.get('idempotent-replayed'), null);
    assert.equal((await bookingState(service, 'KC-2', 'KCR002')).status, 'CONFIRMED', 'nothing cancelled');
    assert.deepEqual(await snapshotStore(service), before);
    assert.deepEqual(await keptOf(service, 'KCA'), { keys: ['k1', 'k2', 'k3'], count: 3 });

    // A new key is refused on every operation alike, and again as long as nothing expires.
    const again = await service.post(CANCEL.path, CANCEL.build('KC-2', ['KCR002']), keyed(token, 'k4'));
    assert.equal(again.status, 429);
    assert.equal((await bookingState(service, 'KC-2', 'KCR002')).status, 'CONFIRMED');
    assertNoErrorLines(service);
  });

  test('at the cap, a key already kept is still answered with its response, and a request without a key is served and keeps nothing', async () => {
    nowMs = start + 4 * HOUR;
    const first = await unknownCancel('k5-never-kept');
    assert.equal(first.status, 429);
    const replay = await unknownCancel('k2');
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const reused = await service.post(CANCEL.path, CANCEL.build('KC-2', ['KCR002']), keyed(token, 'k2'));
    assert.equal(reused.status, 422, 'the same key with another body is still IDEMPOTENCY_KEY_REUSED');

    const unkeyed = await service.post(CANCEL.path, CANCEL.build('KC-3', ['KCR003']), bearer(token));
    assert.equal(unkeyed.status, 200, unkeyed.text);
    assert.equal((await bookingState(service, 'KC-3', 'KCR003')).status, 'CANCELED');
    assert.deepEqual(await keptOf(service, 'KCA'), { keys: ['k1', 'k2', 'k3'], count: 3 });

    // The cap is the agency's own: another agency keeps its responses.
    const otherToken = await service.tokenFor('KCB');
    await service.importOrders([simpleOrder('KC-B1', 'KCB', 'KCB001', '2201234530101')]);
    const other = await service.post(CANCEL.path, CANCEL.build('KC-B1', ['KCB001']), keyed(otherToken, 'k4'));
    assert.equal(other.status, 200, other.text);
    assert.deepEqual(await keptOf(service, 'KCB'), { keys: ['k4'], count: 1 });
    assertNoErrorLines(service);
  });

  test('once the oldest expires a new key is kept (the expired response removed); an expired key is processed anew at the cap', async () => {
    // k1 expired a second ago: it makes room for k4, which cancels the booking it names.
    nowMs = start + 24 * HOUR + 1000;
    const kept = await service.post(CANCEL.path, CANCEL.build('KC-2', ['KCR002']), keyed(token, 'k4'));
    assert.equal(kept.status, 200, kept.text);
    assert.equal((await bookingState(service, 'KC-2', 'KCR002')).status, 'CANCELED');
    assert.deepEqual(await keptOf(service, 'KCA'), { keys: ['k2', 'k3', 'k4'], count: 3 });

    // Full again: the oldest is now k2, kept at start + 1 hour.
    const refused = await unknownCancel('k6');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), String(3600 - 1));

    // k2 expires; the same key sent again is processed anew, and takes no more room than it had.
    nowMs = start + 25 * HOUR;
    const anew = await service.post(CANCEL.path, CANCEL.build('KC-4', ['KCR004']), keyed(token, 'k2'));
    assert.equal(anew.status, 200, anew.text);
    assert.equal(anew.headers.get('idempotent-replayed'), null);
    assert.equal((await bookingState(service, 'KC-4', 'KCR004')).status, 'CANCELED');
    assert.deepEqual(await keptOf(service, 'KCA'), { keys: ['k2', 'k3', 'k4'], count: 3 });
    assertNoErrorLines(service);
  });

  test('the purge of expired responses takes them off their agency count, and frees room for new keys', async () => {
    nowMs = start + 50 * HOUR;
    const purged = await service.store.write((tx) => tx.purgeExpiredKeptResponses(new Date(nowMs).toISOString()));
    assert.equal(purged, 4, 'k2, k3 and k4 of KCA, k4 of KCB');
    assert.deepEqual(await keptOf(service, 'KCA'), { keys: [], count: 0 });
    assert.deepEqual(await keptOf(service, 'KCB'), { keys: [], count: 0 });
    const responses: HttpResponse[] = [];
    for (const key of ['n1', 'n2', 'n3', 'n4']) responses.push(await unknownCancel(key));
    assert.deepEqual(
      responses.map((response) => response.status),
      [200, 200, 200, 429],
    );
    assert.equal(responses[3]!.headers.get('retry-after'), String(24 * 3600));
    assertNoErrorLines(service);
  });
});

describe('kept responses per agency: a count that went wrong', () => {
  let service: TestService;
  const start = Date.now();
  let nowMs = start;
  before(async () => {
    service = await startTestService({
      clock: () => new Date(nowMs).toISOString(),
      env: { KEPT_RESPONSES_PER_AGENCY: '3' },
    });
  });
  after(() => service.close());

  test('a count above what the agency holds (a place reserved by a process that died) is righted by the purge', async () => {
    const token = await service.tokenFor('KCW');
    await service.importOrders([simpleOrder('KC-W1', 'KCW', 'KCW001', '2201234530401')]);
    const first = await service.post(CANCEL.path, CANCEL.build('KC-W1', ['KCW001']), keyed(token, 'w1'));
    assert.equal(first.status, 200, first.text);
    // Two places taken and never given back, as a process killed between reserving and keeping leaves them.
    await runSql(service.store.db, "update kept_response_counts set kept = kept + 2 where agency_id = 'KCW'", []);
    const refused = await service.post(CANCEL.path, CANCEL.build('KC-W1', ['KCW001']), keyed(token, 'w2'));
    assert.equal(refused.status, 429, refused.text);
    await service.store.write((tx) => tx.purgeExpiredKeptResponses(new Date().toISOString()));
    assert.deepEqual(await keptOf(service, 'KCW'), { keys: ['w1'], count: 1 });
    const kept = await service.post(CANCEL.path, CANCEL.build('KC-W1', ['KCW001']), keyed(token, 'w2'));
    assert.equal(kept.status, 200, kept.text);
    assertNoErrorLines(service);
  });

  test('at the cap with a place reserved by a process that died, an expired response makes no room: refused until the next one expires', async () => {
    const token = await service.tokenFor('KCX');
    await service.importOrders([simpleOrder('KC-X1', 'KCX', 'KCX001', '2201234530501')]);
    const at = start + HOUR;
    for (const [hour, key] of [
      [0, 'x1'],
      [1, 'x2'],
      [2, 'x3'],
    ] as const) {
      nowMs = at + hour * HOUR;
      const kept = await service.post(CANCEL.path, CANCEL.build('KC-X1', UNKNOWN), keyed(token, key));
      assert.equal(kept.status, 200, kept.text);
    }
    await runSql(service.store.db, "update kept_response_counts set kept = kept + 1 where agency_id = 'KCX'", []);
    // x1 has expired: removing it leaves 3 counted, the cap, so x4 waits for x2, an hour less a second.
    nowMs = at + 24 * HOUR + 1000;
    const refused = await service.post(CANCEL.path, CANCEL.build('KC-X1', ['KCX001']), keyed(token, 'x4'));
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.headers.get('retry-after'), String(3600 - 1));
    assert.equal((await bookingState(service, 'KC-X1', 'KCX001')).status, 'CONFIRMED', 'nothing cancelled');
    assertNoErrorLines(service);
  });
});

describe('kept responses per agency: requests at once (a cap of 10)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { KEPT_RESPONSES_PER_AGENCY: '10' } });
  });
  after(() => service.close());

  test('20 requests at once under new keys, each on its own order: 10 kept and done, 10 refused with nothing done', async () => {
    const token = await service.tokenFor('KCC');
    const orders = Array.from({ length: 20 }, (_, index) => ({
      orderId: `KC-C${index}`,
      reference: `KCC${String(index).padStart(3, '0')}`,
    }));
    await service.importOrders(
      orders.map(({ orderId, reference }, index) => simpleOrder(orderId, 'KCC', reference, `22012345302${index + 10}`)),
    );
    const responses = await Promise.all(
      orders.map(({ orderId, reference }, index) =>
        service.post(CANCEL.path, CANCEL.build(orderId, [reference]), keyed(token, `at-once-${index}`)),
      ),
    );
    const statuses = responses.map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 200).length, 10, String(statuses));
    assert.equal(statuses.filter((status) => status === 429).length, 10, String(statuses));

    const kept = await keptOf(service, 'KCC');
    assert.equal(kept.keys.length, 10);
    assert.equal(kept.count, 10);
    for (const [index, { orderId, reference }] of orders.entries()) {
      const done = responses[index]!.status === 200;
      assert.equal(
        kept.keys.includes(`at-once-${index}`),
        done,
        `the key of request ${index} is kept only if it was done`,
      );
      assert.equal((await bookingState(service, orderId, reference)).status, done ? 'CANCELED' : 'CONFIRMED');
    }
    assertNoErrorLines(service);
  });

  test('ten identical requests at once under one new key: one response kept, and the count holds one place for it', async () => {
    const token = await service.tokenFor('KCD');
    await service.importOrders([simpleOrder('KC-D1', 'KCD', 'KCD001', '2201234530501')]);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        service.post(CANCEL.path, CANCEL.build('KC-D1', ['KCD001']), keyed(token, 'same-key')),
      ),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      Array(10).fill(200),
    );
    // The requests that lost the race to keep it gave back the places they had taken.
    assert.deepEqual(await keptOf(service, 'KCD'), { keys: ['same-key'], count: 1 });
    assertNoErrorLines(service);
  });
});
