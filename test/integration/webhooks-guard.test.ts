import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AdminError } from '../../src/service/agency-admin.js';
import { addEndpoint, setEnabled } from '../../src/service/webhook-endpoints.js';
import { runSql } from '../../src/store/raw-sql.js';
import { WebhookDispatcher } from '../../src/webhook-delivery/dispatcher.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * The server-side request forgery guard as an attacker would probe it: addresses written in the
 * forms URL parsers and resolvers accept, at registration and again at the attempt, where a host
 * name is resolved anew.
 */
const CLOSED = { allowHttp: false, allowPrivateNetworks: false };
const now = () => new Date().toISOString();
let service: TestService;
let token: string;
const receivers: Receiver[] = [];

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
});
after(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await service.close();
});

async function refusal(url: string): Promise<string> {
  try {
    await addEndpoint(service.store, now, CLOSED, { agencyId: 'AG1', url });
  } catch (error) {
    assert.ok(error instanceof AdminError, String(error));
    return error.message;
  }
  assert.fail(`${url} was accepted`);
}

describe('addresses in disguise are judged by what they are', () => {
  const cases: [string, RegExp][] = [
    // Written in another form, each still names loopback or the cloud's metadata service.
    ['https://0177.0.0.1/hook', /resolves to 127\.0\.0\.1,/],
    ['https://%31%32%37.0.0.1/hook', /resolves to 127\.0\.0\.1,/],
    ['https://127.0.0.1./hook', /resolves to 127\.0\.0\.1,/],
    ['https://[0:0:0:0:0:ffff:127.0.0.1]/hook', /resolves to ::ffff:7f00:1,/],
    ['https://[::ffff:a9fe:a9fe]/latest/meta-data', /resolves to ::ffff:a9fe:a9fe,/],
    // IPv4-compatible (deprecated) and IPv4-translated IPv6: reserved, whatever IPv4 address they carry.
    ['https://[::127.0.0.1]/hook', /resolves to ::7f00:1,/],
    ['https://[::ffff:0:7f00:1]/hook', /resolves to ::ffff:0:7f00:1,/],
    ['https://[64:ff9b::a9fe:a9fe]/hook', /resolves to 64:ff9b::a9fe:a9fe,/],
    ['https://[fe80::1]/hook', /resolves to fe80::1,/],
    ['https://[ff02::1]/hook', /resolves to ff02::1,/],
    ['https://100.64.0.1/hook', /resolves to 100\.64\.0\.1,/],
    ['https://172.31.255.254/hook', /resolves to 172\.31\.255\.254,/],
    ['https://198.18.0.1/hook', /resolves to 198\.18\.0\.1,/],
    ['https://192.0.2.1/hook', /resolves to 192\.0\.2\.1,/],
    ['https://224.0.0.1/hook', /resolves to 224\.0\.0\.1,/],
    ['https://255.255.255.255/hook', /resolves to 255\.255\.255\.255,/],
    ['https://LOCALHOST/hook', /resolves to (127\.0\.0\.1|::1),/],
    ['https://:secret@example.com/hook', /must not hold a user name or password/],
  ];
  for (const [url, reason] of cases) {
    test(url, async () => {
      const message = await refusal(url);
      assert.match(message, /^--url is refused: /);
      assert.match(message, reason);
    });
  }

  test('public addresses, also IPv4-mapped, pass (no request is made at registration)', async () => {
    for (const url of ['https://8.8.8.8/hook', 'https://[::ffff:808:808]/hook', 'https://[2606:4700:4700::1111]/hook']) {
      const endpoint = await addEndpoint(service.store, now, CLOSED, { agencyId: 'AG1', url });
      await setEnabled(service.store, endpoint.endpointId, false);
    }
  });

  test('nothing refused was stored', async () => {
    const rows = await runSql<{ url: string }>(service.store.reader, 'select url from webhook_endpoints', []);
    assert.deepEqual(rows.map((row) => row.url).sort(), ['https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'https://[::ffff:808:808]/hook']);
  });
});

test('at the attempt a host name is resolved again: one that now resolves to loopback is never called', async () => {
  const hook = await startReceiver();
  receivers.push(hook);
  // Registered while private networks were allowed; the dispatcher now runs without that setting,
  // as it would after the name was pointed at an inside address.
  const endpoint = await addEndpoint(service.store, now, { allowHttp: true, allowPrivateNetworks: true },
    { agencyId: 'AG1', url: `http://localhost:${hook.port}/named`, events: 'booking.canceled' });
  await service.importOrders([simpleOrder('GRD-1', 'AG1', 'GRD001', '2206000000001')]);
  assert.equal((await service.post('/AirOrderCancel', cancelRQ('GRD-1', ['GRD001']), bearer(token))).status, 200);
  const dispatcher = new WebhookDispatcher(service.store, now, { retrySchedule: [100], timeoutMs: 500, policy: { allowHttp: true, allowPrivateNetworks: false } },
    { info: () => {}, warn: () => {} });
  const rows = () => runSql<{ status: string; attempts: number | string; last_error: string | null }>(service.store.reader,
    'select status, attempts, last_error from webhook_deliveries where endpoint_id = ?', [endpoint.endpointId]);
  assert.ok(await until(async () => {
    await dispatcher.tick();
    await dispatcher.settle();
    return (await rows()).every((row) => row.status === 'FAILED');
  }, 5_000));
  assert.equal(hook.received.length, 0, 'never called');
  const [row] = await rows();
  assert.equal(Number(row!.attempts), 2, 'each attempt was refused on its own check');
  assert.match(row!.last_error!, /^refused: its host localhost resolves to (127\.0\.0\.1|::1), a loopback, private or reserved address/);
});
