/** Request-level errors of docs/contract.md §5: HTTP status, the full envelope of docs/contract.md §4, and no change in the store. */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { SqlStore } from '../../src/store/sql-store.js';
import { bearer, booking, change, order, passenger, segment } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import {
  asHttpResponse,
  assertFailureEnvelope,
  EMPTY_SENDER,
  errorOf,
  logLinesOf,
  OPERATION_CASES,
  rawRequest,
  snapshotStore,
  type SenderBlock,
} from '../helpers/wire-checks.js';
import { refuseRecordWrites } from '../helpers/stored-records.js';

const PROFILE: SenderBlock = {
  Name: 'Alpha Travel',
  IATA_Number: '12345678',
  AgencyID: 'AG1',
  Contacts: { Contact: [{ EmailContact: 'desk@alpha.example' }] },
};

/** An order whose two bookings each have a pending change, so every operation would change something. */
function actionableOrder(orderId: string, references: [string, string]) {
  return order(
    orderId,
    'AG1',
    'EUR',
    references.map((reference, index) =>
      booking(
        reference,
        [segment('S1')],
        [
          passenger('P1', {
            ticketNumber: `220123456789${index}`,
            baseFare: '100.00',
            taxes: '20.00',
            coupons: [{ segmentId: 'S1', status: 'OPEN' }],
          }),
        ],
      ),
    ),
  );
}

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  await service.addAgency('AG1', { name: PROFILE.Name, iataNumber: PROFILE.IATA_Number, email: 'desk@alpha.example' });
  token = await service.tokenFor('AG1');
  await service.tokenFor('AG2');
  await service.importOrders([
    actionableOrder('ORD-E1', ['ABC123', 'XYZ789']),
    actionableOrder('ORD-E500', ['GOOD500', 'BAD500']),
  ]);
  await service.importChanges([
    change('C-E1-A', 'ORD-E1', 'ABC123', ['S1'], [segment('S1B', 1, 14)]),
    change('C-E1-B', 'ORD-E1', 'XYZ789', ['S1'], [segment('S1B', 1, 14)]),
    change('C-E500-A', 'ORD-E500', 'GOOD500', ['S1'], [segment('S1B', 1, 14)]),
    change('C-E500-B', 'ORD-E500', 'BAD500', ['S1'], [segment('S1B', 1, 14)]),
  ]);
});
after(() => service.close());

/** Duplicates in mixed case: the failed items follow the normalised, de-duplicated references. */
const REQUESTED = ['abc123', 'ABC123', 'xyz789'];
const NORMALISED = ['ABC123', 'XYZ789'];
const VERSION = { Document: { ReferenceVersion: '17.2' } };

for (const operation of OPERATION_CASES) {
  describe(`request-level errors of ${operation.path}`, () => {
    test('AUTH_MISSING: 401 with WWW-Authenticate Bearer, empty sender, one FAILED item per reference, nothing changes', async () => {
      const before = await snapshotStore(service);
      const response = await service.post(operation.path, operation.build('ORD-E1', REQUESTED, VERSION));
      assertFailureEnvelope(response, operation, {
        status: 401,
        code: 'AUTH_MISSING',
        referenceVersion: '17.2',
        sender: EMPTY_SENDER,
        orderId: 'ORD-E1',
        references: NORMALISED,
      });
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer\b/);
      assert.deepEqual(await snapshotStore(service), before);
    });

    test('AUTH_MISSING also for an empty Authorization header', async () => {
      const response = await service.post(operation.path, operation.build('ORD-E1', REQUESTED), { authorization: '' });
      assertFailureEnvelope(response, operation, {
        status: 401,
        code: 'AUTH_MISSING',
        sender: EMPTY_SENDER,
        orderId: 'ORD-E1',
        references: NORMALISED,
      });
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer\b/);
    });

    test('AUTH_INVALID: 401 with WWW-Authenticate Bearer for an unknown token, nothing changes', async () => {
      const before = await snapshotStore(service);
      const response = await service.post(
        operation.path,
        operation.build('ORD-E1', REQUESTED, VERSION),
        bearer('aot_this-token-was-never-issued'),
      );
      assertFailureEnvelope(response, operation, {
        status: 401,
        code: 'AUTH_INVALID',
        referenceVersion: '17.2',
        sender: EMPTY_SENDER,
        orderId: 'ORD-E1',
        references: NORMALISED,
      });
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer\b/);
      assert.deepEqual(await snapshotStore(service), before);
    });

    test('SENDER_MISMATCH: 403 with the authenticated profile as sender, nothing changes', async () => {
      const before = await snapshotStore(service);
      const body = operation.build('ORD-E1', REQUESTED, {
        ...VERSION,
        Party: { Sender: { TravelAgencySender: { AgencyID: 'AG2' } } },
      });
      const response = await service.post(operation.path, body, bearer(token));
      assertFailureEnvelope(response, operation, {
        status: 403,
        code: 'SENDER_MISMATCH',
        referenceVersion: '17.2',
        sender: PROFILE,
        orderId: 'ORD-E1',
        references: NORMALISED,
      });
      assert.equal(response.headers.get('www-authenticate'), null);
      assert.deepEqual(await snapshotStore(service), before);
    });

    test('INVALID_JSON: 400 with an empty result array for a truncated body, nothing changes', async () => {
      const before = await snapshotStore(service);
      const text = JSON.stringify(operation.build('ORD-E1', REQUESTED, VERSION)).slice(0, -3);
      const response = await service.post(operation.path, text);
      assertFailureEnvelope(response, operation, { status: 400, code: 'INVALID_JSON', sender: EMPTY_SENDER });
      assert.deepEqual(await snapshotStore(service), before);
      // The same with a valid token: the body is still the problem reported.
      const withToken = await service.post(operation.path, text, bearer(token));
      assert.equal(withToken.status, 400);
      assert.equal(errorOf(withToken).Code, 'INVALID_JSON');
    });

    test('INVALID_JSON: 400 for an empty body', async () => {
      const response = await service.post(operation.path, '');
      assertFailureEnvelope(response, operation, { status: 400, code: 'INVALID_JSON', sender: EMPTY_SENDER });
    });

    test('INVALID_REQUEST: 400 naming the field; items only when the references are readable; nothing changes', async () => {
      const before = await snapshotStore(service);
      const badOrderId = await service.post(
        operation.path,
        operation.build('ORD E1!', REQUESTED, VERSION),
        bearer(token),
      );
      assertFailureEnvelope(badOrderId, operation, {
        status: 400,
        code: 'INVALID_REQUEST',
        referenceVersion: '17.2',
        sender: PROFILE,
      });
      assert.match(errorOf(badOrderId).Message, /Query\.OrderID/);

      const badIata = operation.build('ORD-E1', REQUESTED, {
        ...VERSION,
        Party: { Sender: { TravelAgencySender: { IATA_Number: '12AB' } } },
      });
      const response = await service.post(operation.path, badIata, bearer(token));
      assertFailureEnvelope(response, operation, {
        status: 400,
        code: 'INVALID_REQUEST',
        referenceVersion: '17.2',
        sender: PROFILE,
        orderId: 'ORD-E1',
        references: NORMALISED,
      });
      assert.match(errorOf(response).Message, /Party\.Sender\.TravelAgencySender\.IATA_Number/);
      assert.deepEqual(await snapshotStore(service), before);
    });

    test('UNSUPPORTED_MEDIA_TYPE: 415 for text/plain, a missing Content-Type and application/jsonx, nothing changes', async () => {
      const before = await snapshotStore(service);
      const body = JSON.stringify(operation.build('ORD-E1', REQUESTED, VERSION));
      for (const contentType of ['text/plain', undefined, 'application/jsonx', 'application/x-www-form-urlencoded']) {
        const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
        const response = asHttpResponse(await rawRequest(service.baseUrl, { path: operation.path, headers, body }));
        assertFailureEnvelope(response, operation, {
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          sender: EMPTY_SENDER,
        });
        const withToken = asHttpResponse(
          await rawRequest(service.baseUrl, { path: operation.path, headers: { ...headers, ...bearer(token) }, body }),
        );
        assert.equal(withToken.status, 415, `Content-Type ${contentType}`);
        assert.equal(errorOf(withToken).Code, 'UNSUPPORTED_MEDIA_TYPE');
      }
      assert.deepEqual(await snapshotStore(service), before);
    });

    test('PAYLOAD_TOO_LARGE: 413 over 64 KiB, with a Content-Length or chunked; 64 KiB exactly is accepted', async () => {
      const before = await snapshotStore(service);
      const padded = (size: number) => {
        const base = JSON.stringify(operation.build('ORD-NONE', ['ABC123'], { Padding: '' }));
        const text = base.replace('"Padding":""', `"Padding":"${'x'.repeat(size - base.length)}"`);
        assert.equal(Buffer.byteLength(text), size);
        return text;
      };
      const headers = { 'content-type': 'application/json', ...bearer(token) };
      const tooLarge = asHttpResponse(
        await rawRequest(service.baseUrl, { path: operation.path, headers, body: padded(64 * 1024 + 1) }),
      );
      assertFailureEnvelope(tooLarge, operation, { status: 413, code: 'PAYLOAD_TOO_LARGE', sender: EMPTY_SENDER });

      const oversized = Buffer.from(padded(80 * 1024));
      const chunked = asHttpResponse(
        await rawRequest(service.baseUrl, {
          path: operation.path,
          headers,
          body: [oversized.subarray(0, 40 * 1024), oversized.subarray(40 * 1024)],
        }),
      );
      assertFailureEnvelope(chunked, operation, { status: 413, code: 'PAYLOAD_TOO_LARGE', sender: EMPTY_SENDER });

      // At the limit the body is read: the (missing) order is looked up.
      const atLimit = asHttpResponse(
        await rawRequest(service.baseUrl, { path: operation.path, headers, body: padded(64 * 1024) }),
      );
      assert.equal(atLimit.status, 404);
      assert.equal(errorOf(atLimit).Code, 'ORDER_NOT_FOUND');
      assert.deepEqual(await snapshotStore(service), before);
    });

    test('ORDER_NOT_FOUND: 404 with one FAILED item per reference, nothing changes', async () => {
      const before = await snapshotStore(service);
      const response = await service.post(
        operation.path,
        operation.build('ORD-MISSING', REQUESTED, VERSION),
        bearer(token),
      );
      assertFailureEnvelope(response, operation, {
        status: 404,
        code: 'ORDER_NOT_FOUND',
        referenceVersion: '17.2',
        sender: PROFILE,
        orderId: 'ORD-MISSING',
        references: NORMALISED,
      });
      assert.deepEqual(await snapshotStore(service), before);
    });

    test('INTERNAL_ERROR: 500 when the store fails mid-request; nothing partial is committed and nothing leaks', async () => {
      // The store refuses to write the order: nothing of the change (its audit, events, response) may stay.
      const dropTrigger = await failUpdatesOf(service.store, 'ORD-E500');
      try {
        const before = await snapshotStore(service);
        const response = await service.post(
          operation.path,
          operation.build('ORD-E500', ['good500', 'bad500'], VERSION),
          bearer(token),
        );
        assertFailureEnvelope(response, operation, {
          status: 500,
          code: 'INTERNAL_ERROR',
          referenceVersion: '17.2',
          sender: PROFILE,
          orderId: 'ORD-E500',
          references: ['GOOD500', 'BAD500'],
        });
        for (const leak of [
          /secret-detail/,
          /SQLITE/i,
          /trigger/i,
          /\border_records\b/,
          /UPDATE|SELECT/,
          /\bat .+:\d+:\d+/,
          /stack/i,
          /\.ts\b|\.js\b/,
        ]) {
          assert.doesNotMatch(response.text, leak);
        }
        assert.deepEqual(await snapshotStore(service), before);
      } finally {
        await dropTrigger();
      }
      // The service itself is fine afterwards: the same request now succeeds.
      const retry = await service.post(
        operation.path,
        operation.build('ORD-E500', ['GOOD500'], VERSION),
        bearer(token),
      );
      assert.equal(retry.status, 200, retry.text);
    });
  });
}

describe('unknown routes', () => {
  for (const [method, path] of [
    ['POST', '/AirOrderCancelX'],
    ['POST', '/v2/AirOrderCancel'],
    ['GET', '/AirOrderCancel'],
    ['GET', '/'],
  ] as const) {
    test(`${method} ${path} is 404 ROUTE_NOT_FOUND`, async () => {
      const before = await snapshotStore(service);
      const response = await service.request(path, {
        method,
        headers: { 'content-type': 'application/json', ...bearer(token) },
        ...(method === 'POST' ? { body: JSON.stringify(OPERATION_CASES[0]!.build('ORD-E1', ['ABC123'])) } : {}),
      });
      assert.equal(response.status, 404);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(response.headers.get('x-request-id'));
      assert.deepEqual(Object.keys(response.body), ['Errors']);
      assert.equal(response.body.Errors.length, 1);
      assert.deepEqual(Object.keys(response.body.Errors[0]).sort(), ['Code', 'Message']);
      assert.equal(response.body.Errors[0].Code, 'ROUTE_NOT_FOUND');
      assert.equal(typeof response.body.Errors[0].Message, 'string');
      assert.deepEqual(await snapshotStore(service), before);
    });
  }
});

describe('paths the router cannot read (a malformed percent-escape)', () => {
  /** The same request to an unknown path, whose answer the bad path's must match but for its status and body. */
  const UNKNOWN = '/AirOrderCancelX';

  for (const [method, path] of [
    ['POST', '/AirOrderCancel%'],
    ['POST', '/%E0%A4%A'],
    ['POST', '/AirOrderCancel%zz?x=1'],
    ['GET', '/docs/%'],
  ] as const) {
    test(`${method} ${path} is 400 INVALID_REQUEST naming the path, answered and logged like an unknown path`, async () => {
      const before = await snapshotStore(service);
      const send = (target: string) =>
        service.request(target, {
          method,
          headers: { 'content-type': 'application/json', ...bearer(token) },
          ...(method === 'POST' ? { body: JSON.stringify(OPERATION_CASES[0]!.build('ORD-E1', ['ABC123'])) } : {}),
        });
      const response = await send(path);
      assert.equal(response.status, 400, response.text);
      const pathOnly = path.split('?')[0];
      assert.deepEqual(response.body, {
        Errors: [{ Code: 'INVALID_REQUEST', Message: `The request path is not a valid URL: ${pathOnly}.` }],
      });
      assert.deepEqual(await snapshotStore(service), before);

      // The same headers as an unknown path's answer (request id, security headers, content type), with the same values.
      const unknown = await send(UNKNOWN);
      assert.equal(unknown.status, 404);
      const requestId = response.headers.get('x-request-id');
      assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
      assert.notEqual(requestId, unknown.headers.get('x-request-id'));
      assert.deepEqual([...response.headers.keys()].sort(), [...unknown.headers.keys()].sort());
      for (const name of [...unknown.headers.keys()].filter(
        (header) => !['date', 'x-request-id', 'content-length'].includes(header),
      )) {
        assert.equal(response.headers.get(name), unknown.headers.get(name), name);
      }

      // One log line, under the id the client was sent, like every request's.
      const lines = await logLinesOf(service, requestId!);
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.deepEqual(
        { code: lines[0]!.code, status: lines[0]!.status, msg: lines[0]!.msg },
        { code: 'INVALID_REQUEST', status: 400, msg: 'request' },
      );
      assert.equal(typeof lines[0]!.latencyMs, 'number');
    });
  }

  test('the connection stays usable: a valid request after a bad path on one keep-alive connection is served', async () => {
    const port = Number(new URL(service.baseUrl).port);
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      let received = '';
      socket.on('connect', () =>
        socket.write(
          'GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        ),
      );
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    assert.deepEqual(
      [...answers.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]),
      ['400', '200'],
    );
  });
});

/** Makes the database refuse updates of one booking, on either store; returns how to undo it. */
/** The store fails as it writes the order's record: the request's change must leave nothing behind. */
function failUpdatesOf(store: SqlStore, orderId: string): Promise<() => Promise<void>> {
  return refuseRecordWrites(store.db, 'fail_bad500', `NEW.order_id = '${orderId}'`, 'secret-detail-from-the-store');
}
