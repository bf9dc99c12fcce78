/**
 * src/console/console-gate.ts, over HTTP on both stores: a request the console refuses before
 * reading its body (no session here) is answered at once; when body bytes are still to come, the
 * answer says `Connection: close`, the service ends its side after the answer, drops what still
 * arrives for a while (LINGER_MS), then lets go of the connection. A request with nothing left to
 * read keeps its connection.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { LINGER_MS } from '../../src/console/console-gate.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { scaled } from '../helpers/time-scale.js';

let service: TestService;
let port: number;

before(async () => {
  service = await startTestService();
  port = Number(new URL(service.baseUrl).port);
});

after(async () => {
  await service?.close();
});

interface Exchange {
  status: number;
  headers: Record<string, string>;
  /** Resolves once the service has ended its side of the connection (or at once if it had). */
  ended: Promise<void>;
  socket: net.Socket;
}

/**
 * Sends `head` (and nothing after it) and reads the answer's status line and headers. The client's
 * side stays open when the service ends its own (allowHalfOpen), as a client still sending would.
 */
function sendHead(head: string): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    let received = '';
    let endedResolve: () => void;
    const ended = new Promise<void>((done) => (endedResolve = done));
    socket.on('end', () => endedResolve());
    socket.on('close', () => endedResolve());
    socket.on('error', () => endedResolve());
    socket.setEncoding('latin1');
    socket.on('connect', () => socket.write(head));
    const onData = (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      // Keep reading (and dropping) the rest, so that the socket sees the service's end.
      socket.on('data', () => {});
      const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, ended, socket });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const limit = scaled(ms);
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: not within ${limit} ms`)), limit).unref(),
    ),
  ]);
}

test('a declared body not sent yet: answered at once with Connection: close, the service ends its side, and resets the connection once LINGER_MS has passed while the client goes on sending', async () => {
  const exchange = await sendHead(
    'POST /console/agencies HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000000\r\n\r\n',
  );
  assert.equal(exchange.status, 303);
  assert.equal(exchange.headers.location, '/console/login');
  assert.equal(exchange.headers.connection, 'close');
  await within(exchange.ended, 10_000, "the service's end of the connection");
  // The client, not listening, goes on sending its body (far from its end in this test's time): dropped for
  // LINGER_MS, then the connection is let go.
  const gone = new Promise<void>((resolve) => {
    exchange.socket.on('error', () => resolve());
    exchange.socket.on('close', () => resolve());
  });
  const sending = setInterval(() => {
    if (!exchange.socket.destroyed) exchange.socket.write('x'.repeat(1000));
  }, 50);
  try {
    await within(gone, LINGER_MS + 10_000, 'the connection let go after LINGER_MS');
  } finally {
    clearInterval(sending);
    exchange.socket.destroy();
  }
});

test('a chunked body, or a compressed one refused (415), not sent yet: answered at once with Connection: close, and the service ends its side', async () => {
  for (const [head, status] of [
    [
      'POST /console/agencies HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n',
      303,
    ],
    [
      'POST /console/agencies HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n',
      415,
    ],
  ] as const) {
    const exchange = await sendHead(head);
    try {
      assert.equal(exchange.status, status, head);
      assert.equal(exchange.headers.connection, 'close', head);
      await within(exchange.ended, 10_000, "the service's end of the connection");
    } finally {
      exchange.socket.destroy();
    }
  }
});

/** The answer said `keep-alive`, and the same connection serves the next request. */
async function assertKeptOpen(exchange: Exchange, head: string): Promise<void> {
  assert.equal(exchange.headers.connection, 'keep-alive', head);
  const again = new Promise<string>((resolve) => {
    let text = '';
    exchange.socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\r\n\r\n')) resolve(text);
    });
  });
  exchange.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.match(await within(again, 10_000, 'a second answer on the connection'), /^HTTP\/1\.1 200 /, head);
}

test('nothing left to read (a GET, a POST with Content-Length: 0): the answer keeps the connection open', async () => {
  for (const head of [
    'GET /console HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /console/agencies HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n',
    'POST /console/agencies HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n',
  ]) {
    const exchange = await sendHead(head);
    try {
      assert.equal(exchange.status, 303, head);
      await assertKeptOpen(exchange, head);
    } finally {
      exchange.socket.destroy();
    }
  }
});

// A Content-Encoding is refused as the request arrives, before the parser has seen the end of a
// bodyless request: what the headers say, not the parser's state, tells that nothing is to come.
test('a compressed body refused (415) when the headers say none follows: the answer keeps the connection open', async () => {
  for (const head of [
    'GET /console HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\n\r\n',
    'POST /console/agencies HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 0\r\n\r\n',
  ]) {
    const exchange = await sendHead(head);
    try {
      assert.equal(exchange.status, 415, head);
      await assertKeptOpen(exchange, head);
    } finally {
      exchange.socket.destroy();
    }
  }
});
