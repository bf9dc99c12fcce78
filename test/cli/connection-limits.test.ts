/**
 * The caps on connections (docs/security.md, "Connections"), on `airorder serve` as a process and its
 * sockets from loopback: one address cannot hold more than MAX_CONNECTIONS_PER_ADDRESS, the process no
 * more than MAX_CONNECTIONS, headers must arrive within HEADERS_TIMEOUT_MS, and a kept-alive
 * connection idle for KEEP_ALIVE_TIMEOUT_MS is closed. Loopback is all of 127.0.0.0/8 on Linux, so
 * each 127.0.0.x below is a client of its own. The same with 24,000 connections from another
 * address: connection-flood.test.ts.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CliSandbox, type ServeProcess } from '../helpers/cli.js';
import {
  getFrom,
  holdConnections,
  release,
  sample,
  waitFor,
  type HeldConnection,
} from '../helpers/held-connections.js';

const sandboxes: CliSandbox[] = [];
const open: HeldConnection[][] = [];
after(async () => {
  for (const held of open) release(held);
  await Promise.all(sandboxes.map((s) => s.cleanup()));
});

async function serve(env: Record<string, string>): Promise<ServeProcess> {
  const box = new CliSandbox();
  sandboxes.push(box);
  return box.serve([], { env });
}

async function hold(server: ServeProcess, localAddress: string, count: number, opening?: string) {
  const held = await holdConnections(server.port, localAddress, count, opening);
  open.push(held);
  return held;
}

const closedCount = (held: HeldConnection[]) => held.filter((connection) => connection.closed).length;

function assertNoErrorLines(server: ServeProcess): void {
  const lines = server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
  assert.deepEqual(
    lines.filter((line) => line.level >= 50),
    [],
  );
}

describe('connections per address', () => {
  test("past MAX_CONNECTIONS_PER_ADDRESS an address's connections are closed at once, unanswered; other addresses are served; the address is served again once its connections close", async () => {
    // Bound to `::`, IPv4 clients arrive as IPv4-mapped IPv6 addresses; each still counts as its own address.
    const server = await serve({ HOST: '::', MAX_CONNECTIONS_PER_ADDRESS: '5' });
    const flood = await hold(server, '127.0.0.5', 12);
    await waitFor(() => closedCount(flood) === 7, '7 of 12 connections from 127.0.0.5 to be closed');
    // The first five are the ones held; the seven past the cap were closed before a byte was read.
    assert.deepEqual(
      flood.map((connection) => connection.closed),
      [false, false, false, false, false, true, true, true, true, true, true, true],
    );
    assert.ok(flood.every((connection) => connection.received === ''));

    // Another address is served, the flooding one is not.
    const other = await getFrom(server.port, '127.0.0.6', '/healthz');
    assert.equal(other.status, 200, other.text);
    assert.equal((await getFrom(server.port, '127.0.0.5', '/healthz')).status, 0);
    const metrics = (await getFrom(server.port, '127.0.0.6', '/metrics')).text;
    assert.equal(sample(metrics, 'airorder_connections_refused_total{cap="address"}'), 8);
    assert.equal(sample(metrics, 'airorder_connections_refused_total{cap="total"}'), 0);
    // The five held, and the scrape's own.
    assert.ok(sample(metrics, 'airorder_connections_open')! >= 6, metrics);
    assert.equal(closedCount(flood), 7);

    release(flood);
    // Once they are gone the address counts nothing: served again.
    let again = await getFrom(server.port, '127.0.0.5', '/healthz');
    for (let tries = 0; again.status === 0 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await getFrom(server.port, '127.0.0.5', '/healthz');
    }
    assert.equal(again.status, 200);
    assertNoErrorLines(server);
  });

  test('past MAX_CONNECTIONS a connection from any address is closed at once; one of the held closing lets the next in', async () => {
    const server = await serve({ MAX_CONNECTIONS: '6', MAX_CONNECTIONS_PER_ADDRESS: '4' });
    // CliSandbox.serve's health checks may have left a kept-alive connection from 127.0.0.1, which
    // counts too: 127.0.0.8 gets one or two of the six.
    const first = await hold(server, '127.0.0.7', 4);
    const second = await hold(server, '127.0.0.8', 4);
    await waitFor(() => closedCount(second) >= 2, 'the total cap to close connections from 127.0.0.8');
    const refused = await getFrom(server.port, '127.0.0.9', '/healthz');
    assert.equal(refused.status, 0, refused.text);
    assert.equal(closedCount(first), 0);

    release(first);
    let served = await getFrom(server.port, '127.0.0.9', '/metrics');
    for (let tries = 0; served.status === 0 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      served = await getFrom(server.port, '127.0.0.9', '/metrics');
    }
    assert.equal(served.status, 200, served.text);
    assert.ok(sample(served.text, 'airorder_connections_refused_total{cap="total"}')! >= 3, served.text);
    assert.equal(sample(served.text, 'airorder_connections_refused_total{cap="address"}'), 0);
    assertNoErrorLines(server);
  });
});

describe('with --workers', () => {
  test('each worker holds at most MAX_CONNECTIONS; past it a connection is closed, not kept waiting by the primary', async () => {
    const box = new CliSandbox();
    sandboxes.push(box);
    const server = await box.serve(['--workers', '2'], { env: { MAX_CONNECTIONS: '2' } });
    const held = await hold(server, '127.0.0.30', 8);
    // Two workers of two each (one may also hold the health check's kept-alive connection): four at most.
    await waitFor(() => closedCount(held) >= 4, 'at least 4 of 8 connections to be closed');
    assert.ok(closedCount(held) <= 8);
    release(held);
    let metrics = await getFrom(server.port, '127.0.0.31', '/metrics');
    for (let tries = 0; metrics.status === 0 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      metrics = await getFrom(server.port, '127.0.0.31', '/metrics');
    }
    assert.equal(metrics.status, 200, metrics.text);
    // Added up over the workers, like every counter.
    assert.ok(sample(metrics.text, 'airorder_connections_refused_total{cap="total"}')! >= 4, metrics.text);
    assertNoErrorLines(server);
  });
});

describe('time limits on a connection', () => {
  test('headers not all arrived within HEADERS_TIMEOUT_MS: 408 REQUEST_TIMEOUT and the connection closed, long before RECEIVE_TIMEOUT_MS', async () => {
    const server = await serve({ HEADERS_TIMEOUT_MS: '1000', RECEIVE_TIMEOUT_MS: '60000' });
    const [partial, silent] = [
      ...(await hold(server, '127.0.0.10', 1, 'GET /healthz HTTP/1.1\r\nHost: airor')),
      // A connection that sends nothing at all is timed from the moment it was accepted.
      ...(await hold(server, '127.0.0.11', 1, '')),
    ] as [HeldConnection, HeldConnection];
    await waitFor(() => partial.closed && silent.closed, 'both connections to be closed', 10_000);
    for (const connection of [partial, silent]) {
      assert.match(connection.received, /^HTTP\/1\.1 408 /);
      assert.match(connection.received, /"Code":"REQUEST_TIMEOUT"/);
    }
    assertNoErrorLines(server);
  });

  test('a kept-alive connection with no new request for KEEP_ALIVE_TIMEOUT_MS is closed', async () => {
    const server = await serve({ KEEP_ALIVE_TIMEOUT_MS: '1000' });
    const [connection] = (await hold(server, '127.0.0.12', 1, 'GET /healthz HTTP/1.1\r\nHost: airorder\r\n\r\n')) as [
      HeldConnection,
    ];
    await waitFor(() => connection.closed, 'the idle connection to be closed', 10_000);
    // Answered, kept alive, then closed without another word.
    assert.match(connection.received, /^HTTP\/1\.1 200 /);
    assert.match(connection.received, /keep-alive: timeout=1\r\n/i);
    assert.equal(connection.received.match(/HTTP\/1\.1 /g)?.length, 1);
    assertNoErrorLines(server);
  });
});
