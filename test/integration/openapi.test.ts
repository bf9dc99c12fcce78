/**
 * GET /openapi.json: a valid OpenAPI 3.1 document made from the routes' own schemas, listing the
 * seven operations with every status and error code they answer, each with an example; and every
 * response the service really sends, for each operation and outcome, matches the document's schema
 * for its status (with no field the document does not name). Also: the Postman files in
 * docs/postman are the ones generated from this document. Runs on the store named by TEST_STORE.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { requestSchemaFor } from '../../src/http/schemas/request-schema.js';
import { responseSchema } from '../../src/http/schemas/response-schema.js';
import { EVENT_LIST, OPERATIONS, RETRIEVE, type OperationWire } from '../../src/http/operations.js';
import {
  POSTMAN_FILES,
  postmanCollection,
  postmanEnvironment,
  type OpenApiDocument,
} from '../../scripts/postman-collection.js';
import { bearer, booking, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { testStoreKind } from '../helpers/test-database.js';
import { closed } from '../helpers/openapi-conformance.js';
import { settledFeed } from '../helpers/settled-feed.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import { refuseRecordWrites, setStoredBookingMember } from '../helpers/stored-records.js';
import { scaled } from '../helpers/time-scale.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The operations in the order the documentation lists them. */
const ALL: readonly OperationWire[] = [...Object.values(OPERATIONS), RETRIEVE, EVENT_LIST];
const CHANGING_ERRORS: Record<string, string[]> = {
  400: ['INVALID_JSON', 'INVALID_REQUEST'],
  401: ['AUTH_MISSING', 'AUTH_INVALID'],
  403: ['SENDER_MISMATCH'],
  404: ['ORDER_NOT_FOUND'],
  409: ['IDEMPOTENCY_KEY_IN_USE'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  422: ['IDEMPOTENCY_KEY_REUSED'],
  429: ['RATE_LIMITED', 'IDEMPOTENCY_KEYS_EXHAUSTED'],
  500: ['INTERNAL_ERROR'],
  503: ['UNAVAILABLE'],
};
/** A read takes no Idempotency-Key, so it answers neither 409 nor 422, and 429 only for the rate. */
const READ_ERRORS = {
  ...Object.fromEntries(Object.entries(CHANGING_ERRORS).filter(([status]) => status !== '409' && status !== '422')),
  429: ['RATE_LIMITED'],
};
const ITEM_ERRORS: Record<string, string[]> = {
  cancel: ['BOOKING_NOT_FOUND'],
  involuntaryAccept: ['BOOKING_NOT_FOUND', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE', 'NO_REPLACEMENT_OFFERED'],
  involuntaryCancel: ['BOOKING_NOT_FOUND', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE'],
  refundQuote: ['BOOKING_NOT_FOUND', 'PASSENGER_NOT_FOUND', 'ALREADY_REFUNDED', 'NO_FARE_RULES', 'PARTLY_FLOWN'],
  refund: ['BOOKING_NOT_FOUND', 'QUOTE_NOT_FOUND', 'QUOTE_EXPIRED', 'QUOTE_OUTDATED'],
  retrieve: ['BOOKING_NOT_FOUND'],
  eventList: [],
};
/** The event feed names no order: it never answers 404. */
const FEED_ERRORS = Object.fromEntries(Object.entries(READ_ERRORS).filter(([status]) => status !== '404'));
const errorsOf = (operation: OperationWire) =>
  operation.changesOrders ? CHANGING_ERRORS : operation.name === 'eventList' ? FEED_ERRORS : READ_ERRORS;

let service: TestService;
let token: string;
let document: any;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const validators = new Map<string, ValidateFunction>();

function operationOf(operation: OperationWire): any {
  const found = document.paths[operation.path]?.post;
  assert.ok(found, `${operation.path} is in the document`);
  return found;
}

/** A schema of the document, with $refs into components resolved. */
function resolve(schema: any): any {
  if (schema?.$ref) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
    assert.ok(name && document.components.schemas[name], `${schema.$ref} resolves`);
    return document.components.schemas[name];
  }
  return schema;
}

function validatorFor(operation: OperationWire, status: number): ValidateFunction {
  const key = `${operation.path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const response = operationOf(operation).responses[String(status)];
    assert.ok(response, `${operation.path} documents status ${status}`);
    validate = ajv.compile(closed(resolve(response.content['application/json'].schema)));
    validators.set(key, validate);
  }
  return validate;
}

/** A response the service sent: its status is documented with its code, and its body matches the schema. */
function assertDocumented(operation: OperationWire, response: HttpResponse, expectedCode: string, where: string): void {
  const status = response.status;
  const validate = validatorFor(operation, status);
  const payload: any = response.body;
  assert.ok(
    validate(payload),
    `${where}: ${operation.path} ${status} ${ajv.errorsText(validate.errors)}\n${response.text}`,
  );
  const root = response.body[operation.responseRoot];
  const code = root.Errors?.[0]?.Code ?? 'SUCCESS';
  assert.equal(code, expectedCode, `${where}: ${response.text}`);
  const examples = operationOf(operation).responses[String(status)].content['application/json'].examples;
  assert.ok(examples[code], `${where}: ${operation.path} ${status} has an example of ${code}`);
  assert.equal(response.headers.get('x-request-id'), root.ShoppingResponseId);
}

before(async () => {
  service = await startTestService();
  await service.addAgency('AG1', { name: 'Alpha Travel', iataNumber: '12345678', email: 'desk@alpha.example' });
  token = await service.tokenFor('AG1');
  const response = await service.request('/openapi.json', { method: 'GET' });
  assert.equal(response.status, 200, response.text);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  document = response.body;
});
after(() => service.close());

describe('the OpenAPI document', () => {
  test('is valid OpenAPI 3.1', async () => {
    assert.equal(document.openapi, '3.1.0');
    const result = await new Validator().validate(structuredClone(document));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    // The validator does reject what is not OpenAPI.
    const broken = structuredClone(document);
    broken.paths['/AirOrderCancel'].post.responses = { 200: { content: {} } };
    assert.equal((await new Validator().validate(broken)).valid, false);
  });

  test('info (a contact and licence naming the operator, no address), servers and the bearer scheme, which says that the bare token is accepted too', () => {
    assert.equal(document.info.title, 'airorder');
    assert.match(document.info.version, /^\d+\.\d+\.\d+/);
    assert.ok(document.info.description.length > 100);
    // Whoever runs the service answers for it: a contact and a licence that say so, and no person's address.
    assert.deepEqual(Object.keys(document.info.contact), ['name']);
    assert.match(document.info.contact.name, /operator of this service/);
    assert.deepEqual(Object.keys(document.info.license), ['name']);
    assert.match(document.info.license.name, /agreement with the operator/);
    assert.deepEqual(
      document.servers.map((server: any) => server.url),
      ['/'],
    );
    const scheme = document.components.securitySchemes.bearerAuth;
    assert.equal(scheme.type, 'http');
    assert.equal(scheme.scheme, 'bearer');
    assert.match(scheme.description, /Authorization: Bearer <token>/);
    assert.match(scheme.description, /bare token/i);
    // Which refusal a reader gets for which token, by its code.
    assert.match(scheme.description, /A missing header is 401 AUTH_MISSING/);
    assert.match(scheme.description, /revoked or expired token 401 AUTH_INVALID\.$/);
  });

  test('every description it carries says something: none is blank', () => {
    const blank: string[] = [];
    const visit = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${at}/${index}`));
      else if (value !== null && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'description' && typeof inner === 'string' && inner.trim() === '') blank.push(at);
          visit(inner, `${at}/${key}`);
        }
    };
    visit(document, '#');
    assert.deepEqual(blank, []);
    assert.ok(JSON.stringify(document).includes('"description":'), 'the walk reached descriptions');
    assert.match(document.servers[0].description, /\S/);
  });

  test('lists exactly the seven operations, each secured, summarised and tagged', () => {
    assert.deepEqual(Object.keys(document.paths).sort(), ALL.map((operation) => operation.path).sort());
    for (const operation of ALL) {
      assert.deepEqual(Object.keys(document.paths[operation.path]), ['post']);
      const op = operationOf(operation);
      assert.equal(op.operationId, operation.title);
      assert.ok(op.summary && op.description && op.tags?.length === 1, operation.path);
      assert.deepEqual(op.security, [{ bearerAuth: [] }]);
    }
    // Nothing else: not the health checks, not the docs.
    assert.doesNotMatch(JSON.stringify(Object.keys(document.paths)), /healthz|readyz|docs|openapi/);
  });

  test('its request and response schemas are the ones the routes validate and serialise with', () => {
    for (const operation of ALL) {
      const op = operationOf(operation);
      assert.equal(op.requestBody.required, true);
      const request = resolve(op.requestBody.content['application/json'].schema);
      assert.deepEqual(request, JSON.parse(JSON.stringify(requestSchemaFor(operation))), operation.path);
      for (const [status, response] of Object.entries<any>(op.responses)) {
        assert.deepEqual(
          resolve(response.content['application/json'].schema),
          JSON.parse(JSON.stringify(responseSchema(operation))),
          `${operation.path} ${status}`,
        );
      }
    }
    // AirOrderRetrieve's envelope has the order; the others do not.
    const retrieve = resolve(operationOf(RETRIEVE).responses['200'].content['application/json'].schema);
    assert.deepEqual(Object.keys(retrieve.properties.OrderViewRS.properties), [
      'Document',
      'Party',
      'ShoppingResponseId',
      'Order',
      'Response',
      'Success',
      'Errors',
    ]);
    const cancel = resolve(operationOf(OPERATIONS.cancel).responses['200'].content['application/json'].schema);
    assert.equal('Order' in cancel.properties.OrderViewRS.properties, false);
  });

  test('every operation documents 200 and each error status it answers, with an example of every code', () => {
    for (const operation of ALL) {
      const op = operationOf(operation);
      const errors = errorsOf(operation);
      assert.deepEqual(Object.keys(op.responses), ['200', ...Object.keys(errors)], operation.path);
      for (const [status, codes] of Object.entries(errors)) {
        const response = op.responses[status];
        assert.deepEqual(
          Object.keys(response.content['application/json'].examples),
          codes,
          `${operation.path} ${status}`,
        );
        for (const code of codes)
          assert.match(response.description, new RegExp(code), `${operation.path} ${status} describes ${code}`);
      }
      assert.deepEqual(Object.keys(op.responses['200'].content['application/json'].examples), [
        'SUCCESS',
        ...ITEM_ERRORS[operation.name]!,
      ]);
    }
  });

  test("every example matches its schema: the request examples, and each response example its status's", () => {
    for (const operation of ALL) {
      const op = operationOf(operation);
      const validateRequest = ajv.compile(resolve(op.requestBody.content['application/json'].schema));
      const requestExamples = Object.entries<any>(op.requestBody.content['application/json'].examples);
      assert.ok(requestExamples.length >= 2, operation.path);
      for (const [name, example] of requestExamples) {
        assert.ok(
          validateRequest(example.value),
          `${operation.path} request example ${name}: ${ajv.errorsText(validateRequest.errors)}`,
        );
      }
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const validate = validatorFor(operation, Number(status));
        for (const [name, example] of Object.entries<any>(response.content['application/json'].examples)) {
          assert.ok(
            validate(example.value),
            `${operation.path} ${status} example ${name}: ${ajv.errorsText(validate.errors)}`,
          );
          const root = example.value[operation.responseRoot];
          assert.equal(root.Errors?.[0]?.Code ?? 'SUCCESS', name, `${operation.path} ${status} example ${name}`);
          assert.ok(example.summary, `${operation.path} ${status} example ${name} has a summary`);
        }
      }
    }
  });

  test('the Idempotency-Key header on the five operations that change orders, not on the reads', () => {
    for (const operation of ALL) {
      const parameters = operationOf(operation).parameters ?? [];
      if (!operation.changesOrders) {
        assert.deepEqual(parameters, [], operation.path);
        continue;
      }
      assert.deepEqual(
        parameters.map((parameter: any) => [parameter.in, parameter.name, parameter.required]),
        [['header', 'Idempotency-Key', false]],
      );
      assert.equal(parameters[0].schema.maxLength, 255);
      assert.ok(parameters[0].description);
    }
  });

  test('response headers: X-Request-Id on every response, Retry-After, RateLimit-*, WWW-Authenticate and Idempotent-Replayed where sent', () => {
    for (const operation of ALL) {
      const responses = operationOf(operation).responses;
      for (const [status, response] of Object.entries<any>(responses)) {
        assert.ok(response.headers['X-Request-Id'], `${operation.path} ${status}`);
        if (['429', '503'].includes(status))
          assert.ok(response.headers['Retry-After'], `${operation.path} ${status} Retry-After`);
      }
      for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']) {
        assert.ok(responses['200'].headers[name], `${operation.path} 200 ${name}`);
        assert.ok(responses['429'].headers[name], `${operation.path} 429 ${name}`);
      }
      assert.ok(responses['401'].headers['WWW-Authenticate']);
      assert.equal(Boolean(responses['200'].headers['Idempotent-Replayed']), operation.changesOrders, operation.path);
    }
  });

  test('is served the same each time, with the strict security headers of the API', async () => {
    const again = await service.request('/openapi.json', { method: 'GET' });
    assert.deepEqual(again.body, document);
    assert.equal(again.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
    assert.equal(again.headers.get('x-content-type-options'), 'nosniff');
  });

  test('docs/postman holds the collection and environment generated from this document (npm run postman)', () => {
    const collection = JSON.parse(fs.readFileSync(POSTMAN_FILES.collection, 'utf8'));
    const environment = JSON.parse(fs.readFileSync(POSTMAN_FILES.environment, 'utf8'));
    assert.deepEqual(
      collection,
      JSON.parse(JSON.stringify(postmanCollection(document as OpenApiDocument))),
      'run `npm run postman` and commit docs/postman',
    );
    assert.deepEqual(environment, postmanEnvironment(document as OpenApiDocument));
    assert.equal(collection.info.schema, 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    assert.deepEqual(collection.auth, {
      type: 'bearer',
      bearer: [{ key: 'token', value: '{{token}}', type: 'string' }],
    });
    // The demo bookings' variables that `serve --demo` prints (test/e2e/postman-newman.test.ts runs them).
    assert.deepEqual(
      environment.values.map((value: any) => value.key),
      [
        'baseUrl',
        'token',
        'cancelOrderId',
        'cancelReference',
        'acceptOrderId',
        'acceptReference',
        'refundOrderId',
        'refundReference',
        'voluntaryOrderId',
        'voluntaryReference',
      ],
    );
    const requests = collection.item.flatMap((folder: any) => folder.item);
    assert.deepEqual(
      requests.map((item: any) => item.request.url.raw).sort(),
      ALL.map((operation) => `{{baseUrl}}${operation.path}`).sort(),
    );
    for (const item of requests) {
      assert.equal(item.request.method, 'POST');
      assert.ok(JSON.parse(item.request.body.raw));
      assert.ok(
        item.event.some((event: any) => event.listen === 'test' && event.script.exec.join('\n').includes('pm.test(')),
        `${item.name} has tests`,
      );
      const operation = ALL.find((candidate) => item.request.url.raw.endsWith(candidate.path))!;
      const documented = Object.values<any>(operationOf(operation).responses).reduce(
        (count, response) => count + Object.keys(response.content['application/json'].examples).length,
        0,
      );
      assert.equal(item.response.length, documented, `${operation.path}: every response example is saved`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Real responses, for each operation and outcome, against the document.

let orderCount = 0;

/** A fresh order of AG1 with bookings in every state the item-level failures need. */
async function freshOrder(target: TestService = service): Promise<string> {
  orderCount += 1;
  const orderId = `OA-${orderCount}`;
  // Refundable by their fare rules, issued long ago (no void), but for NORU01's, which has no rules, and FLWN01's, half flown.
  const ticket = (index: number, rules = true, status = 'OPEN') => ({
    ticketNumber: `22${String(orderCount).padStart(6, '0')}${String(index).padStart(5, '0')}`,
    baseFare: '100.00',
    taxes: '20.00',
    coupons: [{ segmentId: 'S1', status }],
    issuedAt: '2026-01-01T00:00:00Z',
    ...(rules ? { fareRules: { refundable: true, penaltyPercent: '10' } } : {}),
  });
  await target.importOrders([
    order(orderId, 'AG1', 'EUR', [
      booking('PEND01', [segment('S1')], [passenger('P1', ticket(1))]),
      booking('NONE01', [segment('S1')], [passenger('P1', ticket(2))]),
      booking('CANC01', [segment('S1')], [passenger('P1', ticket(3))], 'CANCELED'),
      booking('REMV01', [segment('S1')], [passenger('P1', ticket(4))]),
      booking('NORU01', [segment('S1')], [passenger('P1', ticket(5, false))]),
      booking('FLWN01', [segment('S1')], [passenger('P1', ticket(6, true, 'USED'))]),
    ]),
  ]);
  await target.importChanges([
    change(`${orderId}-A`, orderId, 'PEND01', ['S1'], [segment('S1B', 1, 14)]),
    change(`${orderId}-B`, orderId, 'REMV01', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ]);
  return orderId;
}

/** AirOrderRefund names a quote: one that exists nowhere, unless the test made one (`quoteOf`). */
const NO_QUOTE = 'rfq_000000000000000000000000';

function body(operation: OperationWire, orderId: string, references: string[], extra: object = {}, query: object = {}) {
  const quote = operation.name === 'refund' ? { QuoteID: NO_QUOTE } : {};
  return {
    [operation.requestRoot]: {
      ...extra,
      Query: { OrderID: orderId, GdsBookingReference: references, ...quote, ...query },
    },
  };
}

/** A new quote for the bookings, as AirOrderRefund's Query names it. */
async function quoteOf(
  orderId: string,
  references: string[],
  target: TestService = service,
): Promise<{ QuoteID: string }> {
  const response = await target.post(
    '/AirOrderRefundQuote',
    { OrderRefundQuoteRQ: { Query: { OrderID: orderId, GdsBookingReference: references } } },
    bearer(token),
  );
  const quoteId = response.body.OrderRefundQuoteRS.Result[0].QuoteID;
  assert.match(quoteId, /^rfq_/, response.text);
  return { QuoteID: quoteId };
}

/** The Query fields an item case needs beyond the order and its reference. */
const CASE_QUERIES: Record<string, Record<string, (orderId: string) => Promise<object>>> = {
  refundQuote: { PASSENGER_NOT_FOUND: async () => ({ PassengerID: ['P9'] }) },
  refund: {
    SUCCESS: (orderId) => quoteOf(orderId, ['PEND01']),
    QUOTE_OUTDATED: async (orderId) => {
      const quote = await quoteOf(orderId, ['NONE01']);
      await service.post(
        '/AirOrderCancel',
        { OrderCancelRQ: { Query: { OrderID: orderId, GdsBookingReference: ['NONE01'] } } },
        bearer(token),
      );
      return quote;
    },
  },
};

const ITEM_CASES: Record<string, [string, string][]> = {
  cancel: [
    ['SUCCESS', 'PEND01'],
    ['BOOKING_NOT_FOUND', 'NOPE01'],
  ],
  involuntaryAccept: [
    ['SUCCESS', 'PEND01'],
    ['BOOKING_NOT_FOUND', 'NOPE01'],
    ['BOOKING_CANCELED', 'CANC01'],
    ['NO_PENDING_CHANGE', 'NONE01'],
    ['NO_REPLACEMENT_OFFERED', 'REMV01'],
  ],
  involuntaryCancel: [
    ['SUCCESS', 'PEND01'],
    ['BOOKING_NOT_FOUND', 'NOPE01'],
    ['BOOKING_CANCELED', 'CANC01'],
    ['NO_PENDING_CHANGE', 'NONE01'],
  ],
  refundQuote: [
    ['SUCCESS', 'PEND01'],
    ['BOOKING_NOT_FOUND', 'NOPE01'],
    ['PASSENGER_NOT_FOUND', 'PEND01'],
    ['NO_FARE_RULES', 'NORU01'],
    ['PARTLY_FLOWN', 'FLWN01'],
  ],
  refund: [
    ['SUCCESS', 'PEND01'],
    ['BOOKING_NOT_FOUND', 'NOPE01'],
    ['QUOTE_NOT_FOUND', 'REMV01'],
    ['QUOTE_OUTDATED', 'NONE01'],
  ],
  retrieve: [
    ['SUCCESS', 'PEND01'],
    ['BOOKING_NOT_FOUND', 'NOPE01'],
  ],
};

/** Makes the store refuse to update one order's bookings: the operations that write answer 500. */
function failUpdatesOf(orderId: string): Promise<() => Promise<void>> {
  return refuseRecordWrites(service.store.db, 'fail_openapi', `NEW.order_id = '${orderId}'`);
}

/**
 * Holds the store from outside the service, so that requests wait past REQUEST_TIMEOUT_MS: on
 * PostgreSQL an exclusive lock on the orders table (reads wait too), on SQLite the write lock (only
 * writes wait: in WAL mode nothing blocks a read).
 */
async function holdStore(target: TestService): Promise<() => Promise<void>> {
  if (testStoreKind() === 'postgres') {
    const client = new pg.Client(target.databaseUrl);
    await client.connect();
    await client.query('begin');
    await client.query('lock table orders in access exclusive mode');
    return async () => {
      await client.query('commit');
      await client.end();
    };
  }
  const db = new Database(target.databaseUrl.slice('sqlite:'.length));
  db.exec('begin immediate');
  return async () => {
    db.exec('commit');
    db.close();
  };
}

/** The operations on one order (the event feed names none). */
const ORDER_OPERATIONS = ALL.filter((operation) => operation.name !== 'eventList');
const FEED = ALL.find((operation) => operation.name === 'eventList')!;

describe('every response the service sends matches the document', () => {
  test(`${FEED.path}: 200 with events and without, and each request-level error the test can cause`, async () => {
    await freshOrder();
    // The page of two needs two events listed (settled-feed.ts: PostgreSQL lists them a moment later).
    assert.ok((await settledFeed(service, token, 'AG1')).length >= 2);
    const post = (payload: unknown, headers: Record<string, string> = bearer(token)) =>
      service.post(FEED.path, payload, headers);
    const first = await post({ OrderEventListRQ: { Query: { Limit: 2 } } });
    assertDocumented(FEED, first, 'SUCCESS', 'a page of events');
    assert.equal(first.body.OrderEventListRS.Events.length, 2);
    assertDocumented(FEED, await post({ OrderEventListRQ: {} }), 'SUCCESS', 'no Query');
    assertDocumented(FEED, await post('{"broken":'), 'INVALID_JSON', 'INVALID_JSON');
    assertDocumented(
      FEED,
      await post({ OrderEventListRQ: { Query: { Limit: 0 } } }),
      'INVALID_REQUEST',
      'INVALID_REQUEST',
    );
    assertDocumented(
      FEED,
      await post({ OrderEventListRQ: { Query: { After: 'evt_0000000000000000000000000000' } } }),
      'INVALID_REQUEST',
      'unknown After',
    );
    assertDocumented(FEED, await post({ OrderEventListRQ: {} }, {}), 'AUTH_MISSING', 'AUTH_MISSING');
    assertDocumented(FEED, await post({ OrderEventListRQ: {} }, bearer('aot_unknown')), 'AUTH_INVALID', 'AUTH_INVALID');
    assertDocumented(
      FEED,
      await post({ OrderEventListRQ: { Party: { Sender: { TravelAgencySender: { AgencyID: 'ELSE' } } } } }),
      'SENDER_MISMATCH',
      'SENDER_MISMATCH',
    );
    assertDocumented(
      FEED,
      await post(JSON.stringify({ OrderEventListRQ: { Pad: 'x'.repeat(70 * 1024) } })),
      'PAYLOAD_TOO_LARGE',
      'PAYLOAD_TOO_LARGE',
    );
    assertDocumented(
      FEED,
      await service.request(FEED.path, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...bearer(token) },
        body: '{"OrderEventListRQ":{}}',
      }),
      'UNSUPPORTED_MEDIA_TYPE',
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  for (const operation of ORDER_OPERATIONS) {
    test(`${operation.path}: 200 with every item outcome, and each request-level error the test can cause`, async () => {
      const orderId = await freshOrder();
      const post = (payload: unknown, headers: Record<string, string> = bearer(token)) =>
        service.post(operation.path, payload, headers);

      for (const [code, reference] of ITEM_CASES[operation.name]!) {
        const query = (await CASE_QUERIES[operation.name]?.[code]?.(orderId)) ?? {};
        const response = await post(body(operation, orderId, [reference], {}, query));
        assert.equal(response.status, 200, response.text);
        assertDocumented(operation, response, code, `item ${code}`);
      }
      assertDocumented(operation, await post('{"broken":', bearer(token)), 'INVALID_JSON', 'INVALID_JSON');
      assertDocumented(operation, await post(body(operation, orderId, ['x'])), 'INVALID_REQUEST', 'INVALID_REQUEST');
      assertDocumented(operation, await post(body(operation, orderId, ['PEND01']), {}), 'AUTH_MISSING', 'AUTH_MISSING');
      assertDocumented(
        operation,
        await post(body(operation, orderId, ['PEND01']), bearer('aot_unknown')),
        'AUTH_INVALID',
        'AUTH_INVALID',
      );
      assertDocumented(
        operation,
        await post(
          body(operation, orderId, ['PEND01'], { Party: { Sender: { TravelAgencySender: { AgencyID: 'ELSE' } } } }),
        ),
        'SENDER_MISMATCH',
        'SENDER_MISMATCH',
      );
      assertDocumented(
        operation,
        await post(body(operation, 'NO-SUCH', ['PEND01'])),
        'ORDER_NOT_FOUND',
        'ORDER_NOT_FOUND',
      );
      assertDocumented(
        operation,
        await post(JSON.stringify({ [operation.requestRoot]: { Pad: 'x'.repeat(70 * 1024) } })),
        'PAYLOAD_TOO_LARGE',
        'PAYLOAD_TOO_LARGE',
      );
      assertDocumented(
        operation,
        await service.request(operation.path, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', ...bearer(token) },
          body: JSON.stringify(body(operation, orderId, ['PEND01'])),
        }),
        'UNSUPPORTED_MEDIA_TYPE',
        'UNSUPPORTED_MEDIA_TYPE',
      );

      if (operation.changesOrders) {
        const key = { ...bearer(token), 'idempotency-key': `openapi-${operation.name}-${orderId}` };
        assert.equal((await post(body(operation, orderId, ['NONE01']), key)).status, 200);
        const replay = await post(body(operation, orderId, ['NONE01']), key);
        assert.equal(replay.headers.get('idempotent-replayed'), 'true');
        const replayed =
          { cancel: 'SUCCESS', refundQuote: 'SUCCESS', refund: 'QUOTE_NOT_FOUND' }[operation.name as string] ??
          'NO_PENDING_CHANGE';
        assertDocumented(operation, replay, replayed, 'replay');
        assertDocumented(
          operation,
          await post(body(operation, orderId, ['PEND01']), key),
          'IDEMPOTENCY_KEY_REUSED',
          'IDEMPOTENCY_KEY_REUSED',
        );
      }
    });
  }

  test('500 INTERNAL_ERROR: a write the store refuses, a stored order that cannot be read', async () => {
    for (const operation of Object.values(OPERATIONS)) {
      const orderId = await freshOrder();
      const query = operation.name === 'refund' ? await quoteOf(orderId, ['PEND01']) : {};
      const release = await failUpdatesOf(orderId);
      try {
        assertDocumented(
          operation,
          await service.post(operation.path, body(operation, orderId, ['PEND01'], {}, query), bearer(token)),
          'INTERNAL_ERROR',
          'INTERNAL_ERROR',
        );
      } finally {
        await release();
      }
    }
    const orderId = await freshOrder();
    await setStoredBookingMember(service.store.db, orderId, 0, 'passengers', '{}');
    assertDocumented(
      RETRIEVE,
      await service.post(RETRIEVE.path, body(RETRIEVE, orderId, ['PEND01']), bearer(token)),
      'INTERNAL_ERROR',
      'INTERNAL_ERROR',
    );
  });

  test('409 IDEMPOTENCY_KEY_IN_USE: one key on two orders at once (PostgreSQL only: SQLite runs them one after the other)', async (t) => {
    if (testStoreKind() !== 'postgres') {
      t.skip("needs two transactions at once; on SQLite the document's 409 example is checked above");
      return;
    }
    const db = service.store.db;
    for (const operation of Object.values(OPERATIONS)) {
      const slowOrder = await freshOrder();
      const fastOrder = await freshOrder();
      // The first request pauses while writing its booking, after it has looked for the key.
      await sql
        .raw(
          `CREATE FUNCTION slow_openapi() RETURNS trigger AS $$
        BEGIN IF NEW.order_id = '${slowOrder}' THEN PERFORM pg_sleep(1); END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
        )
        .execute(db);
      await sql
        .raw('CREATE TRIGGER slow_openapi BEFORE UPDATE ON order_records FOR EACH ROW EXECUTE FUNCTION slow_openapi()')
        .execute(db);
      try {
        const headers = { ...bearer(token), 'idempotency-key': `in-use-${operation.name}` };
        const reference =
          operation.name === 'involuntaryAccept' || operation.name === 'involuntaryCancel' ? 'PEND01' : 'NONE01';
        const slowQuery = operation.name === 'refund' ? await quoteOf(slowOrder, [reference]) : {};
        const fastQuery = operation.name === 'refund' ? await quoteOf(fastOrder, [reference]) : {};
        const first = service.post(operation.path, body(operation, slowOrder, [reference], {}, slowQuery), headers);
        await untilSleeping();
        const second = await service.post(
          operation.path,
          body(operation, fastOrder, [reference], {}, fastQuery),
          headers,
        );
        assert.equal(second.status, 200, second.text);
        assertDocumented(operation, await first, 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_IN_USE');
      } finally {
        await sql.raw('DROP TRIGGER slow_openapi ON order_records').execute(db);
        await sql.raw('DROP FUNCTION slow_openapi()').execute(db);
      }
    }
  });
});

/** Waits until a query of the service sleeps in pg_sleep. */
async function untilSleeping(): Promise<void> {
  const client = new pg.Client(service.databaseUrl);
  await client.connect();
  try {
    for (const deadline = Date.now() + scaled(10_000); Date.now() < deadline;) {
      const result = await client.query(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'",
      );
      if (result.rows[0].n > 0) return;
      await sleep(10);
    }
    assert.fail('the first request never reached the pause');
  } finally {
    await client.end();
  }
}

describe('503 UNAVAILABLE matches the document (REQUEST_TIMEOUT_MS=300)', () => {
  let slow: TestService;
  let slowToken: string;
  before(async () => {
    slow = await startTestService({ env: { REQUEST_TIMEOUT_MS: '300' } });
    slowToken = await slow.tokenFor('AG1');
  });
  after(() => slow.close());

  test('503 UNAVAILABLE: a store held past the request time-out (reads only on PostgreSQL: SQLite never blocks them)', async () => {
    const orderId = await freshOrder(slow);
    for (const operation of ORDER_OPERATIONS.filter(
      (candidate) => candidate.changesOrders || testStoreKind() === 'postgres',
    )) {
      const release = await holdStore(slow);
      try {
        const response = await slow.post(operation.path, body(operation, orderId, ['NONE01']), bearer(slowToken));
        assertDocumented(operation, response, 'UNAVAILABLE', 'UNAVAILABLE');
        assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      } finally {
        await release();
      }
      // The timed-out work goes on once the store is free; /readyz answers after it (one connection on SQLite).
      assert.equal((await slow.request('/readyz', { method: 'GET' })).status, 200);
    }
  });
});

describe('429 RATE_LIMITED matches the document (RATE_LIMIT_BURST=1)', () => {
  let limited: TestService;
  before(async () => {
    limited = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } });
  });
  after(() => limited.close());

  test(FEED.path, async () => {
    const rlToken = await limited.tokenFor('RL-feed');
    assertDocumented(
      FEED,
      await limited.post(FEED.path, { OrderEventListRQ: {} }, bearer(rlToken)),
      'SUCCESS',
      'under the limit',
    );
    const refused = await limited.post(FEED.path, { OrderEventListRQ: {} }, bearer(rlToken));
    assertDocumented(FEED, refused, 'RATE_LIMITED', 'RATE_LIMITED');
    assert.equal(refused.status, 429);
  });

  for (const operation of ORDER_OPERATIONS) {
    test(operation.path, async () => {
      const rlToken = await limited.tokenFor(`RL-${operation.name}`);
      await limited.importOrders([
        simpleOrder(
          `RL-${operation.name}`,
          `RL-${operation.name}`,
          'RLA001',
          `22012345${String(ALL.indexOf(operation)).padStart(5, '0')}`,
        ),
      ]);
      const payload = body(operation, `RL-${operation.name}`, ['NOPE01']);
      const served = await limited.post(operation.path, payload, bearer(rlToken));
      assertDocumented(operation, served, 'BOOKING_NOT_FOUND', 'under the limit');
      const refused = await limited.post(operation.path, payload, bearer(rlToken));
      assertDocumented(operation, refused, 'RATE_LIMITED', 'RATE_LIMITED');
      assert.equal(refused.status, 429);
      assert.ok(refused.headers.get('retry-after') && refused.headers.get('ratelimit-policy'));
    });
  }
});
