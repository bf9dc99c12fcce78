import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { GuardPolicy } from '../../src/webhook-delivery/address-guard.js';
import { sendAttempt, type Attempt } from '../../src/webhook-delivery/sender.js';

/**
 * docs/webhooks.md, "Delivery": one attempt against a receiver on loopback (private networks and
 * plain http allowed, as the policy says), judged by its answer.
 */
const OPEN: GuardPolicy = { allowHttp: true, allowPrivateNetworks: true };
const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let server: http.Server;
let base = '';

before(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const [, kind, value] = (request.url ?? '').split('/');
      if (kind === 'status') {
        response.writeHead(Number(value), { location: 'https://elsewhere.example/' });
        response.end('answer');
      } else if (kind === 'endless') {
        // Answers and never ends: a chunk every few milliseconds, far past 64 KiB.
        response.writeHead(Number(value));
        const timer = setInterval(() => response.write(Buffer.alloc(16 * 1024, 'x')), 2);
        response.on('close', () => clearInterval(timer));
      } else if (kind === 'hold') {
        // Answers 200, sends so many bytes of its body, and never ends it.
        response.writeHead(200);
        response.write(Buffer.alloc(Number(value), 'x'));
      } else if (kind === 'broken') {
        // Promises 100 bytes, sends 10, and drops the connection.
        response.writeHead(200, { 'content-length': '100' });
        response.write(Buffer.alloc(10, 'x'), () => response.socket?.destroy());
      } else if (kind === 'silent') {
        // Never answers.
      } else {
        response.writeHead(200);
        response.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function attempt(url: string, body = '{"type":"order.changed","note":"café"}'): Attempt {
  return { url, id: 'evt_1', body, timestamp: 1_764_057_600, signature: 'v1,abc v1,def' };
}

/** The result without its duration, which depends on the machine. */
async function send(url: string, timeoutMs = 5_000, policy: GuardPolicy = OPEN) {
  const before = performance.now();
  const result = await sendAttempt(attempt(url), policy, timeoutMs);
  // The attempt's own duration lies within the time the call took, whatever the machine's speed.
  const took = performance.now() - before;
  assert.ok(Number.isInteger(result.ms) && result.ms >= 0 && result.ms <= Math.ceil(took), `${result.ms} of ${took}`);
  return result.delivered
    ? { delivered: result.delivered, status: result.status }
    : { delivered: result.delivered, status: result.status, error: result.error };
}

test('the attempt is a POST of the body with its length, type, webhook headers and user agent', async () => {
  received.length = 0;
  assert.deepEqual(await send(`${base}/ok`), { delivered: true, status: 200 });
  const [request] = received;
  assert.ok(request);
  assert.equal(request.method, 'POST');
  assert.equal(request.url, '/ok');
  assert.equal(request.body, '{"type":"order.changed","note":"café"}');
  assert.equal(request.headers['content-type'], 'application/json');
  assert.equal(request.headers['content-length'], String(Buffer.byteLength(request.body)));
  assert.equal(request.headers['user-agent'], 'airorder-webhooks/1');
  assert.equal(request.headers['webhook-id'], 'evt_1');
  assert.equal(request.headers['webhook-timestamp'], '1764057600');
  assert.equal(request.headers['webhook-signature'], 'v1,abc v1,def');
});

test('2xx is delivered; a redirect is not followed; any other status is not delivered, named', async () => {
  for (const status of [200, 201, 204, 299]) {
    assert.deepEqual(await send(`${base}/status/${status}`), { delivered: true, status }, `${status}`);
  }
  for (const status of [300, 301, 302, 307, 399]) {
    assert.deepEqual(
      await send(`${base}/status/${status}`),
      { delivered: false, status, error: `HTTP ${status} (redirects are not followed)` },
      `${status}`,
    );
  }
  for (const status of [400, 404, 410, 429, 500, 503]) {
    assert.deepEqual(
      await send(`${base}/status/${status}`),
      { delivered: false, status, error: `HTTP ${status}` },
      `${status}`,
    );
  }
});

test('an answer that goes on past 64 KiB is judged on its status without waiting for its end', async () => {
  // The time-out is far off: only the cut-off ends these attempts.
  assert.deepEqual(await send(`${base}/endless/200`, 60_000), { delivered: true, status: 200 });
  assert.deepEqual(await send(`${base}/endless/500`, 60_000), { delivered: false, status: 500, error: 'HTTP 500' });
  assert.deepEqual(await send(`${base}/endless/300`, 60_000), {
    delivered: false,
    status: 300,
    error: 'HTTP 300 (redirects are not followed)',
  });
  // One byte past 64 KiB is enough to judge it; exactly 64 KiB is not: the answer must still end.
  assert.deepEqual(await send(`${base}/hold/${64 * 1024 + 1}`, 60_000), { delivered: true, status: 200 });
  assert.deepEqual(await send(`${base}/hold/${64 * 1024}`, 300), {
    delivered: false,
    status: null,
    error: 'no answer within 300 ms',
  });
});

test('an answer begun but not ended within the time-out: not delivered, no status', async () => {
  assert.deepEqual(await send(`${base}/hold/10`, 300), {
    delivered: false,
    status: null,
    error: 'no answer within 300 ms',
  });
});

test('an answer whose connection breaks before its end: not delivered, its status and the error named', async () => {
  assert.deepEqual(await send(`${base}/broken`), { delivered: false, status: 200, error: 'ECONNRESET' });
});

test('no answer within the time-out: not delivered, no status', async () => {
  assert.deepEqual(await send(`${base}/silent`, 300), {
    delivered: false,
    status: null,
    error: 'no answer within 300 ms',
  });
});

test('a refused connection: not delivered, named by its code', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  assert.deepEqual(await send(`http://127.0.0.1:${port}/hook`), {
    delivered: false,
    status: null,
    error: 'ECONNREFUSED',
  });
});

test('a URL the guard refuses now is not called: refused, with the reason', async () => {
  received.length = 0;
  assert.deepEqual(await send(`${base}/ok`, 5_000, { allowHttp: false, allowPrivateNetworks: true }), {
    delivered: false,
    status: null,
    error: 'refused: the URL must be https (plain http is allowed only with WEBHOOK_ALLOW_HTTP=true)',
  });
  assert.deepEqual(await send(`${base}/ok`, 5_000, { allowHttp: true, allowPrivateNetworks: false }), {
    delivered: false,
    status: null,
    error:
      'refused: its host 127.0.0.1 resolves to 127.0.0.1, a loopback, private or reserved address ' +
      '(allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)',
  });
  assert.deepEqual(received, []);
});

test('a resolver that does not answer counts against the time-out: refused, not called', async () => {
  const stalled: GuardPolicy = { ...OPEN, lookup: () => new Promise(() => {}) };
  assert.deepEqual(await send('http://stalled.example/hook', 200, stalled), {
    delivered: false,
    status: null,
    error: 'refused: its host did not resolve within 200 ms',
  });
});

test('a host name is connected to at the address the guard checked, not resolved again', async () => {
  received.length = 0;
  const port = (server.address() as AddressInfo).port;
  let lookups = 0;
  const pinned: GuardPolicy = {
    ...OPEN,
    lookup: async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    },
  };
  assert.deepEqual(await send(`http://receiver.invalid:${port}/pinned`, 5_000, pinned), {
    delivered: true,
    status: 200,
  });
  assert.equal(lookups, 1);
  assert.equal(received[0]?.url, '/pinned');
  assert.equal(received[0]?.headers.host, `receiver.invalid:${port}`);
});

test('a host is reached the same when Node asks its lookup for one address (family autoselection off)', async () => {
  received.length = 0;
  const port = (server.address() as AddressInfo).port;
  const pinned: GuardPolicy = { ...OPEN, lookup: async () => [{ address: '127.0.0.1', family: 4 }] };
  net.setDefaultAutoSelectFamily(false);
  try {
    assert.deepEqual(await send(`http://receiver.invalid:${port}/one`, 5_000, pinned), {
      delivered: true,
      status: 200,
    });
  } finally {
    net.setDefaultAutoSelectFamily(true);
  }
  assert.equal(received[0]?.url, '/one');
});

test('an https receiver is spoken to over TLS and its certificate verified: a self-signed one is refused', async () => {
  // A throwaway self-signed certificate for 127.0.0.1, made by openssl for this test.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  let handshakes = 0;
  const tls = https.createServer(
    { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) },
    (_request, response) => {
      response.writeHead(200);
      response.end();
    },
  );
  tls.on('secureConnection', () => (handshakes += 1));
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  try {
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/hook`;
    assert.deepEqual(await send(url), { delivered: false, status: null, error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    // The receiver's certificate ended the handshake on the sender's side: no request was sent.
    assert.equal(handshakes, 0);
  } finally {
    tls.closeAllConnections();
    await new Promise((resolve) => tls.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
