import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AdminError } from '../../src/service/agency-admin.js';
import { addEndpoint, setEnabled } from '../../src/service/webhook-endpoints.js';
import { runSql } from '../../src/store/raw-sql.js';
import { vetTarget, type GuardPolicy, type HostLookup } from '../../src/webhook-delivery/address-guard.js';
import { WebhookDispatcher } from '../../src/webhook-delivery/dispatcher.js';
import { sendAttempt } from '../../src/webhook-delivery/sender.js';
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

function refusal(url: string): Promise<string> {
  return refusalWith(CLOSED, url);
}

async function refusalWith(policy: GuardPolicy, url: string): Promise<string> {
  try {
    await addEndpoint(service.store, now, policy, { agencyId: 'AG1', url });
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

  test('public addresses, also IPv4-mapped, pass and are stored as given (no request is made at registration)', async () => {
    for (const url of [
      'https://8.8.8.8/hook',
      'https://[::ffff:808:808]/hook',
      'https://[2606:4700:4700::1111]/hook',
    ]) {
      const endpoint = await addEndpoint(service.store, now, CLOSED, { agencyId: 'AG1', url });
      const rows = await runSql<{ url: string }>(
        service.store.reader,
        'select url from webhook_endpoints where endpoint_id = ?',
        [endpoint.endpointId],
      );
      assert.deepEqual(rows, [{ url }]);
      await setEnabled(service.store, endpoint.endpointId, false);
    }
  });

  test('nothing refused is stored', async () => {
    // On its own: every refusal is made again here, and the table must be the same before and after.
    const table = () =>
      runSql<Record<string, unknown>>(service.store.reader, 'select * from webhook_endpoints order by endpoint_id', []);
    const before = await table();
    for (const [url, reason] of cases) assert.match(await refusal(url), reason);
    assert.deepEqual(await table(), before);
  });
});

/** A resolver that answers from a table, as DNS would for names that are not real: NXDOMAIN for the rest. */
function resolverOf(answers: Record<string, string[]>): HostLookup {
  return async (host) => {
    const addresses = answers[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('a host name is judged by every address it resolves to, not the first', () => {
  const lookup = resolverOf({
    'mixed.example': ['93.184.216.34', '10.0.0.7'],
    'mixed6.example': ['2606:4700:4700::1111', '::1'],
    'public.example': ['93.184.216.34', '2606:4700:4700::1111'],
  });
  const policy = { ...CLOSED, lookup };

  test('a public and a private address: refused at registration, naming the private one', async () => {
    for (const [host, inside] of [
      ['mixed.example', '10.0.0.7'],
      ['mixed6.example', '::1'],
    ]) {
      try {
        await addEndpoint(service.store, now, policy, { agencyId: 'AG1', url: `https://${host}/hook` });
        assert.fail(`${host} was accepted`);
      } catch (error) {
        assert.ok(error instanceof AdminError, String(error));
        assert.equal(
          error.message,
          `--url is refused: its host ${host} resolves to ${inside}, a loopback, private or reserved address ` +
            '(allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true).',
        );
      }
    }
  });

  test('and at the attempt, which never connects', async () => {
    const result = await sendAttempt(
      { url: 'https://mixed.example/hook', id: 'evt_x', body: '{}', timestamp: 0, signature: 'v1,x' },
      policy,
      1_000,
    );
    assert.equal(result.delivered, false);
    assert.match((result as { error: string }).error, /^refused: its host mixed\.example resolves to 10\.0\.0\.7,/);
  });

  test('only public addresses: every one is kept, to connect to', async () => {
    const target = await vetTarget('https://public.example/hook', policy);
    assert.deepEqual(target.addresses, [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
  });
});

describe('a host name that does not resolve yet', () => {
  const notYet =
    (code: string): HostLookup =>
    async (host) => {
      throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code });
    };

  test('is registered with a warning naming it, for NXDOMAIN, no data and a temporary failure', async () => {
    for (const code of ['ENOTFOUND', 'ENODATA', 'EAI_AGAIN']) {
      const endpoint = await addEndpoint(
        service.store,
        now,
        { ...CLOSED, lookup: notYet(code) },
        { agencyId: 'AG1', url: `https://later-${code.toLowerCase()}.example/hook` },
      );
      assert.equal(
        endpoint.warning,
        `the host later-${code.toLowerCase()}.example does not resolve yet (${code}): the endpoint is registered, ` +
          'and every delivery resolves it and checks its addresses again',
      );
      await setEnabled(service.store, endpoint.endpointId, false);
    }
  });

  test('an endpoint whose host resolves has no warning', async () => {
    const endpoint = await addEndpoint(
      service.store,
      now,
      { ...CLOSED, lookup: resolverOf({ 'live.example': ['93.184.216.34'] }) },
      { agencyId: 'AG1', url: 'https://live.example/hook' },
    );
    assert.equal(endpoint.warning, null);
    await setEnabled(service.store, endpoint.endpointId, false);
  });

  test('another resolver failure is still refused', async () => {
    const message = await refusalWith({ ...CLOSED, lookup: notYet('ESERVFAIL') }, 'https://broken.example/hook');
    assert.equal(message, '--url is refused: its host broken.example does not resolve (ESERVFAIL).');
  });

  test('each attempt resolves it again: while it does not resolve, the attempt is refused without a connection', async () => {
    const result = await sendAttempt(
      { url: 'https://later.example/hook', id: 'evt_x', body: '{}', timestamp: 0, signature: 'v1,x' },
      { ...CLOSED, lookup: notYet('ENOTFOUND') },
      1_000,
    );
    assert.equal(result.delivered, false);
    assert.equal((result as { error: string }).error, 'refused: its host later.example does not resolve (ENOTFOUND)');
  });
});

test('at the attempt a host name is resolved again: one that now resolves to loopback is never called', async () => {
  const hook = await startReceiver();
  receivers.push(hook);
  // Registered while private networks were allowed; the dispatcher now runs without that setting,
  // as it would after the name was pointed at an inside address.
  const endpoint = await addEndpoint(
    service.store,
    now,
    { allowHttp: true, allowPrivateNetworks: true },
    { agencyId: 'AG1', url: `http://localhost:${hook.port}/named`, events: 'booking.canceled' },
  );
  await service.importOrders([simpleOrder('GRD-1', 'AG1', 'GRD001', '2206000000001')]);
  assert.equal((await service.post('/AirOrderCancel', cancelRQ('GRD-1', ['GRD001']), bearer(token))).status, 200);
  const dispatcher = new WebhookDispatcher(
    service.store,
    now,
    { retrySchedule: [100], timeoutMs: 500, policy: { allowHttp: true, allowPrivateNetworks: false } },
    { info: () => {}, warn: () => {} },
  );
  const rows = () =>
    runSql<{ status: string; attempts: number | string; last_error: string | null }>(
      service.store.reader,
      'select status, attempts, last_error from webhook_deliveries where endpoint_id = ?',
      [endpoint.endpointId],
    );
  assert.ok(
    await until(async () => {
      await dispatcher.tick();
      await dispatcher.settle();
      return (await rows()).every((row) => row.status === 'FAILED');
    }, 5_000),
  );
  assert.equal(hook.received.length, 0, 'never called');
  const [row] = await rows();
  assert.equal(Number(row!.attempts), 2, 'each attempt was refused on its own check');
  assert.match(
    row!.last_error!,
    /^refused: its host localhost resolves to (127\.0\.0\.1|::1), a loopback, private or reserved address/,
  );
});
