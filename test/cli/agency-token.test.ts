import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { bearer, cancelRQ } from '../helpers/documents.js';

const sandbox = new CliSandbox();
before(async () => { await sandbox.ok(['migrate']); });
after(() => sandbox.cleanup());

const TOKEN_LINE = /^aot_[A-Za-z0-9_-]{20,}\n$/;

describe('agency add', () => {
  test('registers an agency with its IATA number and e-mail', async () => {
    const result = await sandbox.run(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One', '--iata', '12345678', '--email', 'ops@agency-one.example']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /AG1/);
    assert.deepEqual(sandbox.query('select agency_id, name, iata_number, email from agencies where agency_id = ?', 'AG1'),
      [{ agency_id: 'AG1', name: 'Agency One', iata_number: '12345678', email: 'ops@agency-one.example' }]);
  });

  test('IATA number and e-mail are optional', async () => {
    await sandbox.ok(['agency', 'add', '--agency-id', 'AG2', '--name', 'Agency Two', '--iata', '1234567']);
    await sandbox.ok(['agency', 'add', '--agency-id', 'AG3', '--name', 'Agency Three']);
    assert.deepEqual(sandbox.query("select agency_id, iata_number, email from agencies where agency_id in ('AG2', 'AG3') order by agency_id"),
      [{ agency_id: 'AG2', iata_number: '1234567', email: null }, { agency_id: 'AG3', iata_number: null, email: null }]);
  });

  for (const iata of ['123456', '123456789', '1234567a', '']) {
    test(`rejects --iata ${JSON.stringify(iata)} and stores nothing`, async () => {
      const result = await sandbox.run(['agency', 'add', '--agency-id', 'BADIATA', '--name', 'Bad', '--iata', iata]);
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /--iata must be 7 or 8 digits/);
      assert.equal(result.stdout, '');
      assert.deepEqual(sandbox.query("select agency_id from agencies where agency_id = 'BADIATA'"), []);
    });
  }

  for (const email of ['not-an-address', 'a@b', 'two words@x.example', '@x.example']) {
    test(`rejects --email ${JSON.stringify(email)} and stores nothing`, async () => {
      const result = await sandbox.run(['agency', 'add', '--agency-id', 'BADMAIL', '--name', 'Bad', '--email', email]);
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /--email must be an e-mail address/);
      assert.deepEqual(sandbox.query("select agency_id from agencies where agency_id = 'BADMAIL'"), []);
    });
  }

  test('a duplicate agency is an error and leaves the first one as it was', async () => {
    const result = await sandbox.run(['agency', 'add', '--agency-id', 'AG1', '--name', 'Impostor', '--iata', '87654321']);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /AG1 exists already/);
    assert.deepEqual(sandbox.query("select name, iata_number from agencies where agency_id = 'AG1'"), [{ name: 'Agency One', iata_number: '12345678' }]);
  });

  test('--agency-id and --name are required', async () => {
    const noName = await sandbox.run(['agency', 'add', '--agency-id', 'NONAME']);
    assert.notEqual(noName.code, 0);
    assert.match(noName.stderr, /--name/);
    const noId = await sandbox.run(['agency', 'add', '--name', 'No Id']);
    assert.notEqual(noId.code, 0);
    assert.match(noId.stderr, /--agency-id/);
    assert.deepEqual(sandbox.query("select agency_id from agencies where agency_id = 'NONAME' or name = 'No Id'"), []);
  });
});

describe('token issue and revoke', () => {
  test('prints the token alone on stdout; the database holds only its SHA-256 hash', async () => {
    const result = await sandbox.run(['token', 'issue', '--agency-id', 'AG1']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, TOKEN_LINE);
    const token = result.stdout.trim();
    const rows = sandbox.query('select agency_id, token_hash, expires_at, revoked_at from access_tokens where token_hash = ?', createHash('sha256').update(token).digest('hex'));
    assert.deepEqual(rows, [{ agency_id: 'AG1', token_hash: createHash('sha256').update(token).digest('hex'), expires_at: null, revoked_at: null }]);
    const bytes = sandbox.databaseBytes();
    assert.ok(bytes.length > 0);
    assert.equal(bytes.includes(token), false, 'the token text is in the database file');
    assert.equal(bytes.includes(token.slice(4)), false, 'the token secret is in the database file');
  });

  test('two issues give two different tokens', async () => {
    const one = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG2'])).stdout.trim();
    const two = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG2'])).stdout.trim();
    assert.notEqual(one, two);
    assert.equal(sandbox.query("select count(*) as n from access_tokens where agency_id = 'AG2'")[0].n, 2);
  });

  const durations: [string, number][] = [['30s', 30_000], ['15m', 15 * 60_000], ['12h', 12 * 3_600_000], ['90d', 90 * 86_400_000]];
  for (const [text, ms] of durations) {
    test(`--expires-in ${text} stores an expiry ${text} after issue`, async () => {
      const result = await sandbox.run(['token', 'issue', '--agency-id', 'AG3', '--expires-in', text]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, TOKEN_LINE);
      const hash = createHash('sha256').update(result.stdout.trim()).digest('hex');
      const [row] = sandbox.query('select created_at, expires_at from access_tokens where token_hash = ?', hash);
      assert.ok(row, 'token stored');
      assert.equal(Date.parse(row.expires_at) - Date.parse(row.created_at), ms);
    });
  }

  for (const text of ['30', 's', '0s', '10w', '-5m', '1.5h', '12 h', 'soon']) {
    test(`--expires-in ${JSON.stringify(text)} is rejected and issues nothing`, async () => {
      const before = sandbox.query('select count(*) as n from access_tokens')[0].n;
      const result = await sandbox.run(['token', 'issue', '--agency-id', 'AG3', '--expires-in', text]);
      assert.notEqual(result.code, 0);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /expires-in/);
      assert.equal(sandbox.query('select count(*) as n from access_tokens')[0].n, before);
    });
  }

  test('an unknown agency is rejected and no token is stored', async () => {
    const result = await sandbox.run(['token', 'issue', '--agency-id', 'NOBODY']);
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /NOBODY/);
    assert.deepEqual(sandbox.query("select token_id from access_tokens where agency_id = 'NOBODY'"), []);
  });

  test('revoking an unknown token is an error and revokes nothing', async () => {
    const result = await sandbox.run(['token', 'revoke', 'aot_thisTokenWasNeverIssuedByAnyone000000000']);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /No such token/);
    assert.deepEqual(sandbox.query('select token_id from access_tokens where revoked_at is not null'), []);
  });

  test('an issued token authenticates against the service until it is revoked', async () => {
    const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
    const server = await sandbox.serve();
    try {
      // Authenticated: the order is merely unknown.
      const known = await server.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['ABC123']), bearer(token));
      assert.equal(known.status, 404, known.text);
      assert.equal(known.body.OrderViewRS.Errors[0].Code, 'ORDER_NOT_FOUND');
      assert.equal(known.body.OrderViewRS.Party.Sender.TravelAgencySender.AgencyID, 'AG1');

      const revoke = await sandbox.run(['token', 'revoke', token]);
      assert.equal(revoke.code, 0, revoke.stderr);
      assert.equal(sandbox.query('select count(*) as n from access_tokens where revoked_at is not null')[0].n, 1);

      const revoked = await server.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['ABC123']), bearer(token));
      assert.equal(revoked.status, 401, revoked.text);
      assert.equal(revoked.body.OrderViewRS.Errors[0].Code, 'AUTH_INVALID');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
