/** Helpers for the wire-level integration tests: raw HTTP, envelope checks, SQL snapshots, log waits. */
import assert from 'node:assert/strict';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { acceptRQ, cancelRQ, involuntaryCancelRQ } from './documents.js';
import type { HttpResponse, TestService } from './test-service.js';
import { scaled } from './time-scale.js';

export interface OperationCase {
  path: string;
  requestRoot: string;
  responseRoot: string;
  resultKey: 'Response' | 'Result';
  build: (orderId: string, references: string[] | string, extra?: object) => object;
}

export const OPERATION_CASES: OperationCase[] = [
  {
    path: '/AirOrderCancel',
    requestRoot: 'OrderCancelRQ',
    responseRoot: 'OrderViewRS',
    resultKey: 'Response',
    build: cancelRQ,
  },
  {
    path: '/AirOrderInvoluntaryAccept',
    requestRoot: 'OrderInvoluntaryAcceptRQ',
    responseRoot: 'OrderInvoluntaryAcceptRS',
    resultKey: 'Result',
    build: acceptRQ,
  },
  {
    path: '/AirOrderInvoluntaryCancel',
    requestRoot: 'OrderInvoluntaryCancelRQ',
    responseRoot: 'OrderInvoluntaryCancelRS',
    resultKey: 'Result',
    build: involuntaryCancelRQ,
  },
];

export const SERVICE_NAME = 'airorder';

export interface SenderBlock {
  Name: string;
  IATA_Number: string;
  AgencyID: string;
  Contacts: { Contact: { EmailContact: string }[] };
}

export const EMPTY_SENDER: SenderBlock = { Name: '', IATA_Number: '', AgencyID: '', Contacts: { Contact: [] } };

// ---------------------------------------------------------------------------------------------
// Raw HTTP: fetch() adds headers of its own and decompresses; these tests need the exact bytes.

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent in one piece with a Content-Length, or as several chunks with chunked transfer encoding. */
  body?: string | Buffer | Buffer[];
}

export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(request.path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: request.method ?? 'POST',
        headers: request.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    // The server may answer (413) and close before the whole body is written.
    req.on('error', reject);
    if (Array.isArray(request.body)) {
      for (const chunk of request.body) req.write(chunk);
    } else if (request.body !== undefined) {
      req.setHeader('content-length', Buffer.byteLength(request.body));
      req.write(request.body);
    }
    req.end();
  });
}

/** A raw response read as the HttpResponse the test service's helpers return (identity encoding only). */
export function asHttpResponse(response: RawResponse): HttpResponse {
  const text = response.raw.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return { status: response.status, headers, body, text };
}

// ---------------------------------------------------------------------------------------------
// Envelope checks (docs/contract.md §4).

export interface FailureExpectation {
  status: number;
  code: string;
  /** The Document.ReferenceVersion expected in the response; "1.0" when not given. */
  referenceVersion?: string;
  sender: SenderBlock;
  /** The order id and normalised references the result items carry; omitted when nothing was readable. */
  orderId?: string;
  references?: string[];
}

/** A request-level failure: the operation's full envelope, no Success, one error, FAILED items. */
export function assertFailureEnvelope(
  response: HttpResponse,
  operation: OperationCase,
  expected: FailureExpectation,
): void {
  assert.equal(response.status, expected.status, `status of ${operation.path}: ${response.text}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(response.body), [operation.responseRoot]);
  const rs = response.body[operation.responseRoot];
  assert.deepEqual(
    Object.keys(rs).sort(),
    ['Document', 'Errors', 'Party', 'ShoppingResponseId', operation.resultKey].sort(),
  );
  assert.equal('Success' in rs, false);
  assert.deepEqual(rs.Document, { Name: SERVICE_NAME, ReferenceVersion: expected.referenceVersion ?? '1.0' });
  assert.deepEqual(rs.Party, { Sender: { TravelAgencySender: expected.sender } });
  assertRequestId(response);

  assert.equal(rs.Errors.length, 1);
  assert.deepEqual(Object.keys(rs.Errors[0]).sort(), ['Code', 'Message']);
  assert.equal(rs.Errors[0].Code, expected.code);
  assert.equal(typeof rs.Errors[0].Message, 'string');
  assert.ok(rs.Errors[0].Message.length > 0, 'the error has a message');

  const references = expected.references ?? [];
  const items = rs[operation.resultKey];
  assert.equal(items.length, references.length, `items of ${operation.path}: ${JSON.stringify(items)}`);
  const reason = `${expected.code}: ${rs.Errors[0].Message}`;
  references.forEach((reference, index) => {
    assert.deepEqual(items[index], failedItem(operation, expected.orderId ?? '', reference, reason));
  });
}

export function failedItem(operation: OperationCase, orderId: string, reference: string, reason: string): object {
  switch (operation.path) {
    case '/AirOrderCancel':
      return { Status: 'FAILED', Msg: reason, BookingStatus: '', OrderID: orderId, GdsBookingReference: reference };
    case '/AirOrderInvoluntaryAccept':
      return { OrderID: orderId, GdsBookingReference: [reference], ErrorMsg: reason, Status: 'FAILED' };
    default:
      return {
        OrderID: orderId,
        GdsBookingReference: [reference],
        ErrorMsg: reason,
        Status: 'FAILED',
        RefundAmount: 0,
        RefundText: '',
        RefundPaxWiseFare: [],
      };
  }
}

/** ShoppingResponseId is non-empty and equal to the X-Request-Id header. */
export function assertRequestId(response: HttpResponse): string {
  const header = response.headers.get('x-request-id');
  assert.ok(header, 'X-Request-Id header is present');
  const root = Object.values(response.body as Record<string, { ShoppingResponseId?: unknown }>)[0];
  assert.equal(root?.ShoppingResponseId, header);
  return header;
}

/** The one error of a failed response, for checks of its message. */
export function errorOf(response: HttpResponse): { Code: string; Message: string } {
  const root = Object.values(response.body as Record<string, { Errors?: { Code: string; Message: string }[] }>)[0];
  assert.ok(root?.Errors?.[0], `an error in ${response.text}`);
  return root.Errors[0];
}

// ---------------------------------------------------------------------------------------------
// SQL state and logs.

/** Every row of the order-related tables, to prove that a rejected request changed nothing. */
export async function snapshotStore(service: TestService): Promise<Record<string, unknown[]>> {
  const db = service.store.db;
  return {
    orders: await db.selectFrom('orders').selectAll().orderBy('order_id').execute(),
    bookings: await db.selectFrom('bookings').selectAll().orderBy('order_id').orderBy('reference').execute(),
    airline_changes: await db.selectFrom('airline_changes').selectAll().orderBy('change_id').execute(),
    refunds: await db
      .selectFrom('refunds')
      .selectAll()
      .orderBy('order_id')
      .orderBy('reference')
      .orderBy('position')
      .execute(),
    access_tokens: await db.selectFrom('access_tokens').selectAll().orderBy('token_id').execute(),
    agencies: await db.selectFrom('agencies').selectAll().orderBy('agency_id').execute(),
  };
}

/** The log lines of one request; waits for the first, since the line is written once the response is sent. */
export async function logLinesOf(service: TestService, requestId: string): Promise<Record<string, unknown>[]> {
  for (const deadline = Date.now() + scaled(10_000); Date.now() < deadline;) {
    const lines = service.logs.filter((line) => line.requestId === requestId);
    if (lines.length > 0) {
      await sleep(20);
      return service.logs.filter((line) => line.requestId === requestId);
    }
    await sleep(10);
  }
  return [];
}

/**
 * Two responses that must not be told apart (another agency's order and a missing one): the same
 * body but for the request id, the same headers with the same values but for the date and the id.
 */
export function assertAnsweredAlike(response: HttpResponse, other: HttpResponse): void {
  const idOf = (answer: HttpResponse) => answer.headers.get('x-request-id')!;
  assert.equal(response.text.replace(idOf(response), '<id>'), other.text.replace(idOf(other), '<id>'));
  const headerNames = (answer: HttpResponse) => [...answer.headers.keys()].sort();
  assert.deepEqual(headerNames(response), headerNames(other));
  for (const name of headerNames(response).filter(
    (header) => !['date', 'x-request-id', 'content-length'].includes(header),
  )) {
    assert.equal(response.headers.get(name), other.headers.get(name), name);
  }
}

/** The headers every response of the API carries (src/http/security-headers.ts), as a client sees them. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

export function assertSecurityHeaders(headers: Headers, what: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    assert.equal(headers.get(name), value, `${name} on ${what}`);
  }
}
