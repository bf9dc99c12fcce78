import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { asNdjson, CliSandbox } from '../helpers/cli.js';
import { bearer, cancelRQ, change, segment, simpleOrder } from '../helpers/documents.js';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.js';

/** `airorder webhook …` as the operator runs it, and `serve` delivering what it registered. */
const sandbox = new CliSandbox();
const OPEN = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
let hook: Receiver;

before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG2', '--name', 'Agency Two']);
  hook = await startReceiver();
});
after(async () => {
  await hook.close();
  await sandbox.cleanup();
});

async function addJson(args: string[], env: Record<string, string> = OPEN) {
  const result = await sandbox.run(['--json', 'webhook', 'add', ...args], { env });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as { id: string; url: string; events: string[]; secret: string };
}

describe('webhook add refuses what would make the service call inside its own network', () => {
  const refusals: [string, RegExp, Record<string, string>][] = [
    ['http://example.com/hook', /must be https \(plain http is allowed only with WEBHOOK_ALLOW_HTTP=true\)/, {}],
    ['ftp://example.com/hook', /must be https, got ftp/, OPEN],
    ['https://127.0.0.1/hook', /resolves to 127\.0\.0\.1, a loopback, private or reserved address/, {}],
    ['https://127.1/hook', /resolves to 127\.0\.0\.1/, {}],
    ['https://0x7f000001/hook', /resolves to 127\.0\.0\.1/, {}],
    ['https://2130706433/hook', /resolves to 127\.0\.0\.1/, {}],
    ['https://[::1]/hook', /resolves to ::1/, {}],
    ['https://[::ffff:127.0.0.1]/hook', /resolves to ::ffff:7f00:1/, {}],
    ['https://[::127.0.0.1]/hook', /resolves to ::7f00:1/, {}],
    ['https://169.254.169.254/latest/meta-data', /resolves to 169\.254\.169\.254/, {}],
    ['https://10.1.2.3/hook', /resolves to 10\.1\.2\.3/, {}],
    ['https://192.168.0.10/hook', /resolves to 192\.168\.0\.10/, {}],
    ['https://[fd00::1]/hook', /resolves to fd00::1/, {}],
    ['https://0.0.0.0/hook', /resolves to 0\.0\.0\.0/, {}],
    ['https://localhost/hook', /resolves to (127\.0\.0\.1|::1)/, {}],
    ['https://user:secret@example.com/hook', /must not hold a user name or password/, {}],
    ['not a url', /is not a URL/, {}],
  ];
  for (const [url, reason, env] of refusals) {
    test(url, async () => {
      const result = await sandbox.run(['webhook', 'add', '--agency-id', 'AG1', '--url', url], {
        env: { WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', ...env },
      });
      assert.equal(result.code, 1, result.stdout);
      assert.match(result.stderr, /^error: --url is refused: /);
      assert.match(result.stderr, reason);
      assert.equal(result.stderr.split('\n').filter(Boolean).length, 1, 'one line');
    });
  }

  test('nothing refused was stored', () => {
    assert.deepEqual(sandbox.query('select count(*) as n from webhook_endpoints'), [{ n: 0 }]);
  });
});

describe('webhook add accepts a host whose DNS is not live yet, with a warning naming it', () => {
  // .example names never resolve (RFC 2606): the README's example stands for one whose DNS comes later.
  const CLOSED = { WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' };
  const warning =
    /the host hooks\.bluesky\.example does not resolve yet \((ENOTFOUND|ENODATA|EAI_AGAIN)\): the endpoint is registered, and every delivery resolves it and checks its addresses again/;

  test('as text: the warning on stderr, the endpoint on stdout, exit 0', async () => {
    const result = await sandbox.run(
      ['webhook', 'add', '--agency-id', 'AG2', '--url', 'https://hooks.bluesky.example/airorder'],
      { env: CLOSED },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`^warning: ${warning.source}\n$`));
    assert.match(
      result.stdout,
      /^endpoint we_[0-9a-f]{24} added for agency AG2: https:\/\/hooks\.bluesky\.example\/airorder \(\*\)\n/,
    );
  });

  test('as JSON: a warning field as well', async () => {
    const result = await sandbox.run(
      ['--json', 'webhook', 'add', '--agency-id', 'AG2', '--url', 'https://hooks.bluesky.example/other'],
      { env: CLOSED },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(JSON.parse(result.stdout).warning, warning);
    for (const endpoint of JSON.parse(
      (await sandbox.run(['--json', 'webhook', 'list', '--agency-id', 'AG2'])).stdout,
    ) as { id: string }[]) {
      await sandbox.ok(['webhook', 'remove', endpoint.id]);
    }
  });
});

describe("the endpoint's life", () => {
  let endpoint: { id: string; url: string; events: string[]; secret: string };

  test('add prints the endpoint and its secret once; list never shows the secret', async () => {
    endpoint = await addJson([
      '--agency-id',
      'AG1',
      '--url',
      hook.url,
      '--events',
      'booking.canceled,booking.refunded',
    ]);
    assert.match(endpoint.id, /^we_[0-9a-f]{24}$/);
    assert.deepEqual(endpoint.events, ['booking.canceled', 'booking.refunded']);
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await sandbox.run(['webhook', 'list', '--agency-id', 'AG1']);
    assert.match(
      listed.stdout,
      new RegExp(
        `^${endpoint.id}  AG1  ENABLED  ${hook.url.replace(/[.]/g, '\\.')}  booking\\.canceled,booking\\.refunded$`,
        'm',
      ),
    );
    assert.equal(listed.stdout.includes(endpoint.secret), false);
    assert.equal((await sandbox.run(['webhook', 'list', '--agency-id', 'AG2'])).stdout, 'no webhook endpoints\n');
  });

  test('unknown agency, unknown event type, unknown endpoint: one-line errors', async () => {
    const cases: [string[], RegExp][] = [
      [['webhook', 'add', '--agency-id', 'NOPE', '--url', hook.url], /^error: No agency NOPE; create it first/],
      [
        ['webhook', 'add', '--agency-id', 'AG1', '--url', hook.url, '--events', 'booking.cancelled'],
        /^error: --events must list event types separated by commas/,
      ],
      [['webhook', 'disable', 'we_nope'], /^error: No webhook endpoint we_nope; see: airorder webhook list/],
      [
        ['webhook', 'redeliver', 'evt_0000000000000000000000000000'],
        /^error: No event evt_0000000000000000000000000000 \(events are kept 30 days\)\./,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await sandbox.run(args, { env: OPEN });
      assert.equal(result.code, 1, args.join(' '));
      assert.match(result.stderr, message);
    }
  });

  test("test sends a signed ping now and prints the receiver's status; a failing receiver exits 1 with why", async () => {
    hook.script([200]);
    const ok = await sandbox.run(['webhook', 'test', endpoint.id], { env: OPEN });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^HTTP 200 in \d+ ms \(ping evt_[0-9a-f]{28}\)\n$/);
    const ping = hook.received.at(-1)!;
    const payload = new Webhook(endpoint.secret).verify(ping.body, ping.headers) as { type: string; data: unknown };
    assert.equal(payload.type, 'ping');
    assert.deepEqual(payload.data, { EndpointID: endpoint.id, AgencyID: 'AG1' });
    hook.script([503]);
    const failing = await sandbox.run(['webhook', 'test', endpoint.id], { env: OPEN });
    assert.equal(failing.code, 1);
    assert.match(failing.stderr, /^error: ping evt_[0-9a-f]{28} to we_[0-9a-f]{24} was not delivered: HTTP 503/);
    // Without the settings the same URL is refused at the attempt too.
    const refused = await sandbox.run(['webhook', 'test', endpoint.id]);
    assert.match(refused.stderr, /not delivered: refused: the URL must be https/);
  });

  test('serve delivers; deliveries lists it; redeliver sends it again with the same webhook-id; disable, rotate, remove', async () => {
    await sandbox.ok([
      'orders',
      'import',
      sandbox.write('orders.ndjson', asNdjson([simpleOrder('CW-1', 'AG1', 'CWB001', '2201000000991')])),
    ]);
    await sandbox.ok([
      'changes',
      'import',
      sandbox.write('changes.ndjson', asNdjson([change('CWC-1', 'CW-1', 'CWB001', ['S1'], [segment('S1B', 1, 14)])])),
    ]);
    const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
    const server = await sandbox.serve([], { env: OPEN });
    try {
      const before = hook.received.length;
      const cancelled = await server.post('/AirOrderCancel', cancelRQ('CW-1', ['CWB001']), bearer(token));
      assert.equal(cancelled.status, 200);
      assert.ok(await until(() => hook.received.length > before, 5_000), 'delivered within seconds');
      const delivery = hook.received.at(-1)!;
      const payload = new Webhook(endpoint.secret).verify(delivery.body, delivery.headers) as { type: string };
      assert.equal(payload.type, 'booking.canceled', 'the only subscribed type this cancel made');

      const listed = await sandbox.run(['--json', 'webhook', 'deliveries', '--endpoint', endpoint.id]);
      const rows = JSON.parse(listed.stdout) as {
        eventId: string;
        status: string;
        attempts: number;
        lastStatus: number;
      }[];
      assert.deepEqual(
        rows.map((row) => [row.eventId, row.status, row.attempts, row.lastStatus]),
        [[delivery.headers['webhook-id'], 'DELIVERED', 1, 204]],
      );
      assert.equal((await sandbox.run(['webhook', 'deliveries', '--failed'])).stdout, 'no deliveries\n');

      const again = await sandbox.run(['webhook', 'redeliver', delivery.headers['webhook-id']!]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, `event ${delivery.headers['webhook-id']} queued for ${endpoint.id}\n`);
      assert.ok(await until(() => hook.received.length > before + 1, 5_000));
      assert.equal(hook.received.at(-1)!.headers['webhook-id'], delivery.headers['webhook-id']);
      const wrong = await addJson(['--agency-id', 'AG2', '--url', hook.url]);
      const refused = await sandbox.run([
        'webhook',
        'redeliver',
        delivery.headers['webhook-id']!,
        '--endpoint',
        wrong.id,
      ]);
      assert.match(refused.stderr, /^error: Endpoint we_[0-9a-f]+ belongs to agency AG2, not to AG1/);

      await sandbox.ok(['webhook', 'disable', endpoint.id]);
      assert.match(
        (await sandbox.run(['webhook', 'list'])).stdout,
        new RegExp(`${endpoint.id}  AG1  DISABLED \\(disabled by the operator\\)`),
      );
      const rotated = await sandbox.run(['--json', 'webhook', 'rotate-secret', endpoint.id]);
      const secret = JSON.parse(rotated.stdout).secret as string;
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, endpoint.secret);
      await sandbox.ok(['webhook', 'enable', endpoint.id]);
      await sandbox.ok(['webhook', 'remove', endpoint.id]);
      assert.deepEqual(
        sandbox.query('select count(*) as n from webhook_deliveries where endpoint_id = ?', endpoint.id),
        [{ n: 0 }],
      );
    } finally {
      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0);
    }
    // One log line per attempt: endpoint, event, status, duration; never the body nor the secret.
    const lines = server
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'webhook attempt');
    assert.ok(lines.length >= 2);
    for (const line of lines) {
      assert.equal(line.endpoint, endpoint.id);
      assert.match(line.eventId, /^evt_/);
      assert.equal(typeof line.durationMs, 'number');
    }
    assert.equal(server.stdout().includes(endpoint.secret), false);
    assert.equal(server.stdout().includes('CanceledBy'), false, 'no body in the log');
  });
});
