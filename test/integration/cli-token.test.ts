/**
 * `airorder token`: issue, list and revoke, as an operator reads them. In process (test/helpers/in-
 * process-cli.ts); test/cli/* run the built program as an operator does.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { issueToken } from '../../src/service/agency-admin.js';
import { openStore } from '../../src/store/open-store.js';
import { loadConfig } from '../../src/config.js';
import { database, ok, refused, withDatabase, useInProcessCli } from '../helpers/in-process-cli.js';
import { TEST_DATABASE_ENV } from '../helpers/test-database.js';

useInProcessCli();

describe('token', () => {
  before(async () => {
    await ok(['agency', 'add', '--agency-id', 'TOKAG', '--name', 'Tokens']);
  });

  test('issue prints the token alone; --json the token, its id and expiry', async () => {
    assert.match(await ok(['token', 'issue', '--agency-id', 'TOKAG']), /^aot_[A-Za-z0-9_-]{20,}\n$/);
    const issued = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG', '--expires-in', '90d']));
    assert.deepEqual(Object.keys(issued).sort(), ['expiresAt', 'token', 'tokenId']);
    assert.match(issued.tokenId, /^tok_[0-9a-f]{16}$/);
    const lifetime = Date.parse(issued.expiresAt) - Date.now();
    assert.ok(lifetime > 89 * 86_400_000 && lifetime <= 90 * 86_400_000, issued.expiresAt);
    assert.equal(
      await refused(['token', 'issue', '--agency-id', 'NOAG']),
      'error: No agency NOAG; create it first with: airorder agency add --agency-id NOAG --name NAME\n',
    );
  });

  test("the store keeps the token's SHA-256 digest in hexadecimal, never the token", async () => {
    const issued = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG']));
    const rows = await withDatabase(
      async (store) =>
        (
          await sql<Record<string, unknown>>`select * from access_tokens where token_id = ${issued.tokenId}`.execute(
            store.db,
          )
        ).rows,
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.token_hash, createHash('sha256').update(issued.token, 'utf8').digest('hex'));
    assert.equal(
      Object.values(rows[0]!).some((value) => String(value).includes(issued.token)),
      false,
    );
  });

  test('list: a header and a line per token, oldest first, with its status; --json the same fields', async () => {
    await ok(['agency', 'add', '--agency-id', 'LISTAG', '--name', 'Listed']);
    const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
    let expired: string;
    let active: string;
    let lasting: string;
    const LASTING_MS = 100 * 365 * 86_400_000;
    const lastingUntil = new Date(Date.parse('2020-01-03T00:00:00.000Z') + LASTING_MS).toISOString();
    try {
      const past = () => '2020-01-01T00:00:00.000Z';
      expired = (await issueToken(store, past, 'LISTAG', 60_000)).tokenId;
      active = (await issueToken(store, () => '2020-01-02T00:00:00.000Z', 'LISTAG', null)).tokenId;
      // Expires in a hundred years: active until then.
      lasting = (await issueToken(store, () => '2020-01-03T00:00:00.000Z', 'LISTAG', LASTING_MS)).tokenId;
    } finally {
      await store.close();
    }
    const revoked = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'LISTAG'])).tokenId;
    assert.equal(await ok(['token', 'revoke', revoked]), `token ${revoked} revoked\n`);

    const lines = (await ok(['token', 'list', '--agency-id', 'LISTAG'])).split('\n');
    assert.equal(lines[0], 'TOKEN ID\tSTATUS\tCREATED\tEXPIRES\tLAST USED\tREVOKED');
    assert.equal(lines[1], `${expired}\texpired\t2020-01-01T00:00:00.000Z\t2020-01-01T00:01:00.000Z\tnever\t-`);
    assert.equal(lines[2], `${active}\tactive\t2020-01-02T00:00:00.000Z\tnever\tnever\t-`);
    assert.equal(lines[3], `${lasting}\tactive\t2020-01-03T00:00:00.000Z\t${lastingUntil}\tnever\t-`);
    assert.match(lines[4]!, new RegExp(`^${revoked}\\trevoked\\t\\S+Z\\tnever\\tnever\\t\\S+Z$`));
    assert.deepEqual(lines.slice(5), ['']);

    const json = JSON.parse(await ok(['--json', 'token', 'list', '--agency-id', 'LISTAG']));
    assert.deepEqual(json[0], {
      tokenId: expired,
      status: 'expired',
      createdAt: '2020-01-01T00:00:00.000Z',
      expiresAt: '2020-01-01T00:01:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
    });
    assert.deepEqual(json[1].status, 'active');
    assert.deepEqual([json[2].tokenId, json[2].status], [lasting, 'active']);
    assert.deepEqual([json[3].tokenId, json[3].status, json.length], [revoked, 'revoked', 4]);
    assert.match(json[3].revokedAt, /Z$/);
    assert.equal(await refused(['token', 'list', '--agency-id', 'NOBODY']), 'error: No agency NOBODY.\n');
    await ok(['agency', 'add', '--agency-id', 'NOTOKENS', '--name', 'n']);
    assert.equal(
      await ok(['token', 'list', '--agency-id', 'NOTOKENS']),
      'TOKEN ID\tSTATUS\tCREATED\tEXPIRES\tLAST USED\tREVOKED\n',
    );
    assert.equal(await ok(['--json', 'token', 'list', '--agency-id', 'NOTOKENS']), '[]\n');
  });

  test('revoke by the token itself, as an argument or on standard input; --json says when', async () => {
    const byArgument = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG']));
    assert.equal(await ok(['token', 'revoke', byArgument.token]), `token ${byArgument.tokenId} revoked\n`);
    const byStdin = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG']));
    const answer = JSON.parse(await ok(['--json', 'token', 'revoke', '--token-stdin'], `  ${byStdin.token}\n`));
    assert.deepEqual(Object.keys(answer), ['tokenId', 'revoked', 'revokedAt']);
    assert.equal(answer.tokenId, byStdin.tokenId);
    assert.equal(answer.revoked, true);
    assert.match(answer.revokedAt, /^\d{4}-\d\d-\d\dT.*Z$/);
  });

  test('a token revoked again stays revoked from the first time: the second revoke says when that was', async (t) => {
    const issued = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG']));
    const first = '2026-11-27T09:00:00.000Z';
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse(first) });
    assert.equal(JSON.parse(await ok(['--json', 'token', 'revoke', issued.tokenId])).revokedAt, first);
    t.mock.timers.tick(60_000);
    assert.deepEqual(JSON.parse(await ok(['--json', 'token', 'revoke', issued.tokenId])), {
      tokenId: issued.tokenId,
      revoked: true,
      revokedAt: first,
    });
  });

  test('a token is expired from the instant its expiry comes, not a millisecond later', async (t) => {
    await ok(['agency', 'add', '--agency-id', 'EDGEAG', '--name', 'Edge']);
    const issuedAt = '2026-11-27T08:00:00.000Z';
    await withDatabase((store) => issueToken(store, () => issuedAt, 'EDGEAG', 60_000));
    const status = async () => (await ok(['token', 'list', '--agency-id', 'EDGEAG'])).split('\n')[1]!.split('\t')[1];
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse(issuedAt) + 60_000 - 1 });
    assert.equal(await status(), 'active');
    t.mock.timers.tick(1);
    assert.equal(await status(), 'expired');
  });

  test('revoke: only tok_ and 16 hexadecimal digits is an id; anything else is taken for the token itself', async () => {
    assert.equal(await refused(['token', 'revoke', 'tok_0123456789abcdef']), 'error: No token tok_0123456789abcdef.\n');
    for (const notAnId of [
      'xtok_0123456789abcdef',
      'tok_0123456789abcdef0',
      'tok_0123456789abcde',
      'tok_0123456789ABCDEF',
    ])
      assert.equal(await refused(['token', 'revoke', notAnId]), 'error: No such token.\n', notAnId);
  });

  test('revoke refuses no token, two ways at once, and empty standard input, each with its line', async () => {
    assert.equal(
      await refused(['token', 'revoke']),
      'error: Name the token: airorder token revoke TOKEN_ID (tok_…, as token list prints it), or the token itself on standard input with --token-stdin.\n',
    );
    assert.equal(
      await refused(['token', 'revoke', 'tok_0123456789abcdef', '--token-stdin'], 'aot_x'),
      'error: Name the token once: a token id, or --token-stdin with the token on standard input, not both.\n',
    );
    assert.equal(
      await refused(['token', 'revoke', '--token-stdin'], ' \n'),
      'error: --token-stdin: standard input holds no token.\n',
    );
  });
});
