/** docs/contract.md §3 validation and §1.3 lenient input, over HTTP: 400 INVALID_REQUEST naming the field path. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EVENT_LIST, OPERATIONS } from '../../src/http/operations.js';
import { bearer, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { errorOf, OPERATION_CASES, snapshotStore, type OperationCase } from '../helpers/wire-checks.js';

const SENDER = 'Party.Sender.TravelAgencySender';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  await service.addAgency('AG1', { name: 'Alpha Travel', iataNumber: '12345678', email: 'desk@alpha.example' });
  token = await service.tokenFor('AG1');
  await service.importOrders([
    simpleOrder('ORD-V1', 'AG1', 'ABC123', '2200000000001'),
    simpleOrder('ORD-V2', 'AG1', 'DEF456', '2200000000002'),
    simpleOrder('ORD-V3', 'AG1', 'GHI789', '2200000000003'),
    simpleOrder('ORD-V4', 'AG1', 'JKL012', '2200000000004'),
  ]);
});
after(() => service.close());

/** A request body for an operation: `query` and `extra` are merged over a valid request for ORD-V1. */
function body(operation: OperationCase, query: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    [operation.requestRoot]: { ...extra, Query: { OrderID: 'ORD-V1', GdsBookingReference: ['ABC123'], ...query } },
  };
}

function sender(fields: Record<string, unknown>) {
  return { Party: { Sender: { TravelAgencySender: fields } } };
}

async function expectInvalid(
  operation: Pick<OperationCase, 'path' | 'requestRoot'>,
  requestBody: unknown,
  fieldPath: string,
): Promise<string> {
  const before = await snapshotStore(service);
  const response = await service.post(operation.path, requestBody, bearer(token));
  assert.equal(response.status, 400, response.text);
  const error = errorOf(response);
  assert.equal(error.Code, 'INVALID_REQUEST');
  assert.ok(
    error.Message.includes(`${operation.requestRoot}.${fieldPath}`),
    `"${error.Message}" names ${operation.requestRoot}.${fieldPath}`,
  );
  assert.deepEqual(await snapshotStore(service), before);
  return error.Message;
}

async function expectAccepted(
  operation: Pick<OperationCase, 'path' | 'requestRoot'>,
  requestBody: unknown,
  status = 200,
) {
  const response = await service.post(operation.path, requestBody, bearer(token));
  assert.equal(response.status, status, response.text);
  return response;
}

const references = (count: number) =>
  Array.from({ length: count }, (_, index) => `REF${String(index).padStart(3, '0')}`);

interface InvalidCase {
  name: string;
  query?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  path: string;
}

const INVALID: InvalidCase[] = [
  { name: 'OrderID of 65 characters', query: { OrderID: 'O'.repeat(65) }, path: 'Query.OrderID' },
  { name: 'OrderID empty', query: { OrderID: '' }, path: 'Query.OrderID' },
  { name: 'OrderID with a space', query: { OrderID: 'ORD V1' }, path: 'Query.OrderID' },
  { name: 'OrderID with #', query: { OrderID: 'ORD#1' }, path: 'Query.OrderID' },
  { name: 'OrderID with a non-ASCII letter', query: { OrderID: 'ÖRD-1' }, path: 'Query.OrderID' },
  { name: 'OrderID missing', query: { OrderID: undefined }, path: 'Query.OrderID' },
  { name: 'OrderID a number', query: { OrderID: 1001 }, path: 'Query.OrderID' },
  { name: 'OrderID null', query: { OrderID: null }, path: 'Query.OrderID' },
  { name: 'OrderID an array', query: { OrderID: ['ORD-V1'] }, path: 'Query.OrderID' },
  { name: 'GdsBookingReference an empty array', query: { GdsBookingReference: [] }, path: 'Query.GdsBookingReference' },
  {
    name: 'GdsBookingReference with 21 entries',
    query: { GdsBookingReference: references(21) },
    path: 'Query.GdsBookingReference',
  },
  {
    name: 'GdsBookingReference of 4 characters',
    query: { GdsBookingReference: ['ABC123', 'ABCD'] },
    path: 'Query.GdsBookingReference',
  },
  {
    name: 'GdsBookingReference of 9 characters',
    query: { GdsBookingReference: ['ABCDE1234'] },
    path: 'Query.GdsBookingReference',
  },
  {
    name: 'GdsBookingReference with a dash',
    query: { GdsBookingReference: ['ABC-12'] },
    path: 'Query.GdsBookingReference',
  },
  {
    name: 'GdsBookingReference an empty string',
    query: { GdsBookingReference: '' },
    path: 'Query.GdsBookingReference',
  },
  {
    name: 'GdsBookingReference entry a number',
    query: { GdsBookingReference: [123456] },
    path: 'Query.GdsBookingReference',
  },
  { name: 'GdsBookingReference entry null', query: { GdsBookingReference: [null] }, path: 'Query.GdsBookingReference' },
  { name: 'GdsBookingReference a number', query: { GdsBookingReference: 123456 }, path: 'Query.GdsBookingReference' },
  {
    name: 'GdsBookingReference an object',
    query: { GdsBookingReference: { 0: 'ABC123' } },
    path: 'Query.GdsBookingReference',
  },
  { name: 'GdsBookingReference missing', query: { GdsBookingReference: undefined }, path: 'Query.GdsBookingReference' },
  {
    name: 'ReferenceVersion letters',
    extra: { Document: { ReferenceVersion: 'v1' } },
    path: 'Document.ReferenceVersion',
  },
  {
    name: 'ReferenceVersion 1.0.0',
    extra: { Document: { ReferenceVersion: '1.0.0' } },
    path: 'Document.ReferenceVersion',
  },
  { name: 'ReferenceVersion "1."', extra: { Document: { ReferenceVersion: '1.' } }, path: 'Document.ReferenceVersion' },
  { name: 'ReferenceVersion empty', extra: { Document: { ReferenceVersion: '' } }, path: 'Document.ReferenceVersion' },
  {
    name: 'ReferenceVersion a boolean',
    extra: { Document: { ReferenceVersion: true } },
    path: 'Document.ReferenceVersion',
  },
  {
    name: 'ReferenceVersion negative',
    extra: { Document: { ReferenceVersion: -1 } },
    path: 'Document.ReferenceVersion',
  },
  // Past the OpenAPI document's number branch (below 1000000000): more digits than the string form has.
  {
    name: 'ReferenceVersion 1000000000',
    extra: { Document: { ReferenceVersion: 1_000_000_000 } },
    path: 'Document.ReferenceVersion',
  },
  {
    name: 'ReferenceVersion 1234567890',
    extra: { Document: { ReferenceVersion: 1234567890 } },
    path: 'Document.ReferenceVersion',
  },
  { name: 'ReferenceVersion 1e21', extra: { Document: { ReferenceVersion: 1e21 } }, path: 'Document.ReferenceVersion' },
  { name: 'Document.Name of 201 characters', extra: { Document: { Name: 'N'.repeat(201) } }, path: 'Document.Name' },
  { name: 'IATA_Number of 6 digits', extra: sender({ IATA_Number: '123456' }), path: `${SENDER}.IATA_Number` },
  { name: 'IATA_Number of 9 digits', extra: sender({ IATA_Number: '123456789' }), path: `${SENDER}.IATA_Number` },
  { name: 'IATA_Number with a letter', extra: sender({ IATA_Number: '1234567A' }), path: `${SENDER}.IATA_Number` },
  { name: 'IATA_Number a number', extra: sender({ IATA_Number: 12345678 }), path: `${SENDER}.IATA_Number` },
  { name: 'AgencyID empty', extra: sender({ AgencyID: '' }), path: `${SENDER}.AgencyID` },
  { name: 'AgencyID of 65 characters', extra: sender({ AgencyID: 'A'.repeat(65) }), path: `${SENDER}.AgencyID` },
  { name: 'AgencyID a number', extra: sender({ AgencyID: 1 }), path: `${SENDER}.AgencyID` },
  {
    name: 'EmailContact not an address',
    extra: sender({ Contacts: { Contact: [{ EmailContact: 'not-an-email' }] } }),
    path: `${SENDER}.Contacts.Contact[0].EmailContact`,
  },
  {
    name: 'EmailContact without a domain',
    extra: sender({ Contacts: { Contact: [{ EmailContact: 'someone@' }] } }),
    path: `${SENDER}.Contacts.Contact[0].EmailContact`,
  },
  {
    name: 'second EmailContact empty',
    extra: sender({ Contacts: { Contact: [{ EmailContact: 'a@b.example' }, { EmailContact: '' }] } }),
    path: `${SENDER}.Contacts.Contact[1].EmailContact`,
  },
  { name: 'sender Name of 201 characters', extra: sender({ Name: 'N'.repeat(201) }), path: `${SENDER}.Name` },
];

for (const operation of OPERATION_CASES) {
  describe(`validation of ${operation.path}`, () => {
    for (const invalid of INVALID) {
      test(`${invalid.name}: 400 INVALID_REQUEST naming ${invalid.path}`, async () => {
        await expectInvalid(operation, body(operation, invalid.query, invalid.extra), invalid.path);
      });
    }

    test('values at the limits pass validation', async () => {
      // Not found, so validation let them through to the lookup.
      await expectAccepted(operation, body(operation, { OrderID: `${'O'.repeat(60)}-_./` }), 404);
      await expectAccepted(
        operation,
        body(operation, { OrderID: 'ORD-NONE', GdsBookingReference: references(20) }),
        404,
      );
      await expectAccepted(operation, body(operation, { GdsBookingReference: ['ABCDE', 'ABCDEFGH', 'abc123'] }));
      await expectAccepted(
        operation,
        body(operation, {}, { Document: { Name: 'N'.repeat(200), ReferenceVersion: '123.456' } }),
      );
      await expectAccepted(
        operation,
        body(
          operation,
          {},
          sender({
            Name: 'N'.repeat(200),
            IATA_Number: '12345678',
            AgencyID: 'AG1',
            Contacts: { Contact: [{ EmailContact: 'someone.else@example.com' }] },
          }),
        ),
      );
      // Well-formed but another agency's identifiers: past validation, refused by the sender check.
      assert.equal(
        errorOf(await expectAccepted(operation, body(operation, {}, sender({ IATA_Number: '1234567' })), 403)).Code,
        'SENDER_MISMATCH',
      );
      assert.equal(
        errorOf(await expectAccepted(operation, body(operation, {}, sender({ AgencyID: 'A'.repeat(64) })), 403)).Code,
        'SENDER_MISMATCH',
      );
    });

    test('the body must be one object with the single root key of the operation', async () => {
      const valid = body(operation)[operation.requestRoot];
      const other = OPERATION_CASES.find((candidate) => candidate !== operation)!;
      const cases: unknown[] = [
        { [operation.requestRoot]: valid, [other.requestRoot]: valid },
        { [other.requestRoot]: valid },
        { [operation.requestRoot.toLowerCase()]: valid },
        {},
        [{ [operation.requestRoot]: valid }],
        [],
        JSON.stringify(JSON.stringify({ [operation.requestRoot]: valid })),
        'null',
        '42',
        { [operation.requestRoot]: 'ORD-V1' },
        { [operation.requestRoot]: [valid] },
      ];
      for (const requestBody of cases) {
        const response = await service.post(operation.path, requestBody, bearer(token));
        assert.equal(response.status, 400, `${JSON.stringify(requestBody)}: ${response.text}`);
        const error = errorOf(response);
        assert.equal(error.Code, 'INVALID_REQUEST');
        assert.ok(error.Message.includes(operation.requestRoot), `"${error.Message}" names ${operation.requestRoot}`);
        assert.deepEqual(Object.keys(response.body), [operation.responseRoot]);
      }
    });

    test('GdsBookingReference sent as a single string is read as a one-element array', async () => {
      const response = await expectAccepted(operation, body(operation, { GdsBookingReference: 'abc123' }));
      const items = response.body[operation.responseRoot][operation.resultKey];
      assert.equal(items.length, 1);
      assert.deepEqual(items[0].GdsBookingReference, operation.resultKey === 'Response' ? 'ABC123' : ['ABC123']);
      // Also on a request-level failure, the single string is a readable reference.
      const missing = await expectAccepted(
        operation,
        body(operation, { OrderID: 'ORD-NONE', GdsBookingReference: 'xyz789' }),
        404,
      );
      assert.equal(missing.body[operation.responseRoot][operation.resultKey].length, 1);
    });

    test('ReferenceVersion sent as a number is echoed as its decimal string', async () => {
      // JSON.stringify writes 1e-7 with an exponent, as some agencies' serialisers do; 999999999.5 is
      // near the top of the document's range; 0.1 + 0.2 has more decimals than the string form keeps.
      for (const [sent, echoed] of [
        [17.2, '17.2'],
        [3, '3'],
        [2.25, '2.25'],
        [0, '0'],
        [1e-7, '0.0000001'],
        [999999999.5, '999999999.5'],
        [0.1 + 0.2, '0.3'],
      ] as const) {
        const response = await expectAccepted(operation, body(operation, {}, { Document: { ReferenceVersion: sent } }));
        assert.equal(response.body[operation.responseRoot].Document.ReferenceVersion, echoed);
      }
      const failed = await expectAccepted(
        operation,
        body(operation, { OrderID: 'ORD-NONE' }, { Document: { ReferenceVersion: 4.5 } }),
        404,
      );
      assert.equal(failed.body[operation.responseRoot].Document.ReferenceVersion, '4.5');
    });

    test('an invalid ReferenceVersion is not echoed: the response says "1.0"', async () => {
      await expectInvalid(
        operation,
        body(operation, {}, { Document: { ReferenceVersion: 'v9' } }),
        'Document.ReferenceVersion',
      );
      const response = await service.post(
        operation.path,
        body(operation, {}, { Document: { ReferenceVersion: 'v9' } }),
        bearer(token),
      );
      assert.equal(response.body[operation.responseRoot].Document.ReferenceVersion, '1.0');
    });

    test('a body without Query: 400 INVALID_REQUEST naming Query', async () => {
      await expectInvalid(operation, { [operation.requestRoot]: { Document: { ReferenceVersion: '1.0' } } }, 'Query');
    });

    test('a Content-Type with a charset parameter is accepted, white space before the semicolon too', async () => {
      for (const contentType of [
        'application/json; charset=utf-8',
        'application/json;charset=UTF-8',
        'application/json ; charset=utf-8',
      ]) {
        const response = await service.post(operation.path, body(operation), {
          ...bearer(token),
          'content-type': contentType,
        });
        assert.equal(response.status, 200, `${contentType}: ${response.text}`);
      }
    });
  });
}

describe("the refunds' and the event feed's own fields", () => {
  const quote = OPERATIONS.refundQuote;
  const refund = OPERATIONS.refund;
  const query = { OrderID: 'ORD-V1', GdsBookingReference: ['ABC123'] };
  const QUOTE_ID = `rfq_${'0'.repeat(24)}`;
  const cases: {
    name: string;
    operation: Pick<OperationCase, 'path' | 'requestRoot'>;
    body: Record<string, unknown>;
    path: string;
  }[] = [
    {
      name: 'AirOrderRefundQuote without Query',
      operation: quote,
      body: {},
      path: 'Query',
    },
    {
      name: 'AirOrderRefundQuote with a PassengerID of two words',
      operation: quote,
      body: { Query: { ...query, PassengerID: ['P 1'] } },
      path: 'Query.PassengerID',
    },
    { name: 'AirOrderRefund without Query', operation: refund, body: {}, path: 'Query' },
    {
      name: 'AirOrderRefund without QuoteID',
      operation: refund,
      body: { Query: query },
      path: 'Query.QuoteID',
    },
    {
      name: 'AirOrderEventList with an After that is no event id',
      operation: EVENT_LIST,
      body: { Query: { After: 'evt_nope' } },
      path: 'Query.After',
    },
  ];
  for (const invalid of cases) {
    test(`${invalid.name}: 400 INVALID_REQUEST naming ${invalid.path}`, async () => {
      const message = await expectInvalid(
        invalid.operation,
        { [invalid.operation.requestRoot]: invalid.body },
        invalid.path,
      );
      // The schema refuses it, before the route could look the event up.
      assert.doesNotMatch(message, /names no event/);
    });
  }

  test('the same requests, made valid, pass validation', async () => {
    await expectAccepted(quote, { [quote.requestRoot]: { Query: { ...query, PassengerID: ['P1'] } } });
    await expectAccepted(refund, { [refund.requestRoot]: { Query: { ...query, QuoteID: QUOTE_ID } } });
    await expectAccepted(EVENT_LIST, { [EVENT_LIST.requestRoot]: { Query: {} } });
  });
});

describe('unknown fields and prototype keys', () => {
  test('unknown fields are ignored: the request succeeds and they are neither echoed nor stored', async () => {
    const marker = 'UNKNOWN-MARKER-7f3a';
    const requestBody = {
      OrderCancelRQ: {
        Extra: marker,
        Document: { ReferenceVersion: '1.0', ExtraDocumentField: marker },
        Party: {
          Sender: {
            TravelAgencySender: {
              AgencyID: 'AG1',
              ExtraSenderField: marker,
              Contacts: { Contact: [{ EmailContact: 'x@y.example', Phone: marker }] },
            },
          },
        },
        Query: { OrderID: 'ORD-V2', GdsBookingReference: ['DEF456'], ExtraQueryField: marker },
      },
    };
    const response = await service.post('/AirOrderCancel', requestBody, bearer(token));
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.OrderViewRS.Response, [
      { Status: 'SUCCESS', Msg: '', BookingStatus: 'CANCELED', OrderID: 'ORD-V2', GdsBookingReference: 'DEF456' },
    ]);
    assert.doesNotMatch(response.text, /UNKNOWN-MARKER|Extra|Phone/);
    assert.doesNotMatch(JSON.stringify(await snapshotStore(service)), /UNKNOWN-MARKER|Extra/);
  });

  test('__proto__ and constructor keys neither pollute Object.prototype nor break the request', async () => {
    const text = `{
      "__proto__": { "pollutedTop": "yes" },
      "OrderCancelRQ": {
        "__proto__": { "pollutedRoot": "yes" },
        "constructor": { "prototype": { "pollutedCtor": "yes" } },
        "Document": { "__proto__": { "ReferenceVersion": "9.9" } },
        "Query": { "OrderID": "ORD-V3", "GdsBookingReference": ["GHI789"], "__proto__": { "pollutedQuery": "yes" }, "constructor": "plain" }
      }
    }`;
    const response = await service.post('/AirOrderCancel', text, bearer(token));
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.OrderViewRS.Response, [
      { Status: 'SUCCESS', Msg: '', BookingStatus: 'CANCELED', OrderID: 'ORD-V3', GdsBookingReference: 'GHI789' },
    ]);
    assert.equal(response.body.OrderViewRS.Document.ReferenceVersion, '1.0');
    const probe: Record<string, unknown> = {};
    for (const key of ['pollutedTop', 'pollutedRoot', 'pollutedCtor', 'pollutedQuery', 'ReferenceVersion']) {
      assert.equal(probe[key], undefined, key);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, key), false, key);
    }
    assert.doesNotMatch(response.text, /polluted/);
  });

  test('a body whose only root key is __proto__ is refused, not read through the prototype', async () => {
    const response = await service.post(
      '/AirOrderCancel',
      '{"__proto__":{"OrderCancelRQ":{"Query":{"OrderID":"ORD-V4","GdsBookingReference":["JKL012"]}}}}',
      bearer(token),
    );
    assert.equal(response.status, 400, response.text);
    assert.equal(errorOf(response).Code, 'INVALID_REQUEST');
    const row = await service.store.db
      .selectFrom('bookings')
      .select('status')
      .where('order_id', '=', 'ORD-V4')
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'CONFIRMED');
  });
});
