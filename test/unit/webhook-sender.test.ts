import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
  const result = await sendAttempt(attempt(url), policy, timeoutMs);
  assert.ok(Number.isInteger(result.ms) && result.ms >= 0);
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
