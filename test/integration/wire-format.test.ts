/** docs/contract.md §1, §4 and §12 on the wire: exact shapes and JSON types, compression, request ids, logs, health. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { bearer, booking, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import {
  asHttpResponse,
  logLinesOf,
  OPERATION_CASES,
  rawRequest,
  SERVICE_NAME,
  type SenderBlock,
} from '../helpers/wire-checks.js';

const [CANCEL, ACCEPT, INVOLUNTARY_CANCEL] = OPERATION_CASES as [
  (typeof OPERATION_CASES)[0],
  (typeof OPERATION_CASES)[0],
  (typeof OPERATION_CASES)[0],
];
const EMAIL = 'desk@alpha.example';
const ALPHA: SenderBlock = {
  Name: 'Alpha Travel',
  IATA_Number: '12345678',
  AgencyID: 'AG1',
  Contacts: { Contact: [{ EmailContact: EMAIL }] },
};

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  await service.addAgency('AG1', { name: ALPHA.Name, iataNumber: ALPHA.IATA_Number, email: EMAIL });
  token = await service.tokenFor('AG1');
  const twoSegments = [segment('S1', 1, 8), segment('S2', 3, 8, ['JFK', 'FRA'])];
  await service.importOrders([
    simpleOrder('ORD-W1', 'AG1', 'CXL001', '2200000000101'),
    simpleOrder('ORD-W2', 'AG1', 'ACC001', '2200000000201'),
    order('ORD-W3', 'AG1', 'EUR', [
      booking('INV001', twoSegments, [
        passenger('P1', {
          ticketNumber: '2200000000301',
          baseFare: '120.00',
          taxes: '50.50',
          coupons: [
            { segmentId: 'S1', status: 'USED', value: '100.00' },
            { segmentId: 'S2', status: 'OPEN', value: '70.50' },
          ],
        }),
        passenger('P2', {
          ticketNumber: '2200000000302',
          baseFare: '120.00',
          taxes: '50.50',
          coupons: [
            { segmentId: 'S1', status: 'OPEN', value: '85.25' },
            { segmentId: 'S2', status: 'OPEN', value: '85.25' },
          ],
        }),
      ]),
    ]),
    order('ORD-W4', 'AG1', 'JPY', [
      booking(
        'JPY001',
        [segment('S1')],
        [
          passenger('P1', {
            ticketNumber: '2200000000401',
            baseFare: '45000',
            taxes: '5000',
            coupons: [{ segmentId: 'S1', status: 'OPEN' }],
          }),
        ],
      ),
    ]),
    simpleOrder('ORD-W5', 'AG1', 'ZIP001', '2200000000501'),
  ]);
  await service.importChanges([
    change('C-W2', 'ORD-W2', 'ACC001', ['S1'], [segment('S1B', 1, 14)]),
    change('C-W3', 'ORD-W3', 'INV001', ['S2'], [segment('S2B', 4, 8, ['JFK', 'FRA'])]),
    change('C-W4', 'ORD-W4', 'JPY001', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ]);
});
after(() => service.close());

/** The envelope of a success: exact root, key set and common blocks; returns the result array. */
function assertSuccessEnvelope(response: HttpResponse, operation: typeof CANCEL, referenceVersion = '1.0'): any[] {
  assert.equal(response.status, 200, response.text);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(Object.keys(response.body), [operation.responseRoot]);
  const rs = response.body[operation.responseRoot];
  assert.deepEqual(
    Object.keys(rs).sort(),
    ['Document', 'Party', 'ShoppingResponseId', 'Success', operation.resultKey].sort(),
  );
  assert.deepEqual(rs.Document, { Name: SERVICE_NAME, ReferenceVersion: referenceVersion });
  assert.deepEqual(rs.Party, { Sender: { TravelAgencySender: ALPHA } });
  assert.equal(typeof rs.ShoppingResponseId, 'string');
  assert.equal(rs.ShoppingResponseId, response.headers.get('x-request-id'));
  assert.deepEqual(rs.Success, {});
  return rs[operation.resultKey];
}

describe('response shapes', () => {
  test('AirOrderCancel: OrderViewRS with Response items whose GdsBookingReference is a string', async () => {
    const response = await service.post(
      CANCEL.path,
      CANCEL.build('ORD-W1', ['cxl001'], { Document: { Name: 'Agency document', ReferenceVersion: '17.2' } }),
      bearer(token),
    );
    const items = assertSuccessEnvelope(response, CANCEL, '17.2');
    assert.deepEqual(Object.keys(items[0]).sort(), [
      'BookingStatus',
      'GdsBookingReference',
      'Msg',
      'OrderID',
      'Status',
    ]);
    assert.deepEqual(items, [
      { Status: 'SUCCESS', Msg: '', BookingStatus: 'CANCELED', OrderID: 'ORD-W1', GdsBookingReference: 'CXL001' },
    ]);
    assert.match(response.text, /"ReferenceVersion":"17\.2"/);
  });

  test('AirOrderCancel with a failed item: 200, no Success, Errors naming the item code, BookingStatus empty', async () => {
    const response = await service.post(CANCEL.path, CANCEL.build('ORD-W1', ['CXL001', 'NOPE01']), bearer(token));
    assert.equal(response.status, 200, response.text);
    const rs = response.body.OrderViewRS;
    assert.deepEqual(Object.keys(rs).sort(), ['Document', 'Errors', 'Party', 'Response', 'ShoppingResponseId']);
    assert.equal(rs.Errors.length, 1);
    assert.deepEqual(Object.keys(rs.Errors[0]).sort(), ['Code', 'Message']);
    assert.equal(rs.Errors[0].Code, 'BOOKING_NOT_FOUND');
    assert.equal(rs.Response[0].Status, 'SUCCESS');
    assert.deepEqual(rs.Response[1], {
      Status: 'FAILED',
      Msg: `BOOKING_NOT_FOUND: ${rs.Errors[0].Message}`,
      BookingStatus: '',
      OrderID: 'ORD-W1',
      GdsBookingReference: 'NOPE01',
    });
  });

  test('AirOrderInvoluntaryAccept: OrderInvoluntaryAcceptRS with Result items whose GdsBookingReference is an array', async () => {
    const response = await service.post(ACCEPT.path, ACCEPT.build('ORD-W2', 'acc001'), bearer(token));
    const items = assertSuccessEnvelope(response, ACCEPT);
    assert.deepEqual(Object.keys(items[0]).sort(), ['ErrorMsg', 'GdsBookingReference', 'OrderID', 'Status']);
    assert.deepEqual(items, [{ OrderID: 'ORD-W2', GdsBookingReference: ['ACC001'], ErrorMsg: '', Status: 'SUCCESS' }]);
  });

  test("AirOrderInvoluntaryCancel: amounts are JSON numbers, RefundText has the currency's decimals", async () => {
    const response = await service.post(
      INVOLUNTARY_CANCEL.path,
      INVOLUNTARY_CANCEL.build('ORD-W3', ['INV001']),
      bearer(token),
    );
    const items = assertSuccessEnvelope(response, INVOLUNTARY_CANCEL);
    assert.deepEqual(Object.keys(items[0]).sort(), [
      'ErrorMsg',
      'GdsBookingReference',
      'OrderID',
      'RefundAmount',
      'RefundPaxWiseFare',
      'RefundText',
      'Status',
    ]);
    assert.deepEqual(Object.keys(items[0].RefundPaxWiseFare[0]).sort(), ['Amount', 'TicketNumber']);
    assert.deepEqual(items, [
      {
        OrderID: 'ORD-W3',
        GdsBookingReference: ['INV001'],
        ErrorMsg: '',
        Status: 'SUCCESS',
        RefundAmount: 241,
        RefundText:
          'TicketNumber:2200000000301 QuoteType:PARTIAL RefundAmount:70.50 TicketNumber:2200000000302 QuoteType:FULL RefundAmount:170.50',
        RefundPaxWiseFare: [
          { TicketNumber: '2200000000301', Amount: 70.5 },
          { TicketNumber: '2200000000302', Amount: 170.5 },
        ],
      },
    ]);
    assert.match(response.text, /"RefundAmount":241[,}]/);
    assert.match(response.text, /"Amount":70\.5[,}]/);
  });

  test('AirOrderInvoluntaryCancel in a zero-decimal currency: whole numbers, no decimals in RefundText', async () => {
    const response = await service.post(
      INVOLUNTARY_CANCEL.path,
      INVOLUNTARY_CANCEL.build('ORD-W4', ['JPY001']),
      bearer(token),
    );
    const items = assertSuccessEnvelope(response, INVOLUNTARY_CANCEL);
    assert.deepEqual(items[0].RefundPaxWiseFare, [{ TicketNumber: '2200000000401', Amount: 50000 }]);
    assert.equal(items[0].RefundAmount, 50000);
    assert.equal(items[0].RefundText, 'TicketNumber:2200000000401 QuoteType:FULL RefundAmount:50000');
  });

  test('AirOrderInvoluntaryCancel failed item: RefundAmount 0, RefundText "" and RefundPaxWiseFare []', async () => {
    const response = await service.post(
      INVOLUNTARY_CANCEL.path,
      INVOLUNTARY_CANCEL.build('ORD-W1', ['CXL001']),
      bearer(token),
    );
    assert.equal(response.status, 200, response.text);
    const rs = response.body.OrderInvoluntaryCancelRS;
    assert.equal('Success' in rs, false);
    assert.equal(rs.Errors[0].Code, 'BOOKING_CANCELED');
    assert.deepEqual(rs.Result, [
      {
        OrderID: 'ORD-W1',
        GdsBookingReference: ['CXL001'],
        ErrorMsg: `BOOKING_CANCELED: ${rs.Errors[0].Message}`,
        Status: 'FAILED',
        RefundAmount: 0,
        RefundText: '',
        RefundPaxWiseFare: [],
      },
    ]);
    assert.match(response.text, /"RefundAmount":0[,}]/);
  });
});

describe('compression', () => {
  const decoders: Record<string, (raw: Buffer) => Buffer> = {
    gzip: (raw) => zlib.gunzipSync(raw),
    deflate: (raw) => zlib.inflateSync(raw),
    br: (raw) => zlib.brotliDecompressSync(raw),
  };
  const headers = { 'content-type': 'application/json' };
  const withoutId = (response: HttpResponse) => response.text.replace(response.headers.get('x-request-id')!, '<id>');

  for (const [encoding, decode] of Object.entries(decoders)) {
    test(`Accept-Encoding: ${encoding} compresses success and error responses with ${encoding}`, async () => {
      const body = JSON.stringify(CANCEL.build('ORD-W5', ['ZIP001']));
      const plain = asHttpResponse(
        await rawRequest(service.baseUrl, {
          path: CANCEL.path,
          headers: { ...headers, ...bearer(token), 'accept-encoding': 'identity' },
          body,
        }),
      );
      assert.equal(plain.headers.get('content-encoding'), null);
      assert.equal(plain.body.OrderViewRS.Response[0].Status, 'SUCCESS');

      for (const auth of [bearer(token), {}]) {
        const raw = await rawRequest(service.baseUrl, {
          path: CANCEL.path,
          headers: { ...headers, ...auth, 'accept-encoding': encoding },
          body,
        });
        assert.equal(raw.headers['content-encoding'], encoding);
        assert.throws(() => JSON.parse(raw.raw.toString('utf8')), 'the body is not plain JSON');
        const decoded = asHttpResponse({ ...raw, raw: decode(raw.raw) });
        if ('authorization' in auth) {
          // Cancel is idempotent, so the compressed answer equals the plain one apart from the id.
          assert.equal(withoutId(decoded), withoutId(plain));
        } else {
          assert.equal(decoded.status, 401);
          assert.equal(decoded.body.OrderViewRS.Errors[0].Code, 'AUTH_MISSING');
          assert.equal(decoded.body.OrderViewRS.ShoppingResponseId, raw.headers['x-request-id']);
        }
      }
    });
  }

  test('the interface\'s own "gzip, deflate, br" gets one of them; no Accept-Encoding gets plain JSON', async () => {
    const body = JSON.stringify(CANCEL.build('ORD-W5', ['ZIP001']));
    const raw = await rawRequest(service.baseUrl, {
      path: CANCEL.path,
      headers: { ...headers, ...bearer(token), 'accept-encoding': 'gzip, deflate, br' },
      body,
    });
    const encoding = raw.headers['content-encoding'] ?? '';
    assert.ok(encoding in decoders, `content-encoding ${encoding}`);
    assert.equal(JSON.parse(decoders[encoding]!(raw.raw).toString('utf8')).OrderViewRS.Response[0].Status, 'SUCCESS');

    const none = await rawRequest(service.baseUrl, {
      path: CANCEL.path,
      headers: { ...headers, ...bearer(token) },
      body,
    });
    assert.equal(none.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(none.raw.toString('utf8')).OrderViewRS.Response[0].Status, 'SUCCESS');
  });
});

describe('request ids and logs', () => {
  test('X-Request-Id is unique per response, whatever the client sends, and equals ShoppingResponseId', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 10; index++) {
      for (const [path, body, headers] of [
        [CANCEL.path, CANCEL.build('ORD-W1', ['CXL001']), bearer(token)],
        [ACCEPT.path, ACCEPT.build('ORD-NONE', ['ABC123']), bearer(token)],
        [INVOLUNTARY_CANCEL.path, INVOLUNTARY_CANCEL.build('ORD-W1', ['CXL001']), {}],
      ] as const) {
        const response = await service.post(path, body, { ...headers, 'x-request-id': 'client-chosen-id' });
        const id = response.headers.get('x-request-id');
        assert.ok(id && id !== 'client-chosen-id', `id ${id}`);
        assert.equal(Object.values(response.body as Record<string, any>)[0].ShoppingResponseId, id);
        ids.push(id);
      }
    }
    const health = await service.request('/healthz', { method: 'GET' });
    ids.push(health.headers.get('x-request-id') ?? '');
    assert.equal(new Set(ids).size, ids.length);
  });

  test('exactly one log line per request, with requestId, agency, operation, code and latencyMs', async () => {
    const cases: { response: HttpResponse; agency: string | null; operation: string; code: string }[] = [];
    const sender = {
      Party: {
        Sender: {
          TravelAgencySender: {
            AgencyID: 'AG1',
            Contacts: { Contact: [{ EmailContact: 'private.person@example.org' }] },
          },
        },
      },
    };
    cases.push({
      response: await service.post(CANCEL.path, CANCEL.build('ORD-W1', ['CXL001'], sender), bearer(token)),
      agency: 'AG1',
      operation: 'AirOrderCancel',
      code: 'OK',
    });
    cases.push({
      response: await service.post(ACCEPT.path, ACCEPT.build('ORD-NONE', ['ABC123'], sender), { authorization: token }),
      agency: 'AG1',
      operation: 'AirOrderInvoluntaryAccept',
      code: 'ORDER_NOT_FOUND',
    });
    cases.push({
      response: await service.post(INVOLUNTARY_CANCEL.path, INVOLUNTARY_CANCEL.build('ORD-W1', ['CXL001'], sender)),
      agency: null,
      operation: 'AirOrderInvoluntaryCancel',
      code: 'AUTH_MISSING',
    });
    cases.push({
      response: await service.post(
        CANCEL.path,
        CANCEL.build('ORD-W1', ['CXL001']),
        bearer('aot_not-a-real-token-0123456789'),
      ),
      agency: null,
      operation: 'AirOrderCancel',
      code: 'AUTH_INVALID',
    });
    cases.push({
      response: await service.post(CANCEL.path, CANCEL.build('ORD W1', ['CXL001'], sender), bearer(token)),
      agency: 'AG1',
      operation: 'AirOrderCancel',
      code: 'INVALID_REQUEST',
    });
    cases.push({
      response: await service.post(CANCEL.path, '{"OrderCancelRQ":', bearer(token)),
      agency: null,
      operation: 'AirOrderCancel',
      code: 'INVALID_JSON',
    });

    for (const { response, agency, operation, code } of cases) {
      const requestId = response.headers.get('x-request-id')!;
      const lines = await logLinesOf(service, requestId);
      assert.equal(lines.length, 1, `log lines of ${operation} ${code}: ${JSON.stringify(lines)}`);
      const line = lines[0]!;
      assert.equal(line.requestId, requestId);
      assert.equal(line.agency, agency);
      assert.equal(line.operation, operation);
      assert.equal(line.code, code);
      assert.equal(typeof line.latencyMs, 'number');
      assert.ok((line.latencyMs as number) >= 0);
    }
  });

  // Found by `npm run chaos`: a feed reader that gave up waiting on a paused process left a request
  // whose answer, compressed as a stream, had nowhere to go; it was logged as the service's failure.
  test('a client that closes its connection before a large compressed answer is no failure of the service', async () => {
    const bigToken = await service.tokenFor('AGBIG');
    const reference = (i: number) => `BIG${String(i).padStart(3, '0')}`;
    const orders = Array.from({ length: 120 }, (_, i) =>
      simpleOrder(`ORD-BIG-${i}`, 'AGBIG', reference(i), `22000009${String(i).padStart(5, '0')}`),
    );
    await service.importOrders(orders);
    await service.importChanges(
      orders.map((_, i) => change(`C-BIG-${i}`, `ORD-BIG-${i}`, reference(i), ['S1'], [segment('S1B', 1, 14)])),
    );
    const body = JSON.stringify({ OrderEventListRQ: { Query: { Limit: 500 } } });
    // Over 64 KiB: compressed as a stream on any machine (smaller answers are compressed at once).
    assert.ok((await service.post('/AirOrderEventList', body, bearer(bigToken))).text.length > 65_536);
    const port = Number(new URL(service.baseUrl).port);
    for (let i = 0; i < 20; i++) {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /AirOrderEventList HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${bigToken}\r\n` +
          `Accept-Encoding: gzip\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await sleep(i % 4);
      socket.destroy();
      await sleep(50);
    }
    await sleep(500);
    const failures = service.logs.filter((line) => (line.level as number) >= 50);
    assert.deepEqual(
      failures.map((line) => line.msg),
      [],
      JSON.stringify(failures[0]),
    );
    // Some of the twenty were cut short while their answer was on its way: the case at hand happened.
    const left = service.logs.filter((line) => line.msg === 'the client closed its connection before its answer');
    assert.ok(left.length > 0, 'a request whose client left before its answer');
    for (const line of left) {
      assert.deepEqual([line.level, line.code, typeof line.requestId], [30, 'CLIENT_CLOSED', 'string']);
      // It stands in for the request's own line: no answer went out, so there is none.
      assert.deepEqual(
        service.logs.filter((other) => other.msg === 'request' && other.requestId === line.requestId),
        [],
      );
    }
  });

  test('no token and no e-mail address appears anywhere in the log', async () => {
    // Requests carrying tokens and e-mail addresses in every place a request can: headers and body.
    const email = {
      Party: {
        Sender: { TravelAgencySender: { Contacts: { Contact: [{ EmailContact: 'someone.private@example.net' }] } } },
      },
    };
    await service.post(CANCEL.path, CANCEL.build('ORD-W1', ['CXL001'], email), bearer(token));
    await service.post(CANCEL.path, CANCEL.build('ORD-W1', ['CXL001'], email), { authorization: token });
    await service.post(
      CANCEL.path,
      CANCEL.build('ORD-W1', ['CXL001'], email),
      bearer('aot_leaked-looking-token-abcdef'),
    );
    await service.post(CANCEL.path, CANCEL.build('ORD-W1', ['not valid'], email), bearer(token));
    const last = await service.post(CANCEL.path, '{"broken": "someone.private@example.net"', bearer(token));
    await logLinesOf(service, last.headers.get('x-request-id')!);

    const log = service.rawLog();
    assert.ok(log.includes('"requestId"'), 'the log has request lines');
    assert.equal(log.includes(token), false, 'the token');
    assert.doesNotMatch(log, /aot_/);
    assert.equal(log.includes(token.slice(4)), false, 'the token without its prefix');
    assert.doesNotMatch(log, /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
    assert.equal(log.includes(EMAIL), false);
  });
});

describe('health', () => {
  test('GET /healthz and GET /readyz answer 200', async () => {
    const alive = await service.request('/healthz', { method: 'GET' });
    assert.equal(alive.status, 200, alive.text);
    const ready = await service.request('/readyz', { method: 'GET' });
    assert.equal(ready.status, 200, ready.text);
  });
});
