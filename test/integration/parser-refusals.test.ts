/**
 * Requests Node's HTTP parser refuses before any route sees them (src/http/client-errors.ts,
 * docs/errors.md "INVALID_REQUEST"): each still gets the catalogue's JSON body, an X-Request-Id and
 * its log line, and a request that arrived whole before the bad bytes is answered first.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service.close());

/** Sends bytes as they are and reads everything the service sends back until it ends the connection. */
function exchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(bytes);
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The answers in a connection's bytes, in the order they came (each with a Content-Length). */
function answersIn(text: string): Answer[] {
  const answers: Answer[] = [];
  let rest = text;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    assert.notEqual(headEnd, -1, `an answer without its blank line: ${JSON.stringify(rest)}`);
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) });
    rest = rest.slice(headEnd + 4 + length);
  }
  return answers;
}

const MALFORMED = { Errors: [{ Code: 'INVALID_REQUEST', Message: 'The HTTP request is malformed.' }] };

test('bytes after a complete request: that request is answered first, then 400 INVALID_REQUEST, and the connection ends', async () => {
  const body = JSON.stringify({ OrderCancelRQ: { Query: { OrderID: 'ORD-1', GdsBookingReference: ['ABC123'] } } });
  const text = await exchange(
    `POST /AirOrderCancel HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
      `${body}NOT-A-REQUEST-LINE\r\n\r\n`,
  );
  const answers = answersIn(text);
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [401, 400],
    text,
  );
  // The complete request got its own envelope (no token: AUTH_MISSING).
  assert.equal((answers[0]!.body as any).OrderViewRS.Errors[0].Code, 'AUTH_MISSING');
  assert.deepEqual(answers[1]!.body, MALFORMED);
  assert.equal(answers[1]!.headers.connection, 'close');
  assert.match(answers[1]!.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
});

test("a refused request's log line names what Node's parser reported, with the id its answer carries", async () => {
  const text = await exchange('GARBAGE\r\n\r\n');
  const [answer] = answersIn(text);
  assert.equal(answer!.status, 400);
  assert.deepEqual(answer!.body, MALFORMED);
  const requestId = answer!.headers['x-request-id'];
  const line = service.logs.find((entry) => entry.msg === 'request' && entry.requestId === requestId);
  assert.ok(line, `a request line for ${requestId}`);
  assert.deepEqual(
    [line.level, line.agency, line.operation, line.code, line.status, line.cause],
    [30, null, null, 'INVALID_REQUEST', 400, 'HPE_INVALID_METHOD'],
  );
});
