import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { bearer, cancelRQ } from '../helpers/documents.js';

const sandbox = new CliSandbox();
before(async () => {
  await sandbox.ok(['migrate']);
});
after(() => sandbox.cleanup());

const TOKEN_LINE = /^aot_[A-Za-z0-9_-]{20,}\n$/;

describe('agency add', () => {
  test('registers an agency with its IATA number and e-mail', async () => {
    const result = await sandbox.run([
      'agency',
      'add',
      '--agency-id',
      'AG1',
      '--name',
      'Agency One',
      '--iata',
      '12345678',
      '--email',
      'ops@agency-one.example',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /AG1/);
    assert.deepEqual(
      sandbox.query('select agency_id, name, iata_number, email from agencies where agency_id = ?', 'AG1'),
      [{ agency_id: 'AG1', name: 'Agency One', iata_number: '12345678', email: 'ops@agency-one.example' }],
    );
  });

  test('IATA number and e-mail are optional', async () => {
    await sandbox.ok(['agency', 'add', '--agency-id', 'AG2', '--name', 'Agency Two', '--iata', '1234567']);
    await sandbox.ok(['agency', 'add', '--agency-id', 'AG3', '--name', 'Agency Three']);
    assert.deepEqual(
      sandbox.query(
        "select agency_id, iata_number, email from agencies where agency_id in ('AG2', 'AG3') order by agency_id",
      ),
      [
        { agency_id: 'AG2', iata_number: '1234567', email: null },
        { agency_id: 'AG3', iata_number: null, email: null },
      ],
    );
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
    const result = await sandbox.run([
      'agency',
      'add',
      '--agency-id',
      'AG1',
      '--name',
      'Impostor',
      '--iata',
      '87654321',
    ]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /AG1 exists already/);
    assert.deepEqual(sandbox.query("select name, iata_number from agencies where agency_id = 'AG1'"), [
      { name: 'Agency One', iata_number: '12345678' },
    ]);
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
    const rows = sandbox.query(
      'select agency_id, token_hash, expires_at, revoked_at from access_tokens where token_hash = ?',
      createHash('sha256').update(token).digest('hex'),
    );
    assert.deepEqual(rows, [
      {
        agency_id: 'AG1',
        token_hash: createHash('sha256').update(token).digest('hex'),
        expires_at: null,
        revoked_at: null,
      },
    ]);
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

  const durations: [string, number][] = [
    ['30s', 30_000],
    ['15m', 15 * 60_000],
    ['12h', 12 * 3_600_000],
    ['90d', 90 * 86_400_000],
  ];
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

describe('tokens by id: token list and token revoke', () => {
  const TOKEN_ID = /^tok_[0-9a-f]{16}$/;

  async function issue(
    agencyId: string,
    extra: string[] = [],
  ): Promise<{ token: string; tokenId: string; expiresAt: string | null }> {
    return JSON.parse((await sandbox.ok(['--json', 'token', 'issue', '--agency-id', agencyId, ...extra])).stdout);
  }

  /** `airorder --json token list`, asserting that no secret of `secrets` is in either form of the output. */
  async function list(agencyId: string, secrets: string[]): Promise<any[]> {
    const json = await sandbox.ok(['--json', 'token', 'list', '--agency-id', agencyId]);
    const text = await sandbox.ok(['token', 'list', '--agency-id', agencyId]);
    for (const secret of secrets) {
      for (const output of [json.stdout, json.stderr, text.stdout, text.stderr]) {
        assert.equal(output.includes(secret), false, 'a secret is in the output of token list');
        assert.equal(output.includes(secret.slice(4)), false, 'a secret is in the output of token list');
      }
    }
    return JSON.parse(json.stdout);
  }

  /** Exit 1 and one line on stderr, not a stack trace. */
  function oneLineError(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `one line of error, not a stack trace:\n${result.stderr}`);
    assert.match(lines[0]!, pattern);
  }

  before(async () => {
    await sandbox.ok(['agency', 'add', '--agency-id', 'LIST1', '--name', 'Listed Agency']);
  });

  test('token list prints ids, status, creation, expiry, last use and revocation, and never a secret', async () => {
    const forever = await issue('LIST1');
    const shortLived = await issue('LIST1', ['--expires-in', '90d']);
    const doomed = await issue('LIST1');
    assert.match(forever.tokenId, TOKEN_ID);
    await sandbox.ok(['token', 'revoke', doomed.tokenId]);
    const listed = await list('LIST1', [forever.token, shortLived.token, doomed.token]);
    assert.deepEqual(
      listed.map((token) => token.tokenId).sort(),
      [forever.tokenId, shortLived.tokenId, doomed.tokenId].sort(),
    );
    for (const token of listed)
      assert.deepEqual(Object.keys(token), ['tokenId', 'status', 'createdAt', 'expiresAt', 'lastUsedAt', 'revokedAt']);
    const byId = new Map(listed.map((token) => [token.tokenId, token]));
    assert.equal(byId.get(forever.tokenId).status, 'active');
    assert.equal(byId.get(forever.tokenId).expiresAt, null);
    assert.equal(byId.get(forever.tokenId).lastUsedAt, null);
    assert.equal(byId.get(forever.tokenId).revokedAt, null);
    assert.equal(byId.get(shortLived.tokenId).expiresAt, shortLived.expiresAt);
    assert.equal(byId.get(doomed.tokenId).status, 'revoked');
    assert.ok(byId.get(doomed.tokenId).revokedAt >= byId.get(doomed.tokenId).createdAt);

    const text = (await sandbox.ok(['token', 'list', '--agency-id', 'LIST1'])).stdout.trimEnd().split('\n');
    assert.deepEqual(text[0]!.split('\t'), ['TOKEN ID', 'STATUS', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED']);
    assert.equal(text.length, 4);
    const doomedLine = text.find((line) => line.startsWith(doomed.tokenId))!.split('\t');
    assert.deepEqual([doomedLine[1], doomedLine[3], doomedLine[4]], ['revoked', 'never', 'never']);
  });

  test('token list of an unknown agency: one line, exit 1', async () => {
    oneLineError(await sandbox.run(['token', 'list', '--agency-id', 'NOBODY']), /^error: No agency NOBODY\.$/);
  });

  test('token revoke by id, by the token as argument, and by the token on standard input', async () => {
    const byId = await issue('LIST1');
    const byArgument = await issue('LIST1');
    const byStdin = await issue('LIST1');
    const one = await sandbox.run(['--json', 'token', 'revoke', byId.tokenId]);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(Object.keys(JSON.parse(one.stdout)), ['tokenId', 'revoked', 'revokedAt']);
    assert.equal(JSON.parse(one.stdout).tokenId, byId.tokenId);
    const two = await sandbox.run(['token', 'revoke', byArgument.token]);
    assert.equal(two.code, 0, two.stderr);
    assert.equal(two.stdout, `token ${byArgument.tokenId} revoked\n`);
    const three = await sandbox.run(['token', 'revoke', '--token-stdin'], { stdin: `${byStdin.token}\n` });
    assert.equal(three.code, 0, three.stderr);
    assert.equal(three.stdout, `token ${byStdin.tokenId} revoked\n`);
    assert.equal(three.stdout.includes(byStdin.token), false);
    const listed = new Map((await list('LIST1', [])).map((token) => [token.tokenId, token]));
    for (const revoked of [byId, byArgument, byStdin])
      assert.equal(listed.get(revoked.tokenId).status, 'revoked', revoked.tokenId);

    // Again: still revoked, at the first revocation's time.
    const again = await sandbox.run(['--json', 'token', 'revoke', byId.tokenId]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).revokedAt, listed.get(byId.tokenId).revokedAt);
  });

  test('an unknown id, an empty standard input, or no token at all: one line, exit 1, nothing revoked', async () => {
    const before = sandbox.query('select count(*) as n from access_tokens where revoked_at is not null')[0].n;
    oneLineError(
      await sandbox.run(['token', 'revoke', 'tok_0000000000000000']),
      /^error: No token tok_0000000000000000\.$/,
    );
    oneLineError(
      await sandbox.run(['token', 'revoke', '--token-stdin'], {
        stdin: 'aot_neverIssuedToAnyone0000000000000000000000\n',
      }),
      /^error: No such token\.$/,
    );
    oneLineError(
      await sandbox.run(['token', 'revoke', '--token-stdin'], { stdin: '\n' }),
      /^error: --token-stdin: standard input holds no token\.$/,
    );
    oneLineError(await sandbox.run(['token', 'revoke']), /^error: Name the token: airorder token revoke TOKEN_ID/);
    oneLineError(
      await sandbox.run(['token', 'revoke', 'tok_0000000000000000', '--token-stdin'], { stdin: 'x' }),
      /^error: Name the token once/,
    );
    assert.equal(sandbox.query('select count(*) as n from access_tokens where revoked_at is not null')[0].n, before);
  });
});
