/**
 * How every CLI command but `serve` reaches its database (src/cli/with-store.ts), in this process on
 * a fresh database of the store this run is about: which DATABASE_URL wins, a schema brought up to date before the work, the
 * work's answer, and the store closed afterwards whether the work succeeded or failed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { configFrom, databaseReady, withStore } from '../../src/cli/with-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, TEST_DATABASE_ENV } from '../helpers/test-database.js';
import { formerDatabase } from '../helpers/former-schema.js';

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-with-store-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh, empty database for the test (TEST_STORE), dropped after it. */
async function freshDatabase(t: TestContext): Promise<string> {
  const database = await createTestDatabase(tempDir(t));
  t.after(() => database.drop());
  return database.url;
}

/** Runs `work` with DATABASE_URL set to `url` (or unset), as the CLI's environment. */
function withEnvUrl<T>(url: string | undefined, work: () => T): T {
  const before = process.env.DATABASE_URL;
  if (url === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = url;
  try {
    return work();
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  }
}

test('--database-url wins over DATABASE_URL; without it, or empty, the environment is read', () => {
  withEnvUrl('sqlite:/from/env.db', () => {
    assert.equal(configFrom({ databaseUrl: 'sqlite:/from/flag.db' }).databaseUrl, 'sqlite:/from/flag.db');
    assert.equal(configFrom({}).databaseUrl, 'sqlite:/from/env.db');
    assert.equal(configFrom({ databaseUrl: '' }).databaseUrl, 'sqlite:/from/env.db');
  });
});

test("a command's own settings are read with the rest, and the flag's URL still wins", () => {
  withEnvUrl('sqlite:/from/env.db', () => {
    const config = configFrom({ databaseUrl: 'sqlite:/from/flag.db' }, { PORT: '9123', HOST: '0.0.0.0' });
    assert.equal(config.port, 9123);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.databaseUrl, 'sqlite:/from/flag.db');
    assert.equal(configFrom({}, { DATABASE_URL: 'sqlite:/from/extra.db' }).databaseUrl, 'sqlite:/from/extra.db');
  });
});

test('a bad setting is the configuration error it is', () => {
  withEnvUrl(undefined, () => {
    assert.throws(() => configFrom({ databaseUrl: 'mysql://x' }), ConfigError);
    assert.throws(() => configFrom({}, { PORT: 'eighty' }), ConfigError);
  });
});

test('a database that exists is ready as it is: nothing said on standard error', async (t) => {
  const url = await freshDatabase(t);
  const written: unknown[] = [];
  t.mock.method(process.stderr, 'write', (text: unknown) => written.push(text) > 0);
  await databaseReady(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: url }));
  t.mock.restoreAll();
  assert.deepEqual(written, []);
});

test("on a new database: migrated before the work, the work's answer returned, the store closed after", async (t) => {
  const url = await freshDatabase(t);
  let used: Store | null = null;
  const answer = await withStore({ databaseUrl: url }, async (store) => {
    used = store;
    // Tables the migrations make: the schema is there before the work runs.
    return { agency: await store.read.findAgency('NONE'), tokens: await store.read.listAgencyTokens('NONE') };
  });
  assert.deepEqual(answer, { agency: null, tokens: [] });
  await assert.rejects(async () => used!.ping(), /destroyed|after calling end/);
});

test('work that fails: its error as it is, and the store closed all the same', async (t) => {
  const fault = new Error('the work failed');
  let used: Store | null = null;
  await assert.rejects(
    withStore({ databaseUrl: await freshDatabase(t) }, async (store) => {
      used = store;
      throw fault;
    }),
    (error) => error === fault,
  );
  await assert.rejects(async () => used!.ping(), /destroyed|after calling end/);
});

test("an upgrade that copies orders: its bar on a terminal, ended before the work's output", async (t) => {
  const url = await freshDatabase(t);
  await formerDatabase(url);
  const written: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(process, 'stderr')!;
  const terminal = { isTTY: true, write: (text: string) => written.push(text) > 0 };
  Object.defineProperty(process, 'stderr', { configurable: true, get: () => terminal });
  try {
    const order = await withStore({ databaseUrl: url }, (store) => store.read.loadOrder('ORD-1'));
    assert.equal(order?.orderId, 'ORD-1');
  } finally {
    Object.defineProperty(process, 'stderr', descriptor);
  }
  assert.ok(written.length >= 2, JSON.stringify(written));
  assert.match(written.at(-2)!, /^\r\[#{24}\] 100% upgrade: orders copied into records: 1 of 1, ETA /);
  assert.equal(written.at(-1), '\n');
});
