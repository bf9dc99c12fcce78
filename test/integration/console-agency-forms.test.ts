/**
 * The console's agency forms at the bounds of each field: a new agency (id, name, IATA number,
 * e-mail) and a token's expiry in days. A value out of bounds answers 400 with the page and the
 * rule it broke, and adds nothing; one at the bound is taken. Over plain HTTP, in process
 * (test/e2e/console.test.ts fills the same forms in a browser).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addOperator } from '../../src/console/operator-accounts.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const EMAIL = 'forms@airline.example';
const PASSWORD = 'correct horse battery';
const NOW = '2026-11-25T08:00:00.000Z';
let service: TestService;
let browser: ConsoleClient;

before(async () => {
  service = await startTestService({ clock: () => NOW });
  await addOperator(service.store, () => NOW, { email: EMAIL, name: 'Forms Desk', password: PASSWORD });
  await service.addAgency('FORMAG');
  browser = new ConsoleClient(service.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
});
after(() => service?.close());

const agencyIds = async () => (await service.store.read.listAgencies()).map((agency) => agency.agencyId).sort();

async function addAgency(fields: Record<string, string>) {
  return browser.submit('/console/agencies', '/console/agencies', {
    name: 'An agency',
    iata: '',
    email: '',
    ...fields,
  });
}

describe('a new agency', () => {
  const refusals: [string, Record<string, string>, string][] = [
    ['an empty id', { agencyId: '' }, 'The agency id must be 1 to 64 characters.'],
    ['an id of 65 characters', { agencyId: 'A'.repeat(65) }, 'The agency id must be 1 to 64 characters.'],
    ['an empty name', { agencyId: 'NONAME', name: '  ' }, 'The name must be 1 to 200 characters.'],
    [
      'a name of 201 characters',
      { agencyId: 'LONGNAME', name: 'n'.repeat(201) },
      'The name must be 1 to 200 characters.',
    ],
    ...['123456', '123456789', '1234567a', 'x1234567', '1234567x'].map(
      (iata): [string, Record<string, string>, string] => [
        `the IATA number ${iata}`,
        { agencyId: 'BADIATA', iata },
        'The IATA number must be 7 or 8 digits.',
      ],
    ),
    ...[
      'desk',
      'desk@',
      '@airline.example',
      'desk@airline',
      'de sk@airline.example',
      'desk@air@line.example',
      'desk@airline.',
      'desk@.example',
    ].map((email): [string, Record<string, string>, string] => [
      `the e-mail ${email}`,
      { agencyId: 'BADMAIL', email },
      'The email must be an e-mail address.',
    ]),
  ];
  for (const [what, fields, rule] of refusals) {
    test(`${what} is refused with the rule, and nothing is added`, async () => {
      const before = await agencyIds();
      const answer = await addAgency(fields);
      assert.equal(answer.status, 400);
      assert.ok(answer.text.includes(rule), `the page says: ${rule}`);
      assert.deepEqual(await agencyIds(), before);
    });
  }

  test('each field at its bounds is taken, an IATA number of 7 or 8 digits and an e-mail among them', async () => {
    const accepted: Record<string, string>[] = [
      { agencyId: 'A', name: 'n' },
      { agencyId: 'B'.repeat(64), name: 'n'.repeat(200) },
      { agencyId: 'IATA7', iata: '1234567', email: 'desk@airline.example' },
      { agencyId: 'IATA8', iata: '12345678', email: 'a@b.c' },
    ];
    for (const fields of accepted) {
      const answer = await addAgency(fields);
      assert.equal(answer.status, 303, JSON.stringify(fields));
      assert.equal(answer.headers.get('location'), `/console/agencies/${fields.agencyId}?notice=agency-added`);
    }
    const stored = await service.store.read.findAgency('IATA8');
    assert.deepEqual([stored?.iataNumber, stored?.email], ['12345678', 'a@b.c']);
    const plain = await service.store.read.findAgency('A');
    assert.deepEqual([plain?.iataNumber, plain?.email], [null, null], 'empty fields are stored as none');
  });
});

describe("a token's expiry", () => {
  const tokens = async () => (await service.store.read.listAgencyTokens('FORMAG')).length;
  const issue = (expiresInDays: string) =>
    browser.submit('/console/agencies/FORMAG', '/console/agencies/FORMAG/tokens', { expiresInDays });

  for (const days of ['0', '-1', '3651', '1.5', 'x', '1e400'])
    test(`${days} days is refused with the rule, and no token is issued`, async () => {
      const before = await tokens();
      const answer = await issue(days);
      assert.equal(answer.status, 400);
      assert.ok(answer.text.includes('Expiry must be a whole number of days from 1 to 3650, or empty for none.'));
      assert.equal(await tokens(), before);
    });

  test('1 and 3650 days, and none, are taken: the token expires that many days after it was issued', async () => {
    for (const [days, expiresAt] of [
      ['1', '2026-11-26T08:00:00.000Z'],
      ['3650', new Date(Date.parse(NOW) + 3650 * 86_400_000).toISOString()],
      ['', null],
    ] as const) {
      const before = await service.store.read.listAgencyTokens('FORMAG');
      const answer = await issue(days);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.match(answer.text, /aot_[A-Za-z0-9_-]{20,}/, 'the page shows the new token, this once');
      const added = (await service.store.read.listAgencyTokens('FORMAG')).filter(
        (token) => !before.some((earlier) => earlier.tokenId === token.tokenId),
      );
      assert.deepEqual(
        added.map((token) => token.expiresAt),
        [expiresAt],
        `${days || 'no'} days`,
      );
    }
  });
});

test('an agency that does not exist has no page, and no token is issued for it', async () => {
  assert.equal((await browser.request('/console/agencies/NOSUCHAG')).status, 404);
  const page = await browser.request('/console/agencies/FORMAG');
  const answer = await browser.request('/console/agencies/NOSUCHAG/tokens', {
    form: { _csrf: csrfOf(page.text), expiresInDays: '' },
  });
  assert.equal(answer.status, 404);
  assert.deepEqual(await service.store.read.listAgencyTokens('NOSUCHAG'), []);
});
