/** docs/contract.md §2: tokens (Bearer or bare, unknown, revoked, expired), tenancy and the sender check. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, change, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import { revokeToken } from '../../src/service/agency-admin.js';
import {
  assertAnsweredAlike,
  asHttpResponse,
  assertFailureEnvelope,
  EMPTY_SENDER,
  errorOf,
  OPERATION_CASES,
  rawRequest,
  snapshotStore,
  type OperationCase,
  type SenderBlock,
} from '../helpers/wire-checks.js';

const ALPHA: SenderBlock = {
  Name: 'Alpha Travel',
  IATA_Number: '12345678',
  AgencyID: 'AG1',
  Contacts: { Contact: [{ EmailContact: 'desk@alpha.example' }] },
};
const BETA: SenderBlock = {
  Name: 'Beta Tours',
  IATA_Number: '87654321',
  AgencyID: 'AG2',
  Contacts: { Contact: [{ EmailContact: 'ops@beta.example' }] },
};
const PLAIN: SenderBlock = { Name: 'Plain Agency', IATA_Number: '', AgencyID: 'AG3', Contacts: { Contact: [] } };

let now = Date.parse('2026-06-01T00:00:00.000Z');
const clock = () => new Date(now).toISOString();

let service: TestService;
const tokens: Record<string, string> = {};
let orderCount = 0;

before(async () => {
  service = await startTestService({ clock });
  await service.addAgency('AG1', { name: ALPHA.Name, iataNumber: ALPHA.IATA_Number, email: 'desk@alpha.example' });
  await service.addAgency('AG2', { name: BETA.Name, iataNumber: BETA.IATA_Number, email: 'ops@beta.example' });
  await service.addAgency('AG3', { name: PLAIN.Name, iataNumber: null, email: null });
  for (const agency of ['AG1', 'AG2', 'AG3']) tokens[agency] = await service.tokenFor(agency);
});
after(() => service.close());

/** A fresh AG1 order with a pending change, so that every operation would change it. */
async function actionableOrder(agencyId = 'AG1'): Promise<{ orderId: string; reference: string }> {
  orderCount += 1;
  const orderId = `ORD-T${orderCount}`;
  const reference = `REF${String(orderCount).padStart(3, '0')}`;
  await service.importOrders([
    simpleOrder(orderId, agencyId, reference, `22000000${String(orderCount).padStart(5, '0')}`),
  ]);
  await service.importChanges([change(`C-T${orderCount}`, orderId, reference, ['S1'], [segment('S1B', 1, 14)])]);
  return { orderId, reference };
}

function itemStatus(response: HttpResponse, operation: OperationCase): string {
  return response.body[operation.responseRoot][operation.resultKey][0].Status;
}

describe('tokens', () => {
  test('"Bearer <token>", "bearer <token>" and the bare token are all accepted', async () => {
    const { orderId, reference } = await actionableOrder();
    for (const authorization of [
      `Bearer ${tokens.AG1}`,
      `bearer ${tokens.AG1}`,
      tokens.AG1!,
      `  Bearer   ${tokens.AG1}  `,
    ]) {
      const response = await service.post('/AirOrderCancel', OPERATION_CASES[0]!.build(orderId, [reference]), {
        authorization,
      });
      assert.equal(
        response.status,
        200,
        `${JSON.stringify(authorization.replace(tokens.AG1!, '<token>'))}: ${response.text}`,
      );
      assert.deepEqual(response.body.OrderViewRS.Party.Sender.TravelAgencySender, ALPHA);
    }
  });

  test("white space around the header's value is not part of the token, on the wire as sent", async () => {
    const { orderId, reference } = await actionableOrder();
    // fetch() would trim the value itself; a raw request sends it as written, and the server trims it.
    for (const authorization of [`  Bearer \t ${tokens.AG1}  `, `\t${tokens.AG1} `]) {
      const response = asHttpResponse(
        await rawRequest(service.baseUrl, {
          path: '/AirOrderCancel',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify(OPERATION_CASES[0]!.build(orderId, [reference])),
        }),
      );
      assert.equal(
        response.status,
        200,
        `${JSON.stringify(authorization.replace(tokens.AG1!, '<token>'))}: ${response.text}`,
      );
    }
  });

  test('unknown tokens are AUTH_INVALID with WWW-Authenticate: Bearer', async () => {
    const { orderId, reference } = await actionableOrder();
    const real = tokens.AG1!;
    const altered = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A');
    for (const authorization of [
      `Bearer ${altered}`,
      altered,
      'Bearer aot_unknown',
      'Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
      `Bearer ${real}x`,
      // The scheme must be the value's first word: this is a token of its own, unknown.
      `XBearer ${real}`,
    ]) {
      for (const operation of OPERATION_CASES) {
        const before = await snapshotStore(service);
        const response = await service.post(operation.path, operation.build(orderId, [reference]), { authorization });
        assertFailureEnvelope(response, operation, {
          status: 401,
          code: 'AUTH_INVALID',
          sender: EMPTY_SENDER,
          orderId,
          references: [reference],
        });
        assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer\b/);
        assert.deepEqual(await snapshotStore(service), before);
      }
    }
  });

  test("a revoked token is AUTH_INVALID; the agency's other tokens keep working", async () => {
    const { orderId, reference } = await actionableOrder();
    const doomed = await service.tokenFor('AG1');
    const first = await service.post(
      '/AirOrderInvoluntaryAccept',
      OPERATION_CASES[1]!.build(orderId, [reference]),
      bearer(doomed),
    );
    assert.equal(first.status, 200, first.text);

    await revokeToken(service.store, clock, { token: doomed });
    for (const operation of OPERATION_CASES) {
      const before = await snapshotStore(service);
      const response = await service.post(operation.path, operation.build(orderId, [reference]), bearer(doomed));
      assertFailureEnvelope(response, operation, {
        status: 401,
        code: 'AUTH_INVALID',
        sender: EMPTY_SENDER,
        orderId,
        references: [reference],
      });
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer\b/);
      assert.deepEqual(await snapshotStore(service), before);
    }
    const other = await service.post(
      '/AirOrderCancel',
      OPERATION_CASES[0]!.build(orderId, [reference]),
      bearer(tokens.AG1!),
    );
    assert.equal(other.status, 200, other.text);
  });

  test('a token is accepted until its expiry and AUTH_INVALID from then on', async () => {
    const { orderId, reference } = await actionableOrder();
    const start = now;
    const expiring = await service.tokenFor('AG1', 60_000);
    try {
      now = start + 59_999;
      const before = await service.post(
        '/AirOrderCancel',
        OPERATION_CASES[0]!.build('ORD-NONE', [reference]),
        bearer(expiring),
      );
      assert.equal(before.status, 404, before.text);
      for (const at of [start + 60_000, start + 3_600_000]) {
        now = at;
        for (const operation of OPERATION_CASES) {
          const snapshot = await snapshotStore(service);
          const response = await service.post(operation.path, operation.build(orderId, [reference]), bearer(expiring));
          assertFailureEnvelope(response, operation, {
            status: 401,
            code: 'AUTH_INVALID',
            sender: EMPTY_SENDER,
            orderId,
            references: [reference],
          });
          assert.deepEqual(await snapshotStore(service), snapshot);
        }
      }
      // A token without expiry is unaffected by the passing time.
      const lasting = await service.post(
        '/AirOrderCancel',
        OPERATION_CASES[0]!.build(orderId, [reference]),
        bearer(tokens.AG1!),
      );
      assert.equal(lasting.status, 200);
    } finally {
      now = start;
    }
  });
});

describe('tenancy', () => {
  for (const operation of OPERATION_CASES) {
    test(`${operation.path}: another agency's order is answered exactly like a missing one, and nothing changes`, async () => {
      const orderId = `ORD-T${orderCount + 1}`;
      const reference = `REF${String(orderCount + 1).padStart(3, '0')}`;
      const request = operation.build(orderId, [reference.toLowerCase()], { Document: { ReferenceVersion: '2.0' } });

      const missing = await service.post(operation.path, request, bearer(tokens.AG2!));
      assert.equal((await actionableOrder()).orderId, orderId);
      const before = await snapshotStore(service);
      const foreign = await service.post(operation.path, request, bearer(tokens.AG2!));
      assert.deepEqual(await snapshotStore(service), before);

      assertFailureEnvelope(foreign, operation, {
        status: 404,
        code: 'ORDER_NOT_FOUND',
        referenceVersion: '2.0',
        sender: BETA,
        orderId,
        references: [reference],
      });
      assert.equal(foreign.status, missing.status);
      assertAnsweredAlike(foreign, missing);

      // Another agency again, with another profile: the same body but for the id and the Sender block.
      const third = await service.post(operation.path, request, bearer(tokens.AG3!));
      const strip = (response: HttpResponse) => {
        const copy = structuredClone(response.body);
        copy[operation.responseRoot].ShoppingResponseId = '';
        copy[operation.responseRoot].Party = null;
        return copy;
      };
      assert.equal(third.status, 404);
      assert.deepEqual(strip(third), strip(foreign));
      assert.deepEqual(third.body[operation.responseRoot].Party.Sender.TravelAgencySender, PLAIN);
      assert.deepEqual(await snapshotStore(service), before);

      // The owner can act on it: the refusals above were about tenancy, not about the order.
      const own = await service.post(operation.path, request, bearer(tokens.AG1!));
      assert.equal(own.status, 200, own.text);
      assert.equal(itemStatus(own, operation), 'SUCCESS');
    });
  }
});

describe('sender check', () => {
  const mismatches: [string, Record<string, string>][] = [
    ['IATA_Number of another agency', { IATA_Number: BETA.IATA_Number }],
    ['AgencyID of another agency', { AgencyID: 'AG2' }],
    ['AgencyID of no agency', { AgencyID: 'NOBODY' }],
    ['matching AgencyID but another IATA_Number', { AgencyID: 'AG1', IATA_Number: BETA.IATA_Number }],
    ['matching IATA_Number but another AgencyID', { AgencyID: 'AG2', IATA_Number: ALPHA.IATA_Number }],
  ];
  for (const operation of OPERATION_CASES) {
    test(`${operation.path}: SENDER_MISMATCH 403 when the request names another agency, nothing changes`, async () => {
      const { orderId, reference } = await actionableOrder();
      for (const [name, fields] of mismatches) {
        const before = await snapshotStore(service);
        const request = operation.build(orderId, [reference], { Party: { Sender: { TravelAgencySender: fields } } });
        const response = await service.post(operation.path, request, bearer(tokens.AG1!));
        assertFailureEnvelope(response, operation, {
          status: 403,
          code: 'SENDER_MISMATCH',
          sender: ALPHA,
          orderId,
          references: [reference],
        });
        assert.deepEqual(await snapshotStore(service), before, name);
      }
    });

    test(`${operation.path}: a matching sender is accepted; Name and EmailContact are not identity`, async () => {
      const { orderId, reference } = await actionableOrder();
      const request = operation.build(orderId, [reference], {
        Party: {
          Sender: {
            TravelAgencySender: {
              Name: 'Some Other Name',
              IATA_Number: ALPHA.IATA_Number,
              AgencyID: 'AG1',
              Contacts: { Contact: [{ EmailContact: 'someone@other.example' }] },
            },
          },
        },
      });
      const response = await service.post(operation.path, request, bearer(tokens.AG1!));
      assert.equal(response.status, 200, response.text);
      assert.equal(itemStatus(response, operation), 'SUCCESS');
      // The response names the registered profile, not what the request said.
      assert.deepEqual(response.body[operation.responseRoot].Party.Sender.TravelAgencySender, ALPHA);
      const row = await service.store.db
        .selectFrom('bookings')
        .select('status')
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      assert.equal(row.status, operation.path === '/AirOrderInvoluntaryAccept' ? 'CONFIRMED' : 'CANCELED');
    });
  }

  test('a Party without a Sender, or a Sender without a TravelAgencySender, names no agency: accepted', async () => {
    for (const party of [{}, { Sender: {} }]) {
      const { orderId, reference } = await actionableOrder();
      const request = OPERATION_CASES[0]!.build(orderId, [reference], { Party: party });
      const response = await service.post('/AirOrderCancel', request, bearer(tokens.AG1!));
      assert.equal(response.status, 200, `${JSON.stringify(party)}: ${response.text}`);
      assert.equal(itemStatus(response, OPERATION_CASES[0]!), 'SUCCESS');
    }
  });

  test('an agency without a registered IATA number can name its AgencyID; its Sender block has empty IATA and no contact', async () => {
    const { orderId, reference } = await actionableOrder('AG3');
    const request = OPERATION_CASES[0]!.build(orderId, [reference], {
      Party: { Sender: { TravelAgencySender: { AgencyID: 'AG3' } } },
    });
    const response = await service.post('/AirOrderCancel', request, bearer(tokens.AG3!));
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.OrderViewRS.Party.Sender.TravelAgencySender, PLAIN);
    const mismatch = await service.post(
      '/AirOrderCancel',
      OPERATION_CASES[0]!.build(orderId, [reference], {
        Party: { Sender: { TravelAgencySender: { IATA_Number: ALPHA.IATA_Number } } },
      }),
      bearer(tokens.AG3!),
    );
    assert.equal(mismatch.status, 403);
    assert.equal(errorOf(mismatch).Code, 'SENDER_MISMATCH');
  });
});
