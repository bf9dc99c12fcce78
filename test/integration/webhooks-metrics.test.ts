import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asNdjson, CliSandbox, freePort, type ServeProcess } from '../helpers/cli.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * What `serve` shows of its deliveries on /metrics, on the store TEST_STORE names: attempts by
 * outcome, and the age of the oldest event still waiting, read from the store at scrape.
 */
const sandbox = new CliSandbox();
let database: TestDatabase;
let token = '';
const receivers: Receiver[] = [];
// Three attempts: the first and two retries about a second apart.
const ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  WEBHOOK_TIMEOUT_MS: '1000',
};

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write('orders.ndjson', asNdjson([simpleOrder('MET-1', 'AG1', 'MET001', '2208000000001')])),
  ]);
});
after(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await sandbox.cleanup();
  await database.drop();
});

async function addEndpoint(url: string): Promise<string> {
  const added = await sandbox.run(
    ['--json', 'webhook', 'add', '--agency-id', 'AG1', '--url', url, '--events', 'booking.canceled'],
    { env: ENV },
  );
  assert.equal(added.code, 0, added.stderr);
  return (JSON.parse(added.stdout) as { id: string }).id;
}

async function scrape(server: ServeProcess) {
  const { status, text } = await server.get('/metrics');
  assert.equal(status, 200);
  const count = (outcome: string) =>
    Number(
      new RegExp(`^airorder_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  const oldest = /^airorder_webhook_oldest_undelivered_seconds (\S+)$/m.exec(text);
  assert.ok(oldest, 'the gauge is always shown');
  return {
    delivered: count('delivered'),
    retry: count('retry'),
    failed: count('failed'),
    disabled: count('disabled'),
    oldest: Number(oldest[1]),
  };
}

test("attempts are counted by outcome, and the oldest waiting event's age is shown until nothing waits", async () => {
  const downPort = await freePort();
  const downId = await addEndpoint(`http://127.0.0.1:${downPort}/hooks`);
  const failing = await startReceiver();
  failing.script([], 500);
  const gone = await startReceiver();
  gone.script([], 410);
  receivers.push(failing, gone);
  await addEndpoint(failing.url);
  await addEndpoint(gone.url);

  const server = await sandbox.serve([], { env: ENV });
  try {
    assert.deepEqual(
      await scrape(server),
      { delivered: 0, retry: 0, failed: 0, disabled: 0, oldest: 0 },
      'nothing waits yet',
    );
    assert.equal((await server.post('/AirOrderCancel', cancelRQ('MET-1', ['MET001']), bearer(token))).status, 200);
    // First attempts: refused connection and 500 are retried; 410 disables its endpoint.
    assert.ok(
      await until(async () => {
        const seen = await scrape(server);
        return seen.retry >= 2 && seen.disabled === 1;
      }, 5_000),
      JSON.stringify(await scrape(server)),
    );
    const waiting = await scrape(server);
    assert.ok(waiting.oldest > 0, `an event waits: ${waiting.oldest}`);

    // The receiver that was down comes up before its last attempt (the second is at least 0.8 s
    // after the first, the third as long again).
    const back = await startReceiver(downPort);
    receivers.push(back);
    assert.ok(
      await until(async () => {
        const seen = await scrape(server);
        return seen.delivered === 1 && seen.failed === 1;
      }, 8_000),
      JSON.stringify(await scrape(server)),
    );
    assert.equal(back.received.length, 1);
    assert.equal(failing.received.length, 3, 'the first attempt and the two of the schedule');
    assert.equal(gone.received.length, 1);
    const listed = await sandbox.run(['--json', 'webhook', 'deliveries', '--endpoint', downId]);
    const [comeBack] = JSON.parse(listed.stdout) as { status: string; attempts: number }[];
    assert.equal(comeBack!.status, 'DELIVERED');
    // Every failed attempt before the come-back, and the failing endpoint's first two, were retried;
    // nothing waits any more.
    assert.deepEqual(await scrape(server), {
      delivered: 1,
      retry: comeBack!.attempts - 1 + 2,
      failed: 1,
      disabled: 1,
      oldest: 0,
    });
  } finally {
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0);
  }
});
