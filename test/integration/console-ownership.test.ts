/**
 * The console's checks of whose a thing is, each alone, on both stores: two agencies with things of
 * the same shape (a token, a webhook endpoint, a delivery), so that only the agency differs; and an
 * act the rules refuse, with everything else about it right.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { runSql } from '../../src/store/raw-sql.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { bearer, change, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const EMAIL = 'owners@airline.example';
const PASSWORD = 'correct horse battery';
const now = Date.parse('2026-11-25T08:00:00.000Z');
let service: TestService;
/** Each agency's API token, its id, its endpoint and the event of its delivery. */
const agencies: Record<'AG-OWN' | 'AG-OTHER', { token: string; tokenId: string; endpointId: string; eventId: string }> =
  {} as never;

before(async () => {
  service = await startTestService({ clock: () => new Date(now).toISOString() });
  await addOperator(service.store, () => new Date(now).toISOString(), {
    email: EMAIL,
    name: 'Owners Desk',
    password: PASSWORD,
  });
  for (const [agencyId, n] of [
    ['AG-OWN', 1],
    ['AG-OTHER', 2],
  ] as const) {
    const token = await service.tokenFor(agencyId);
    const [row] = await runSql<{ token_id: string }>(
      service.store.db,
      'select token_id from access_tokens where agency_id = ?',
      [agencyId],
    );
    const endpointId = `wh_owner000000000${n}`;
    const eventId = `0000000000000000000000000000000${n}`;
    await runSql(
      service.store.db,
      `insert into webhook_endpoints (endpoint_id, agency_id, url, events, status, secret, created_at)
       values (?, ?, ?, '*', 'ENABLED', ?, ?)`,
      [endpointId, agencyId, `https://hooks${n}.example/in`, 'a'.repeat(64), new Date(now).toISOString()],
    );
    await runSql(
      service.store.db,
      `insert into webhook_deliveries (event_id, endpoint_id, agency_id, status, attempts, next_attempt_at, created_at)
       values (?, ?, ?, 'PENDING', 0, ?, ?)`,
      [eventId, endpointId, agencyId, new Date(now).toISOString(), new Date(now).toISOString()],
    );
    agencies[agencyId] = { token, tokenId: row!.token_id, endpointId, eventId };
  }
  await service.importOrders([
    simpleOrder('ORD-OWN-1', 'AG-OWN', 'OWN001', '2204444444441'),
    simpleOrder('ORD-OWN-2', 'AG-OWN', 'OWN002', '2204444444442'),
  ]);
  await service.importChanges([change('CHG-OWN-1', 'ORD-OWN-1', 'OWN001', ['S1'], [segment('S1B', 1, 14)])]);
});
after(() => service?.close());

async function signedIn(): Promise<ConsoleClient> {
  const browser = new ConsoleClient(service.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
  return browser;
}

async function journal(): Promise<string[][]> {
  const rows = await runSql<{ action: string; target: string }>(
    service.store.db,
    "select action, target from operator_actions where action <> 'sign in' order by occurred_at, action_id",
    [],
  );
  return rows.map((row) => [row.action, row.target]);
}

/** Whether the token opens the API. */
async function opensTheApi(token: string): Promise<boolean> {
  const response = await service.post('/AirOrderEventList', { OrderEventListRQ: {} }, bearer(token));
  assert.ok(response.status === 200 || response.status === 401, response.text);
  return response.status === 200;
}

test("an agency's page lists its own token, endpoint and delivery, and none of another agency's", async () => {
  const browser = await signedIn();
  for (const [shown, hidden] of [
    ['AG-OWN', 'AG-OTHER'],
    ['AG-OTHER', 'AG-OWN'],
  ] as const) {
    const page = await browser.request(`/console/agencies/${shown}`);
    assert.equal(page.status, 200);
    for (const id of Object.values(agencies[shown]).slice(1)) assert.ok(page.text.includes(id), `${shown}'s ${id}`);
    for (const id of Object.values(agencies[hidden]).slice(1))
      assert.ok(!page.text.includes(id), `${hidden}'s ${id} on ${shown}'s page`);
  }
});

test("revoking another agency's token from an agency's page revokes nothing and journals nothing", async () => {
  const browser = await signedIn();
  const before = await journal();
  const page = await browser.request('/console/agencies/AG-OWN');
  const foreign = await browser.request(`/console/agencies/AG-OWN/tokens/${agencies['AG-OTHER'].tokenId}/revoke`, {
    form: { _csrf: csrfOf(page.text) },
  });
  assert.equal(foreign.status, 303);
  assert.match(foreign.headers.get('location') ?? '', /notice=token-already-revoked/);
  assert.equal(await opensTheApi(agencies['AG-OTHER'].token), true);
  assert.deepEqual(await journal(), before);
});

test("the same revoke under the token's own agency revokes it and journals it", async () => {
  const browser = await signedIn();
  const before = await journal();
  const { token, tokenId } = agencies['AG-OTHER'];
  const page = await browser.request('/console/agencies/AG-OTHER');
  const own = await browser.request(`/console/agencies/AG-OTHER/tokens/${tokenId}/revoke`, {
    form: { _csrf: csrfOf(page.text) },
  });
  assert.equal(own.status, 303);
  assert.match(own.headers.get('location') ?? '', /notice=token-revoked/);
  assert.equal(await opensTheApi(token), false);
  assert.deepEqual(await journal(), [...before, ['token revoke', `AG-OTHER ${tokenId}`]]);
});

test('an accept the rules refuse (the booking has no pending change) is answered 409 and journals nothing', async () => {
  const browser = await signedIn();
  const before = await journal();
  const path = '/console/orders/ORD-OWN-2/bookings/OWN002/accept';
  const refused = await browser.submit(path, path, { reason: 'customer asked twice' });
  assert.equal(refused.status, 409, refused.text.slice(0, 300));
  assert.deepEqual(await journal(), before);
});

test('the same accept on a booking with a pending change journals it', async () => {
  const browser = await signedIn();
  const before = await journal();
  const path = '/console/orders/ORD-OWN-1/bookings/OWN001/accept';
  const accepted = await browser.submit(path, path, { reason: 'customer asked twice' });
  assert.equal(accepted.status, 303, accepted.text.slice(0, 300));
  assert.deepEqual(await journal(), [...before, ['change accepted', 'ORD-OWN-1 OWN001']]);
});
