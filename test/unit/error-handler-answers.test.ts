/**
 * The error handler on a bare Fastify app (docs/errors.md): what it answers and logs for an error
 * thrown on an operation's route and elsewhere, for paths the router cannot take, and for a client
 * that left before its answer. The service's own routes are tested through the service
 * (test/integration/error-handler.test.ts); here a route can throw whatever a test needs.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, beforeEach, test } from 'node:test';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { errors } from '../../src/errors/api-error.js';
import { installErrorHandler, routeFrameworkError } from '../../src/http/error-handler.js';
import { readEnvelopeInput } from '../../src/http/lenient-input.js';
import { EVENT_LIST, OPERATIONS, type OperationWire } from '../../src/http/operations.js';
import '../../src/http/request-context.js';
import { socketRequest } from '../helpers/raw-socket.js';

const STORE_AWAY = new Error('connection refused by the store');

interface Bare {
  app: FastifyInstance;
  port: number;
  logs: Record<string, unknown>[];
  /** The outcome code each answered request was left with, in order. */
  outcomes: (string | null)[];
  /** The id of each answered request, in order. */
  ids: string[];
}

async function bareApp(options: FastifyServerOptions = {}, routes: (app: FastifyInstance) => void = () => {}) {
  const logs: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream }, frameworkErrors: routeFrameworkError, ...options });
  app.decorateRequest('agency', null);
  app.decorateRequest('envelopeInput', null);
  app.decorateRequest('outcomeCode', null);
  installErrorHandler(app, 'airorder-test', (error) => error === STORE_AWAY);
  const outcomes: (string | null)[] = [];
  const ids: string[] = [];
  app.addHook('onResponse', async (request) => {
    outcomes.push(request.outcomeCode);
    ids.push(request.id);
  });
  routes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as net.AddressInfo).port, logs, outcomes, ids } satisfies Bare;
}

/** What the next request to a throwing route throws. */
let failure: unknown;
let bare: Bare;

function operationRoute(app: FastifyInstance, operation: OperationWire) {
  app.post(operation.path, {
    config: { operation },
    preValidation: async (request) => {
      request.envelopeInput = readEnvelopeInput(request.body, operation.requestRoot);
    },
    handler: async () => {
      throw failure;
    },
  });
}

before(async () => {
  bare = await bareApp({}, (app) => {
    operationRoute(app, OPERATIONS.cancel);
    operationRoute(app, EVENT_LIST);
    app.get('/plain', async () => {
      throw failure;
    });
    app.get('/things/:thingId', async () => 'a thing');
  });
});
after(() => bare.app.close());
beforeEach(() => {
  bare.logs.length = 0;
  bare.outcomes.length = 0;
  bare.ids.length = 0;
});

const linesAt = (level: number) => bare.logs.filter((line) => line.level === level);

async function post(path: string, body: unknown) {
  const response = await bare.app.inject({ method: 'POST', url: path, payload: body as object });
  return { status: response.statusCode, headers: response.headers, body: response.json() };
}

const CANCEL = {
  OrderCancelRQ: {
    Document: { ReferenceVersion: '2.0' },
    Query: { OrderID: 'ORD-1', GdsBookingReference: ['abc123', 'DEF456'] },
  },
};
const EMPTY_SENDER = { Name: '', IATA_Number: '', AgencyID: '', Contacts: { Contact: [] } };

test("a refusal on an operation's route: the envelope with a failed item per reference, its code and status", async () => {
  failure = errors.orderNotFound('ORD-1');
  const answer = await post('/AirOrderCancel', CANCEL);
  assert.equal(answer.status, 404);
  const failed = (reference: string) => ({
    Status: 'FAILED',
    Msg: 'ORDER_NOT_FOUND: Order ORD-1 was not found.',
    BookingStatus: '',
    OrderID: 'ORD-1',
    GdsBookingReference: reference,
  });
  assert.deepEqual(answer.body, {
    OrderViewRS: {
      Document: { Name: 'airorder-test', ReferenceVersion: '2.0' },
      Party: { Sender: { TravelAgencySender: EMPTY_SENDER } },
      ShoppingResponseId: bare.ids[0],
      Response: [failed('ABC123'), failed('DEF456')],
      Errors: [{ Code: 'ORDER_NOT_FOUND', Message: 'Order ORD-1 was not found.' }],
    },
  });
  assert.equal(bare.ids.length, 1);
  assert.deepEqual(bare.outcomes, ['ORDER_NOT_FOUND']);
  assert.deepEqual(linesAt(50), []);
  assert.deepEqual(linesAt(40), []);
});

test('a body whose order cannot be read: no items, the default ReferenceVersion', async () => {
  failure = errors.invalidRequest('Something is wrong.');
  for (const body of [
    { OrderCancelRQ: { Query: { GdsBookingReference: ['ABC123'] } } },
    { OrderCancelRQ: { Query: { OrderID: 'ORD-1' } } },
    [],
  ]) {
    const answer = await post('/AirOrderCancel', body);
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body.OrderViewRS.Response, [], JSON.stringify(body));
    assert.deepEqual(answer.body.OrderViewRS.Document, { Name: 'airorder-test', ReferenceVersion: '1.0' });
    assert.deepEqual(answer.body.OrderViewRS.Errors, [{ Code: 'INVALID_REQUEST', Message: 'Something is wrong.' }]);
  }
});

test("a body that is no JSON on an operation's route: the envelope with no items, the default ReferenceVersion", async () => {
  const response = await bare.app.inject({
    method: 'POST',
    url: '/AirOrderCancel',
    headers: { 'content-type': 'application/json' },
    payload: '{"OrderCancelRQ":',
  });
  assert.equal(response.statusCode, 400);
  const root = response.json().OrderViewRS;
  assert.deepEqual(root.Response, []);
  assert.deepEqual(root.Document, { Name: 'airorder-test', ReferenceVersion: '1.0' });
  assert.equal(root.Errors[0].Code, 'INVALID_JSON');
});

test('an unknown path is answered as such whatever its body', async () => {
  const response = await bare.app.inject({
    method: 'POST',
    url: '/nothing',
    headers: { 'content-type': 'application/json' },
    payload: '{"OrderCancelRQ":',
  });
  assert.equal(response.statusCode, 404);
  assert.deepEqual(response.json(), { Errors: [{ Code: 'ROUTE_NOT_FOUND', Message: 'No route POST /nothing.' }] });
});

test('the event feed has no item per booking, even when its query names an order and references', async () => {
  failure = errors.invalidRequest('Something is wrong.');
  const answer = await post('/AirOrderEventList', {
    OrderEventListRQ: { Query: { OrderID: 'ORD-1', GdsBookingReference: ['ABC123'] } },
  });
  assert.equal(answer.status, 400);
  assert.deepEqual(answer.body.OrderEventListRS.Events, []);
});

test('the store away: 503 UNAVAILABLE with Retry-After, logged as a warning with its cause, not as an error', async () => {
  failure = STORE_AWAY;
  const answer = await post('/AirOrderCancel', CANCEL);
  assert.equal(answer.status, 503);
  assert.equal(answer.headers['retry-after'], '1');
  assert.equal(answer.body.OrderViewRS.Errors[0].Code, 'UNAVAILABLE');
  assert.deepEqual(bare.outcomes, ['UNAVAILABLE']);
  const warnings = linesAt(40);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.msg, 'store unavailable');
  assert.equal(warnings[0]!.cause, 'connection refused by the store');
  assert.deepEqual(linesAt(50), []);
});

test('anything else: 500 INTERNAL_ERROR, the cause logged once as an error and never answered', async () => {
  failure = new Error('a bug of ours');
  const answer = await post('/AirOrderCancel', CANCEL);
  assert.equal(answer.status, 500);
  assert.deepEqual(answer.body.OrderViewRS.Errors, [
    { Code: 'INTERNAL_ERROR', Message: 'An internal error occurred; nothing was changed.' },
  ]);
  assert.doesNotMatch(JSON.stringify(answer.body), /a bug of ours/);
  assert.deepEqual(bare.outcomes, ['INTERNAL_ERROR']);
  const errorLines = linesAt(50);
  assert.equal(errorLines.length, 1);
  assert.equal(errorLines[0]!.msg, 'request failed');
  assert.equal((errorLines[0]!.err as { message: string }).message, 'a bug of ours');
  assert.deepEqual(linesAt(40), []);
});

test('a thrown null is answered 500 INTERNAL_ERROR in the plain body, and logged', async () => {
  failure = null;
  const answer = await bare.app.inject({ method: 'GET', url: '/plain' });
  assert.equal(answer.statusCode, 500);
  assert.deepEqual(answer.json(), {
    Errors: [{ Code: 'INTERNAL_ERROR', Message: 'An internal error occurred; nothing was changed.' }],
  });
  assert.equal(linesAt(50).length, 1);
});

test('outside the operations: the plain error body with the headers of the error', async () => {
  failure = errors.idempotencyKeyInUse();
  const answer = await bare.app.inject({ method: 'GET', url: '/plain' });
  assert.equal(answer.statusCode, 409);
  assert.equal(answer.headers['retry-after'], '1');
  assert.deepEqual(answer.json(), {
    Errors: [
      {
        Code: 'IDEMPOTENCY_KEY_IN_USE',
        Message: 'Another request with this Idempotency-Key is being processed; retry shortly.',
      },
    ],
  });
});

test('an unknown path is 404 ROUTE_NOT_FOUND naming the method and the path without its query', async () => {
  const answer = await bare.app.inject({ method: 'DELETE', url: '/nothing/here?x=1' });
  assert.equal(answer.statusCode, 404);
  assert.deepEqual(answer.json(), { Errors: [{ Code: 'ROUTE_NOT_FOUND', Message: 'No route DELETE /nothing/here.' }] });
  assert.deepEqual(bare.outcomes, ['ROUTE_NOT_FOUND']);
});

test('a path with a malformed percent-escape is 400 INVALID_REQUEST naming the path as sent, its query left out', async () => {
  const answer = await socketRequest(bare.port, { method: 'GET', path: '/things%zz/x?y=%', headers: [['Host', 'x']] });
  assert.ok(answer);
  assert.equal(answer.status, 400);
  assert.deepEqual(JSON.parse(answer.raw.toString('utf8')), {
    Errors: [{ Code: 'INVALID_REQUEST', Message: 'The request path is not a valid URL: /things%zz/x.' }],
  });
  assert.deepEqual(bare.outcomes, ['INVALID_REQUEST']);
  assert.deepEqual(linesAt(50), []);
});

test("a path parameter past the router's length is 404 ROUTE_NOT_FOUND, not a 500", async () => {
  const id = 'x'.repeat(101);
  const answer = await socketRequest(bare.port, { method: 'GET', path: `/things/${id}?y=1`, headers: [['Host', 'x']] });
  assert.ok(answer);
  assert.equal(answer.status, 404);
  assert.deepEqual(JSON.parse(answer.raw.toString('utf8')), {
    Errors: [{ Code: 'ROUTE_NOT_FOUND', Message: `No route GET /things/${id}.` }],
  });
  assert.deepEqual(linesAt(50), []);
  const within = await bare.app.inject({ method: 'GET', url: `/things/${'x'.repeat(100)}` });
  assert.equal(within.body, 'a thing');
});

test("any other failure of the router is 500 INTERNAL_ERROR, logged with the router's error", async () => {
  const broken = await bareApp(
    {
      routerOptions: {
        constraints: {
          tenant: {
            name: 'tenant',
            storage() {
              const handlers = new Map<string, unknown>();
              return {
                get: (key: string) => handlers.get(key) ?? null,
                set: (key: string, value: unknown) => handlers.set(key, value),
              };
            },
            // Fails on the path it guards only: the request is routed again, to a path of the not-found handler.
            deriveConstraint: (
              request: { url: string },
              _context: unknown,
              done: (error: Error | null, value?: string) => void,
            ) => (request.url === '/held' ? done(new Error('the constraint failed')) : done(null, 'a')),
            mustMatchWhenDerived: false,
            validate: () => {},
          },
        },
      },
    } as unknown as FastifyServerOptions,
    (app) => app.get('/held', { constraints: { tenant: 'a' } }, async () => 'held'),
  );
  try {
    const answer = await socketRequest(broken.port, { method: 'GET', path: '/held', headers: [['Host', 'x']] });
    assert.ok(answer);
    assert.equal(answer.status, 500);
    assert.deepEqual(JSON.parse(answer.raw.toString('utf8')), {
      Errors: [{ Code: 'INTERNAL_ERROR', Message: 'An internal error occurred; nothing was changed.' }],
    });
    const errorLines = broken.logs.filter((line) => line.level === 50);
    assert.equal(errorLines.length, 1);
    assert.equal((errorLines[0]!.err as { code: string }).code, 'FST_ERR_ASYNC_CONSTRAINT');
  } finally {
    await broken.app.close();
  }
});

/**
 * Sends a GET to a route that waits for the client to close its side, closes it, and returns the
 * log once the error handler is done with what the route threw (Fastify's onError hooks run after it).
 */
async function leaveBeforeTheAnswer(thrown: Error) {
  let waiting!: () => void;
  const arrived = new Promise<void>((resolve) => (waiting = resolve));
  let handled!: () => void;
  const done = new Promise<void>((resolve) => (handled = resolve));
  const left = await bareApp({}, (app) => {
    app.addHook('onError', async () => handled());
    app.get('/slow', async (request) => {
      const closed = new Promise((resolve) => request.raw.socket.once('close', resolve));
      waiting();
      await closed;
      throw thrown;
    });
  });
  try {
    const socket = net.connect(left.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await arrived;
    socket.destroy();
    await done;
    return left.logs;
  } finally {
    await left.app.close();
  }
}

const premature = () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

test('a client that left before its answer: one line saying so, no error, nothing sent', async () => {
  const logs = await leaveBeforeTheAnswer(premature());
  const closed = logs.filter((line) => line.code === 'CLIENT_CLOSED');
  assert.equal(closed.length, 1);
  assert.equal(closed[0]!.level, 30);
  assert.equal(closed[0]!.msg, 'the client closed its connection before its answer');
  assert.deepEqual(
    logs.filter((line) => (line.level as number) >= 40),
    [],
  );
});

test('another error after the client left is still logged as a failure', async () => {
  const logs = await leaveBeforeTheAnswer(new Error('a bug of ours'));
  assert.equal(logs.filter((line) => line.msg === 'request failed').length, 1);
  assert.deepEqual(
    logs.filter((line) => line.code === 'CLIENT_CLOSED'),
    [],
  );
});

test('a premature close while the client is still there is ours: 500, logged', async () => {
  failure = premature();
  const answer = await socketRequest(bare.port, { method: 'GET', path: '/plain', headers: [['Host', 'x']] });
  assert.ok(answer);
  assert.equal(answer.status, 500);
  assert.equal(JSON.parse(answer.raw.toString('utf8')).Errors[0].Code, 'INTERNAL_ERROR');
  assert.equal(linesAt(50).length, 1);
  assert.equal(bare.logs.filter((line) => line.code === 'CLIENT_CLOSED').length, 0);
});
