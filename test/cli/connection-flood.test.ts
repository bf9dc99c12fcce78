/**
 * 24,000 half-open connections (a request line and one header, then nothing) from one address other
 * than loopback: a network namespace this test creates, joined to the host by a veth pair, traffic
 * only between the two. The service runs with an open-files limit of 16,384, below the flood, as
 * many hosts have it: without the caps the process runs out of descriptors and resets every new
 * connection, health checks included. With them it holds MAX_CONNECTIONS_PER_ADDRESS (256 by
 * default) of the flood, closes the rest as they come, answers every health check from loopback
 * meanwhile, and serves normally, the flooding address included, once they close.
 *
 * Needs root for `ip netns`: CI runs as root and fails here without it; elsewhere the test is skipped
 * with a message. Whatever happens, the namespace, its link and the clients are removed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, test } from 'node:test';
import { CliSandbox, PROJECT_ROOT } from '../helpers/cli.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { getFrom, sample, waitFor } from '../helpers/held-connections.js';
import { createNetworkNamespace, removeAbandoned, type NetworkNamespace } from '../helpers/network-namespace.js';
import { scaled } from '../helpers/time-scale.js';

const root = process.getuid?.() === 0;
const inCi = process.env.CI === 'true';
const skip =
  !root && !inCi ? 'needs root to create a network namespace (ip netns); run it as root to test the flood' : false;

const FLOOD = path.join(PROJECT_ROOT, 'test', 'helpers', 'half-open-flood.ts');
/** Two clients of 12,000 each, as in the finding; each below a common open-files limit of its own. */
const CLIENTS = 2;
const PER_CLIENT = 12_000;
/** MAX_CONNECTIONS_PER_ADDRESS's default (docs/security.md). */
const PER_ADDRESS_DEFAULT = 256;

interface FloodClient {
  child: ChildProcess;
  /** Writes `command` (when given) to the client, and waits for its next JSON line whose `event` is `event`. */
  next(event: string, command?: string): Promise<Record<string, number>>;
}

let namespace: NetworkNamespace | null = null;
const box = new CliSandbox();
const clients: FloodClient[] = [];

/** Ends the test's health checks, on failure too (else they would keep the test's process running). */
let stopProbing = () => {};

after(async () => {
  stopProbing();
  for (const client of clients) client.child.kill('SIGKILL');
  await box.cleanup();
  namespace?.remove();
});

/** Every health check was answered 200 (0: the connection closed unanswered; -1: it failed otherwise). */
function assertAllAnswered(probes: number[]): void {
  const tally: Record<string, number> = {};
  for (const status of probes) tally[status] = (tally[status] ?? 0) + 1;
  assert.deepEqual(tally, { 200: probes.length }, `health checks from loopback, by status: ${JSON.stringify(tally)}`);
}

function startFloodClient(ns: NetworkNamespace, port: number): FloodClient {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT;
  // Each connection is a file descriptor of the client's too.
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      ns.name,
      '/bin/sh',
      '-c',
      'ulimit -n 12500 && exec "$@"',
      'sh',
      process.execPath,
      '--import',
      'tsx',
      FLOOD,
      ns.hostAddress,
      String(port),
      String(PER_CLIENT),
    ],
    { cwd: PROJECT_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: Record<string, number | string>[] = [];
  let stderr = '';
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const line of complete) if (line.trim()) lines.push(JSON.parse(line));
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  return {
    child,
    async next(event, command) {
      const from = lines.length;
      if (command) child.stdin!.write(`${command}\n`);
      const found = () => lines.slice(from).find((line) => line.event === event);
      await waitFor(() => found() !== undefined || exited, `the flood client's "${event}" line`, 90_000);
      const line = found();
      if (!line) throw new Error(`the flood client ended without "${event}": ${stderr}`);
      return line as Record<string, number>;
    },
  };
}

test(
  `${CLIENTS * PER_CLIENT} half-open connections from one other address: the service stays up, answers every health check from loopback meanwhile, and serves normally once they close`,
  { skip, timeout: scaled(180_000) },
  async () => {
    if (!root) assert.fail('CI must run as root: this test creates a network namespace (ip netns)');
    removeAbandoned();
    namespace = createNetworkNamespace();
    const ns = namespace;

    await box.ok(['agency', 'add', '--agency-id', 'AGF', '--name', 'Flood Agency']);
    await box.ok(['orders', 'import', '-'], { stdin: JSON.stringify(simpleOrder('ORD-FLOOD', 'AGF', 'FLOOD1')) });
    const token = (await box.ok(['token', 'issue', '--agency-id', 'AGF'])).stdout.trim();
    const server = await box.serve([], {
      // Every interface: loopback for the health checks, the veth's address for the flood. The held
      // connections stay held for the whole test (60 s), so that the counts below are exact.
      env: { HOST: '0.0.0.0', HEADERS_TIMEOUT_MS: '60000', RECEIVE_TIMEOUT_MS: '60000' },
      openFiles: 16_384,
    });

    // Health checks from loopback, one after another, each on a new connection, for as long as the flood holds.
    const probes: number[] = [];
    let probing = true;
    stopProbing = () => {
      probing = false;
    };
    const prober = (async () => {
      while (probing) {
        probes.push(
          await getFrom(server.port, '127.0.0.1', '/healthz', 30_000).then(
            (a) => a.status,
            () => -1,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    for (let index = 0; index < CLIENTS; index += 1) clients.push(startFloodClient(ns, server.port));
    const opened = await Promise.all(clients.map((client) => client.next('opened')));
    // Every connection was accepted; the server closed all but the per-address cap of them.
    const total = (lines: Record<string, number>[], field: string) =>
      lines.reduce((sum, line) => sum + line[field]!, 0);
    assert.deepEqual(
      { connected: total(opened, 'connected'), failed: total(opened, 'failed') },
      { connected: CLIENTS * PER_CLIENT, failed: 0 },
    );
    // While they hold, the health checks are answered.
    const probesAtOpen = probes.length;
    await waitFor(() => probes.length >= probesAtOpen + 5, 'five health checks after the flood opened', 60_000);
    assertAllAnswered(probes);
    // The kernel completes a connection before the service accepts it: the service may still be
    // going through the last ones. Once it has, all but the per-address cap are closed.
    const refused = CLIENTS * PER_CLIENT - PER_ADDRESS_DEFAULT;
    let metrics = '';
    await waitFor(
      () => sample(metrics, 'airorder_connections_refused_total{cap="address"}') === refused,
      `${refused} connections refused in /metrics (last: ${sample(metrics, 'airorder_connections_refused_total{cap="address"}')})`,
      60_000,
      async () => {
        metrics = (await getFrom(server.port, '127.0.0.1', '/metrics')).text;
      },
    );
    let counts: Record<string, number>[] = [];
    await waitFor(
      () => total(counts, 'closed') === refused,
      `the clients to see ${refused} connections closed (last: ${total(counts, 'closed')})`,
      30_000,
      async () => {
        counts = await Promise.all(clients.map((client) => client.next('count', 'count')));
      },
    );
    // A few more health checks while the held ones still hold.
    const probesSoFar = probes.length;
    await waitFor(() => probes.length >= probesSoFar + 5, 'five more health checks', 60_000);
    metrics = (await getFrom(server.port, '127.0.0.1', '/metrics')).text;
    assert.equal(sample(metrics, 'airorder_connections_refused_total{cap="address"}'), refused);
    assert.equal(sample(metrics, 'airorder_connections_refused_total{cap="total"}'), 0);
    assert.ok(sample(metrics, 'airorder_connections_open')! >= PER_ADDRESS_DEFAULT, metrics);
    counts = await Promise.all(clients.map((client) => client.next('count', 'count')));
    assert.equal(total(counts, 'closed'), refused);
    stopProbing();
    await prober;
    assertAllAnswered(probes);

    // Released: the flooding address is served again, and so is the API.
    for (const client of clients) client.child.stdin!.write('release\n');
    const released = await Promise.all(clients.map((client) => client.next('released')));
    assert.deepEqual(
      released.map((line) => line.status),
      [200, 200],
    );
    const response = await server.post('/AirOrderCancel', cancelRQ('ORD-FLOOD', ['FLOOD1']), bearer(token));
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.OrderViewRS.Response[0].BookingStatus, 'CANCELED');
    assert.equal(server.child.exitCode, null);
    const errors = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
    assert.deepEqual(errors, []);
  },
);
