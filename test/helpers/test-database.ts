import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { scaled } from './time-scale.js';

export type TestStoreKind = 'sqlite' | 'postgres';

/** The store this test process runs on: TEST_STORE, set by scripts/run-tests.ts (default sqlite). */
export function testStoreKind(): TestStoreKind {
  const kind = process.env.TEST_STORE ?? 'sqlite';
  if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`TEST_STORE must be sqlite or postgres, got ${kind}`);
  return kind;
}

/**
 * Settings every test store and service runs with, unless a test sets its own: the time allowed to
 * open a PostgreSQL connection, generous and scaled by TEST_TIME_SCALE (docs/testing.md). The
 * service's default (2 s) is for a database on a machine of its own; on a loaded 2-core runner
 * that starts a backend for several test files at once, opening one has taken longer. The tests
 * of the time-out itself set theirs.
 */
export const TEST_DATABASE_ENV: Readonly<Record<string, string>> = {
  DATABASE_CONNECT_TIMEOUT_MS: String(scaled(15_000)),
};

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test service: an SQLite file in `dir`, or a new database in the
 * throwaway PostgreSQL cluster that the test runner started (TEST_POSTGRES_URL).
 */
export async function createTestDatabase(dir: string, kind: TestStoreKind = testStoreKind()): Promise<TestDatabase> {
  if (kind === 'sqlite') return { url: `sqlite:${path.join(dir, 'airorder.db')}`, drop: async () => {} };
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl)
    throw new Error(
      'TEST_STORE=postgres needs TEST_POSTGRES_URL: run the tests through npm test (scripts/run-tests.ts)',
    );
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client(adminUrl);
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
