import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { runSql } from '../../src/store/raw-sql.js';
import { openStoreAt } from '../helpers/crash-load.js';
import { asNdjson, CliSandbox, freePort } from '../helpers/cli.js';
import { bearer, cancelRQ, change, segment, simpleOrder } from '../helpers/documents.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * Deliveries across processes, on the store TEST_STORE names: the outbox survives SIGKILL of
 * `serve`, and with two `serve` processes on one database each event reaches the receiver once.
 */
const sandbox = new CliSandbox();
let database: TestDatabase;
let token = '';
const receivers: Receiver[] = [];
const FAST = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
  WEBHOOK_TIMEOUT_MS: '1000',
  RATE_LIMIT_PER_SECOND: '0',
};

function orders(prefix: string, count: number) {
  return Array.from({ length: count }, (_, index) =>
    simpleOrder(
      `${prefix}-${index}`,
      'AG1',
      `${prefix}${String(index).padStart(3, '0')}`,
      `2207${prefix.length}${String(index).padStart(8, '0')}`,
    ),
  );
}

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write('orders.ndjson', asNdjson([...orders('KIL', 12), ...orders('TWO', 20)])),
  ]);
});
after(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await sandbox.cleanup();
  await database.drop();
});

/** Event ids of the agency that name orders starting with `prefix`, read from the store itself. */
async function eventIds(prefix: string): Promise<string[]> {
  const store = openStoreAt(database.url);
  try {
    return (
      await runSql<{ event_id: string }>(store.db, 'select event_id from events where data like ?', [
        `%"OrderID":"${prefix}-%`,
      ])
    ).map((row) => row.event_id);
  } finally {
    await store.close();
  }
}

async function addEndpoint(url: string): Promise<string> {
  const added = await sandbox.run(['--json', 'webhook', 'add', '--agency-id', 'AG1', '--url', url], { env: FAST });
  assert.equal(added.code, 0, added.stderr);
  const { id, secret } = JSON.parse(added.stdout) as { id: string; secret: string };
  return `${id} ${secret}`;
}

test('a receiver that is down while serve is SIGKILLed gets every event after the restart', async () => {
  const port = await freePort();
  const [endpointId, secret] = (await addEndpoint(`http://127.0.0.1:${port}/hooks`)).split(' ') as [string, string];
  let server = await sandbox.serve([], { env: FAST });
  for (const [index] of orders('KIL', 12).entries()) {
    const response = await server.post(
      '/AirOrderCancel',
      cancelRQ(`KIL-${index}`, [`KIL${String(index).padStart(3, '0')}`]),
      bearer(token),
    );
    assert.equal(response.status, 200);
  }
  const expected = await eventIds('KIL');
  assert.equal(expected.length, 12, 'one booking.canceled per cancel, committed with it');
  // Attempts fail meanwhile (nothing listens): the receiver is down.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  server.child.kill('SIGKILL');
  assert.equal((await server.exited).signal, 'SIGKILL');

  const hook = await startReceiver(port);
  receivers.push(hook);
  server = await sandbox.serve([], { env: FAST });
  try {
    const got = () => new Set(hook.received.map((request) => request.headers['webhook-id']));
    assert.ok(
      await until(() => expected.every((id) => got().has(id)), 25_000),
      `delivered ${got().size} of ${expected.length}`,
    );
    const verifier = new Webhook(secret);
    for (const request of hook.received) verifier.verify(request.body, request.headers);
    assert.equal(
      hook.received.every((request) => request.headers['webhook-id']!.startsWith('evt_')),
      true,
    );
    const listed = await sandbox.run(['--json', 'webhook', 'deliveries', '--endpoint', endpointId]);
    const rows = JSON.parse(listed.stdout) as { status: string; attempts: number }[];
    assert.equal(rows.length, 12);
    assert.deepEqual(
      rows.map((row) => row.status),
      new Array(12).fill('DELIVERED'),
    );
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await sandbox.run(['webhook', 'disable', endpointId]);
  }
});

test('two serve processes on one database deliver each event once when the receiver answers 2xx', async () => {
  const hook = await startReceiver();
  receivers.push(hook);
  await addEndpoint(hook.url);
  const servers = [await sandbox.serve([], { env: FAST }), await sandbox.serve([], { env: FAST })];
  try {
    await Promise.all(
      orders('TWO', 20).map((_, index) =>
        servers[index % 2]!.post(
          '/AirOrderCancel',
          cancelRQ(`TWO-${index}`, [`TWO${String(index).padStart(3, '0')}`]),
          bearer(token),
        ),
      ),
    );
    const expected = await eventIds('TWO');
    assert.equal(expected.length, 20);
    const got = () => hook.received.map((request) => request.headers['webhook-id']!);
    assert.ok(
      await until(() => expected.every((id) => got().includes(id)), 15_000),
      `delivered ${new Set(got()).size} of 20`,
    );
    // Both processes poll every second: give a duplicate the time to show.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(got().length, new Set(got()).size, 'no event delivered twice');
    assert.deepEqual([...new Set(got())].filter((id) => expected.includes(id)).sort(), [...expected].sort());
    const attempts = servers.map(
      (server) =>
        server
          .stdout()
          .split('\n')
          .filter((line) => line.includes('"webhook attempt"')).length,
    );
    assert.equal(attempts[0]! + attempts[1]!, got().length, `attempts per process: ${JSON.stringify(attempts)}`);
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
  }
});

test('a change import announces what serve, another process, then delivers', async () => {
  const hook = await startReceiver();
  receivers.push(hook);
  await addEndpoint(hook.url);
  await sandbox.ok(['orders', 'import', sandbox.write('more.ndjson', asNdjson(orders('CHG', 3)))]);
  const server = await sandbox.serve([], { env: FAST });
  try {
    await sandbox.ok([
      'changes',
      'import',
      sandbox.write(
        'chg.ndjson',
        asNdjson(
          orders('CHG', 3).map((_, index) =>
            change(
              `CHGC-${index}`,
              `CHG-${index}`,
              `CHG${String(index).padStart(3, '0')}`,
              ['S1'],
              [segment('S1B', 1, 14)],
            ),
          ),
        ),
      ),
    ]);
    const detected = () =>
      hook.received
        .map((request) => JSON.parse(request.body))
        .filter((body) => body.type === 'airline_change.detected');
    assert.ok(await until(() => detected().length >= 3, 10_000));
    assert.deepEqual(
      detected()
        .map((body) => body.data.Change.ChangeID)
        .sort(),
      ['CHGC-0', 'CHGC-1', 'CHGC-2'],
    );
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
