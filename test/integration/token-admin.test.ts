import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { bearer, cancelRQ } from '../helpers/documents.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../helpers/test-database.js';

/**
 * Tokens by id, on the store TEST_STORE names: `token revoke` by id, by the token and from standard
 * input against a running `serve` (refused at once), and `token list` with the last use that `serve`
 * noted, never a secret.
 */
const sandbox = new CliSandbox();
let database: TestDatabase;

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'TOK1', '--name', 'Token Agency']);
});
after(async () => {
  await sandbox.cleanup();
  await database.drop();
});

async function issue(): Promise<{ token: string; tokenId: string }> {
  return JSON.parse((await sandbox.ok(['--json', 'token', 'issue', '--agency-id', 'TOK1'])).stdout);
}

test(`a token revoked by id, by itself or from standard input is refused by the running service at once, and token list shows its use (${testStoreKind()})`, async () => {
  const byId = await issue();
  const byArgument = await issue();
  const byStdin = await issue();
  const kept = await issue();
  const server = await sandbox.serve();
  let stopped = false;
  try {
    const usedFrom = new Date().toISOString();
    for (const issued of [byId, byArgument, byStdin]) {
      const answer = await server.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['ABC123']), bearer(issued.token));
      assert.equal(answer.status, 404, answer.text);
      assert.equal(answer.body.OrderViewRS.Party.Sender.TravelAgencySender.AgencyID, 'TOK1');
    }
    const usedUntil = new Date().toISOString();

    await sandbox.ok(['token', 'revoke', byId.tokenId]);
    await sandbox.ok(['token', 'revoke', byArgument.token]);
    await sandbox.ok(['token', 'revoke', '--token-stdin'], { stdin: byStdin.token });
    for (const issued of [byId, byArgument, byStdin]) {
      const refused = await server.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['ABC123']), bearer(issued.token));
      assert.equal(refused.status, 401, refused.text);
      assert.equal(refused.body.OrderViewRS.Errors[0].Code, 'AUTH_INVALID');
    }
    const still = await server.post('/AirOrderCancel', cancelRQ('ORD-NONE', ['ABC123']), bearer(kept.token));
    assert.equal(still.status, 404, 'a token not revoked keeps working');

    // serve writes the uses it noted when it stops, if not before.
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0);
    stopped = true;

    const json = await sandbox.ok(['--json', 'token', 'list', '--agency-id', 'TOK1']);
    const text = await sandbox.ok(['token', 'list', '--agency-id', 'TOK1']);
    for (const issued of [byId, byArgument, byStdin, kept]) {
      assert.equal(
        json.stdout.includes(issued.token.slice(4)),
        false,
        'a secret is in the output of token list --json',
      );
      assert.equal(text.stdout.includes(issued.token.slice(4)), false, 'a secret is in the output of token list');
    }
    const listed = new Map<string, any>(JSON.parse(json.stdout).map((token: any) => [token.tokenId, token]));
    for (const issued of [byId, byArgument, byStdin]) {
      const token = listed.get(issued.tokenId);
      assert.equal(token.status, 'revoked', issued.tokenId);
      assert.ok(
        token.lastUsedAt >= usedFrom && token.lastUsedAt <= usedUntil,
        `last use ${token.lastUsedAt} of ${issued.tokenId} is when it was used`,
      );
      assert.ok(token.revokedAt > token.lastUsedAt);
    }
    // Used after the others were, and never revoked.
    assert.equal(listed.get(kept.tokenId).status, 'active');
    assert.ok(listed.get(kept.tokenId).lastUsedAt >= usedUntil);
  } finally {
    if (!stopped) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
});

test(`an unknown id is one line and exit 1 (${testStoreKind()})`, async () => {
  const result = await sandbox.run(['token', 'revoke', 'tok_ffffffffffffffff']);
  assert.equal(result.code, 1);
  assert.equal(result.stderr, 'error: No token tok_ffffffffffffffff.\n');
});
