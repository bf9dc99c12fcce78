/**
 * A token's last use as the serving processes note it (src/http/token-uses.ts), on both stores: each
 * process writes its own batch, so an earlier use may be written after a later one, and the later
 * one must stay. Two noters on one store stand for two processes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TokenUses } from '../../src/http/token-uses.js';
import { runSql } from '../../src/store/raw-sql.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service?.close());

async function tokenIdOf(agencyId: string): Promise<string> {
  await service.tokenFor(agencyId);
  const [row] = await runSql<{ token_id: string }>(
    service.store.db,
    'select token_id from access_tokens where agency_id = ?',
    [agencyId],
  );
  return row!.token_id;
}

async function lastUseOf(tokenId: string): Promise<string | null> {
  const [row] = await runSql<{ last_used_at: string }>(
    service.store.db,
    'select last_used_at from token_last_use where token_id = ?',
    [tokenId],
  );
  return row?.last_used_at ?? null;
}

/** One process's noter: notes the use and writes it. */
async function noteAndWrite(tokenId: string, at: string): Promise<void> {
  const uses = new TokenUses(service.store, (error) => {
    throw error;
  });
  uses.used(tokenId, at);
  await uses.close();
}

test('an earlier use written after a later one leaves the later one stored', async () => {
  const tokenId = await tokenIdOf('LU1');
  await noteAndWrite(tokenId, '2026-11-25T10:00:00.000Z');
  await noteAndWrite(tokenId, '2026-11-25T09:00:00.000Z');
  assert.equal(await lastUseOf(tokenId), '2026-11-25T10:00:00.000Z');
});

test('a later use written after an earlier one replaces it', async () => {
  const tokenId = await tokenIdOf('LU2');
  await noteAndWrite(tokenId, '2026-11-25T09:00:00.000Z');
  await noteAndWrite(tokenId, '2026-11-25T10:00:00.000Z');
  assert.equal(await lastUseOf(tokenId), '2026-11-25T10:00:00.000Z');
});
