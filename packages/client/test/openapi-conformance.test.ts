/**
 * The client checked against the service's own OpenAPI document: the client's operations are
 * exactly the document's, with the same request and response root keys, result array and
 * Idempotency-Key use; every success example of the document reads through the client's typed
 * readers; its event types are the client's; and every error code the document shows an example
 * of is one the client maps to a typed error.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EVENT_TYPES, readEventPage } from '../src/event-feed.js';
import { OPERATIONS, type OperationName } from '../src/operations.js';
import { readRetrieveResult } from '../src/order-view.js';
import {
  readCancelResult,
  readInvoluntaryAcceptResult,
  readInvoluntaryCancelResult,
  readVoluntaryRefundResult,
  type ResponseContext,
} from '../src/results.js';
import { servedOpenApiDocument, startTestService, type TestService } from './support.js';
import { isApiErrorCode } from '../src/errors.js';

let service: TestService;
let document: any;

before(async () => {
  service = await startTestService();
  document = await servedOpenApiDocument(service);
});
after(() => service.close());

function resolve(schema: any): any {
  if (schema?.$ref) {
    const path = schema.$ref.replace(/^#\//, '').split('/');
    return resolve(path.reduce((node: any, key: string) => node[key], document));
  }
  return schema;
}

test("the client's operations are exactly the document's", () => {
  const documented = Object.entries(document.paths)
    .filter(([, item]) => (item as { post?: unknown }).post)
    .map(([path]) => path)
    .sort();
  assert.deepEqual(
    Object.values(OPERATIONS)
      .map((spec) => spec.path)
      .sort(),
    documented,
  );
});

test('each client operation matches the document: path, request root, response root, result array', () => {
  for (const spec of Object.values(OPERATIONS)) {
    const operation = document.paths[spec.path]?.post;
    assert.ok(operation, `${spec.path} is in the document`);
    assert.equal(operation.operationId, spec.title);
    const request = resolve(operation.requestBody.content['application/json'].schema);
    assert.deepEqual(request.required, [spec.requestRoot], `${spec.path} request root`);
    const ok = resolve(operation.responses['200'].content['application/json'].schema);
    assert.deepEqual(Object.keys(ok.properties), [spec.responseRoot], `${spec.path} response root`);
    const envelope = resolve(ok.properties[spec.responseRoot]);
    assert.equal(
      resolve(envelope.properties[spec.resultKey])?.type,
      'array',
      `${spec.path} has the result array ${spec.resultKey}`,
    );
  }
  const envelopeOf = (spec: { path: string; responseRoot: string }) => {
    const ok = resolve(document.paths[spec.path].post.responses['200'].content['application/json'].schema);
    return resolve(ok.properties[spec.responseRoot]);
  };
  // What the client reads besides the result array.
  assert.ok(envelopeOf(OPERATIONS.retrieve).properties.Order, 'AirOrderRetrieve carries the Order');
  assert.ok(envelopeOf(OPERATIONS.eventList).properties.NextAfter, 'AirOrderEventList carries NextAfter');
  const query = resolve(
    resolve(document.paths[OPERATIONS.eventList.path].post.requestBody.content['application/json'].schema).properties[
      OPERATIONS.eventList.requestRoot
    ],
  ).properties.Query;
  assert.deepEqual(
    Object.keys(resolve(query).properties).sort(),
    ['After', 'Limit'],
    'the event list takes After and Limit',
  );
});

test('an Idempotency-Key exactly for the operations that change orders: the client sends none on a read', () => {
  for (const spec of Object.values(OPERATIONS)) {
    const operation = document.paths[spec.path].post;
    const takesKey = (operation.parameters ?? []).some(
      (parameter: { in: string; name: string }) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
    );
    assert.equal(
      takesKey,
      spec.changesOrders,
      `${spec.path}: Idempotency-Key ${spec.changesOrders ? 'documented' : 'not documented'}`,
    );
    assert.equal(
      'Idempotent-Replayed' in (operation.responses['200'].headers ?? {}),
      spec.changesOrders,
      `${spec.path}: replays`,
    );
  }
});

test("every success example of the document reads through the client's typed reader of its operation", () => {
  const context: ResponseContext = {
    status: 200,
    headers: new Headers(),
    requestId: undefined,
    idempotencyKey: 'key-1',
    replayed: false,
    attempts: 1,
  };
  const readers: Record<OperationName, (body: unknown) => { requestId: string; success: boolean }> = {
    cancel: (body) => readCancelResult(body, context, OPERATIONS.cancel),
    involuntaryAccept: (body) => readInvoluntaryAcceptResult(body, context, OPERATIONS.involuntaryAccept),
    // The examples are in EUR (the service's sample order): minor units are read and checked too.
    involuntaryCancel: (body) => readInvoluntaryCancelResult(body, context, OPERATIONS.involuntaryCancel, 'EUR'),
    refundQuote: (body) => readVoluntaryRefundResult(body, context, OPERATIONS.refundQuote, 'EUR'),
    refund: (body) => readVoluntaryRefundResult(body, context, OPERATIONS.refund, 'EUR'),
    retrieve: (body) => {
      const result = readRetrieveResult(body, context, OPERATIONS.retrieve);
      assert.ok(result.order.bookings.length > 0, 'the example shows a booking');
      return result;
    },
    eventList: (body) => {
      const page = readEventPage(body, context, OPERATIONS.eventList);
      assert.deepEqual(
        page.events.filter((event) => event.type === 'unknown'),
        [],
        'every event type of the example is known',
      );
      return page;
    },
  };
  for (const [name, spec] of Object.entries(OPERATIONS) as [OperationName, (typeof OPERATIONS)[OperationName]][]) {
    const examples = Object.entries(
      document.paths[spec.path].post.responses['200'].content['application/json'].examples ?? {},
    );
    assert.ok(
      examples.some(([key]) => key === 'SUCCESS'),
      `${spec.path} has a SUCCESS example`,
    );
    for (const [key, example] of examples) {
      const result = readers[name]((example as { value: unknown }).value);
      assert.equal(result.success, key === 'SUCCESS', `${spec.path} example ${key}`);
    }
  }
  const retrieveExample =
    document.paths[OPERATIONS.retrieve.path].post.responses['200'].content['application/json'].examples.SUCCESS.value;
  const booking = readRetrieveResult(retrieveExample, context, OPERATIONS.retrieve).order.bookings.find(
    (entry) => entry.refundQuote,
  );
  assert.ok(booking?.refundQuote, 'the example shows a RefundQuote, read in minor units');
  assert.ok(Number.isSafeInteger(booking.refundQuote.amountMinor));
});

test("the document's event types are the client's", () => {
  const listed = resolve(
    document.paths[OPERATIONS.eventList.path].post.responses['200'].content['application/json'].schema,
  );
  const events = resolve(resolve(listed.properties[OPERATIONS.eventList.responseRoot]).properties.Events);
  assert.deepEqual([...resolve(events.items).properties.Type.enum].sort(), [...EVENT_TYPES].sort());
});

test('every error code of the document maps to a typed error of the client', () => {
  const codes = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (typeof record.Code === 'string') codes.add(record.Code);
      Object.values(record).forEach(collect);
    }
  };
  collect(document.paths);
  assert.ok(codes.size >= 10, `the document's examples show the error codes (${[...codes].join(', ')})`);
  for (const code of codes) {
    // Item-level codes are results, not errors.
    if (
      [
        'BOOKING_NOT_FOUND',
        'BOOKING_CANCELED',
        'NO_PENDING_CHANGE',
        'NO_REPLACEMENT_OFFERED',
        'PASSENGER_NOT_FOUND',
        'ALREADY_REFUNDED',
        'NO_FARE_RULES',
        'PARTLY_FLOWN',
        'QUOTE_NOT_FOUND',
        'QUOTE_EXPIRED',
        'QUOTE_OUTDATED',
      ].includes(code)
    )
      continue;
    assert.ok(isApiErrorCode(code), `the client knows the request-level code ${code}`);
  }
});
