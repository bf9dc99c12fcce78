import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkUrlForm,
  isPublicAddress,
  RefusedUrl,
  vetRegistration,
  vetTarget,
  type GuardPolicy,
  type HostLookup,
} from '../../src/webhook-delivery/address-guard.js';

/**
 * docs/security.md, "Webhook targets": the ranges a webhook may never reach, each probed inside
 * and just outside, and the URL rules, with a resolver given by the test (no DNS).
 */
const CLOSED: GuardPolicy = { allowHttp: false, allowPrivateNetworks: false };

test('every reserved IPv4 range is refused, its first and last address; the neighbours outside are public', () => {
  const ranges: [string, string, string[]][] = [
    ['0.0.0.0', '0.255.255.255', ['1.0.0.0']],
    ['10.0.0.0', '10.255.255.255', ['9.255.255.255', '11.0.0.0']],
    ['100.64.0.0', '100.127.255.255', ['100.63.255.255', '100.128.0.0']],
    ['127.0.0.0', '127.255.255.255', ['126.255.255.255', '128.0.0.0']],
    ['169.254.0.0', '169.254.255.255', ['169.253.255.255', '169.255.0.0']],
    ['172.16.0.0', '172.31.255.255', ['172.15.255.255', '172.32.0.0']],
    ['192.0.0.0', '192.0.0.255', ['191.255.255.255', '192.0.1.0']],
    ['192.0.2.0', '192.0.2.255', ['192.0.1.255', '192.0.3.0']],
    ['192.88.99.0', '192.88.99.255', ['192.88.98.255', '192.88.100.0']],
    ['192.168.0.0', '192.168.255.255', ['192.167.255.255', '192.169.0.0']],
    ['198.18.0.0', '198.19.255.255', ['198.17.255.255', '198.20.0.0']],
    ['198.51.100.0', '198.51.100.255', ['198.51.99.255', '198.51.101.0']],
    ['203.0.113.0', '203.0.113.255', ['203.0.112.255', '203.0.114.0']],
    ['224.0.0.0', '239.255.255.255', ['223.255.255.255']],
    ['240.0.0.0', '255.255.255.255', []],
  ];
  for (const [first, last, outside] of ranges) {
    assert.equal(isPublicAddress(first), false, first);
    assert.equal(isPublicAddress(last), false, last);
    for (const address of outside) assert.equal(isPublicAddress(address), true, address);
  }
});

test('every reserved IPv6 range is refused; public IPv6 addresses pass', () => {
  const refused = [
    '::',
    '::1',
    '::ffff:0:7f00:1',
    '64:ff9b::808:808',
    '64:ff9b:1::1',
    '100::1',
    '2001::1',
    '2001:1ff:ffff::1',
    '2001:db8::1',
    '2002::1',
    'fc00::1',
    'fdff::1',
    'fe80::1',
    'febf::1',
    'fec0::1',
    'feff::1',
    'ff00::1',
    'ff02::1',
  ];
  for (const address of refused) assert.equal(isPublicAddress(address), false, address);
  for (const address of ['2001:200::1', '2a00:1450:4001::1', '2606:4700::1111', '64:ff9b:2::1', '101::1'])
    assert.equal(isPublicAddress(address), true, address);
});

test('an IPv4-mapped IPv6 address is judged as the IPv4 address it carries, in either notation and case', () => {
  for (const address of ['::ffff:127.0.0.1', '::FFFF:10.1.2.3', '::ffff:7f00:1', '::FFFF:A9FE:A9FE', '::ffff:c0a8:101'])
    assert.equal(isPublicAddress(address), false, address);
  for (const address of ['::ffff:8.8.8.8', '::FFFF:1.1.1.1', '::ffff:808:808', '::ffff:5db8:d822'])
    assert.equal(isPublicAddress(address), true, address);
});

test('only an address that begins ::ffff: is IPv4-mapped: a public IPv6 address whose last 32 bits read as a private IPv4 one stays public', () => {
  for (const address of ['2606:4700::ffff:10.0.0.1', '2606:4700::ffff:a00:1', '2a00:1450::ffff:127.0.0.1'])
    assert.equal(isPublicAddress(address), true, address);
});

test('what is not an address is not public', () => {
  for (const text of ['', 'localhost', 'example.com', '256.0.0.1', '1.2.3', '::ffff:8.8.8.8.8', ' 8.8.8.8'])
    assert.equal(isPublicAddress(text), false, JSON.stringify(text));
});

function refusedForm(text: string, policy: GuardPolicy = CLOSED): string {
  try {
    checkUrlForm(text, policy);
  } catch (error) {
    assert.ok(error instanceof RefusedUrl, String(error));
    return error.message;
  }
  assert.fail(`${text} was accepted`);
}

test('the URL: https only, plain http only when allowed, no credentials, no fragment, at most 2048 characters', () => {
  assert.equal(refusedForm('not a url'), '"not a url" is not a URL');
  assert.equal(
    refusedForm('http://example.com/hook'),
    'the URL must be https (plain http is allowed only with WEBHOOK_ALLOW_HTTP=true)',
  );
  assert.equal(refusedForm('ftp://example.com/hook'), 'the URL must be https, got ftp');
  assert.equal(
    refusedForm('ftp://example.com/hook', { ...CLOSED, allowHttp: true }),
    'the URL must be https, got ftp',
    'allowing http allows no other scheme',
  );
  assert.equal(
    refusedForm('https://user@example.com/hook'),
    'the URL must not hold a user name or password (they would be logged and shown)',
  );
  assert.equal(
    refusedForm('https://:secret@example.com/hook'),
    'the URL must not hold a user name or password (they would be logged and shown)',
  );
  assert.equal(refusedForm('https://example.com/hook#part'), 'the URL must not have a #fragment');
  const base = 'https://example.com/';
  const longest = base + 'a'.repeat(2048 - base.length);
  assert.equal(checkUrlForm(longest, CLOSED).href, longest, '2048 characters are accepted');
  assert.equal(refusedForm(`${longest}a`), 'the URL is longer than 2048 characters');
  assert.equal(checkUrlForm('http://example.com/hook', { ...CLOSED, allowHttp: true }).protocol, 'http:');
  assert.equal(checkUrlForm('https://example.com/hook?x=1', CLOSED).search, '?x=1');
});

const answers =
  (...addresses: [string, number][]): HostLookup =>
  async () =>
    addresses.map(([address, family]) => ({ address, family }));

test('a host name: every answer is checked, the first private one named; all answers are kept in order to connect to', async () => {
  const lookup = answers(['93.184.216.34', 4], ['10.0.0.7', 4], ['127.0.0.1', 4]);
  await assert.rejects(vetTarget('https://mixed.example/hook', { ...CLOSED, lookup }), {
    message:
      'its host mixed.example resolves to 10.0.0.7, a loopback, private or reserved address ' +
      '(allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)',
  });
  const allowed = await vetTarget('https://mixed.example/hook', { ...CLOSED, allowPrivateNetworks: true, lookup });
  assert.deepEqual(allowed.addresses, [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ]);
  const both = await vetTarget('https://public.example/hook', {
    ...CLOSED,
    lookup: answers(['2606:4700::1111', 6], ['1.1.1.1', 4]),
  });
  assert.deepEqual(both.addresses, [
    { address: '2606:4700::1111', family: 6 },
    { address: '1.1.1.1', family: 4 },
  ]);
  assert.equal(both.url.hostname, 'public.example');
});

test('an address in the URL is not looked up; an IPv6 one is read without its brackets', async () => {
  const lookup: HostLookup = async () => assert.fail('no lookup for an address');
  assert.deepEqual((await vetTarget('https://[2606:4700::1111]/hook', { ...CLOSED, lookup })).addresses, [
    { address: '2606:4700::1111', family: 6 },
  ]);
  assert.deepEqual((await vetTarget('https://1.1.1.1/hook', { ...CLOSED, lookup })).addresses, [
    { address: '1.1.1.1', family: 4 },
  ]);
  await assert.rejects(vetTarget('https://[::1]/hook', { ...CLOSED, lookup }), {
    message: /^its host ::1 resolves to ::1, /,
  });
});

test('a host that does not resolve: refused at the attempt; at registration only a warning for "not yet" answers', async () => {
  const failing =
    (code: string | undefined, message = 'resolver says no'): HostLookup =>
    async () => {
      throw Object.assign(new Error(message), { code });
    };
  for (const code of ['ENOTFOUND', 'ENODATA', 'EAI_AGAIN']) {
    const policy = { ...CLOSED, lookup: failing(code) };
    await assert.rejects(vetTarget('https://later.example/hook', policy), {
      message: `its host later.example does not resolve (${code})`,
    });
    assert.equal(
      await vetRegistration('https://later.example/hook', policy),
      `the host later.example does not resolve yet (${code}): the endpoint is registered, and every delivery ` +
        'resolves it and checks its addresses again',
    );
  }
  const empty = { ...CLOSED, lookup: answers() };
  await assert.rejects(vetTarget('https://empty.example/hook', empty), {
    message: 'its host empty.example does not resolve',
  });
  assert.match(
    (await vetRegistration('https://empty.example/hook', empty))!,
    /^the host empty\.example does not resolve yet \(ENODATA\)/,
  );
  const refused = { ...CLOSED, lookup: failing('ESERVFAIL') };
  await assert.rejects(vetRegistration('https://broken.example/hook', refused), {
    message: 'its host broken.example does not resolve (ESERVFAIL)',
  });
  const noCode = { ...CLOSED, lookup: failing(undefined, 'the resolver broke') };
  await assert.rejects(vetRegistration('https://broken.example/hook', noCode), {
    message: 'its host broken.example does not resolve (the resolver broke)',
  });
  assert.equal(
    await vetRegistration('https://public.example/hook', { ...CLOSED, lookup: answers(['1.1.1.1', 4]) }),
    null,
  );
  await assert.rejects(vetRegistration('http://public.example/hook', CLOSED), { message: /must be https/ });
  await assert.rejects(
    vetRegistration('https://inside.example/hook', { ...CLOSED, lookup: answers(['10.1.1.1', 4]) }),
    {
      message: /resolves to 10\.1\.1\.1/,
    },
  );
});
