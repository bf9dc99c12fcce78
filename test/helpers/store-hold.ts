/**
 * Holding the store from outside the service, to have its requests wait: a second connection
 * holds the order row's lock (PostgreSQL, SELECT … FOR UPDATE) or the write lock (SQLite,
 * BEGIN IMMEDIATE), or, on PostgreSQL, the whole kept-responses table.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { testStoreKind } from './test-database.js';
import type { TestService } from './test-service.js';
import { scaled } from './time-scale.js';

export interface StoreHold {
  release(): Promise<void>;
}

/** Another client's open transaction that has run `statements`; the last one's row count. */
async function holdInTransaction(
  service: TestService,
  statements: readonly (readonly [string, unknown[]])[],
): Promise<{ hold: StoreHold; rowCount: number | null }> {
  const client = new pg.Client(service.databaseUrl);
  await client.connect();
  await client.query('begin');
  let rowCount: number | null = null;
  for (const [text, parameters] of statements) rowCount = (await client.query(text, parameters)).rowCount;
  return {
    hold: {
      release: async () => {
        await client.query('commit');
        await client.end();
      },
    },
    rowCount,
  };
}

/**
 * PostgreSQL: another client's open transaction that has run `statements` (as a request or an
 * import in flight would) and holds what they locked until released, which commits it.
 */
export async function holdAfter(service: TestService, statements: readonly string[]): Promise<StoreHold> {
  return (
    await holdInTransaction(
      service,
      statements.map((text) => [text, []] as const),
    )
  ).hold;
}

/** A request on `orderId` waits until the hold is released. */
export async function holdOrder(service: TestService, orderId: string): Promise<StoreHold> {
  if (testStoreKind() === 'postgres') {
    const { hold, rowCount } = await holdInTransaction(service, [
      ['select order_id from orders where order_id = $1 for update', [orderId]],
    ]);
    assert.equal(rowCount, 1);
    return hold;
  }
  const db = new Database(service.databaseUrl.slice('sqlite:'.length));
  db.exec('begin immediate');
  return {
    release: async () => {
      db.exec('commit');
      db.close();
    },
  };
}

/** PostgreSQL: no request can write a kept response until the hold is released. */
export async function holdKeptResponses(service: TestService): Promise<StoreHold> {
  return (await holdInTransaction(service, [['lock table idempotency_keys in exclusive mode', []]])).hold;
}

/** Until `count` of the service's requests wait for a lock (PostgreSQL shows it; SQLite gets a pause). */
export async function untilWaitingForLock(service: TestService, count = 1): Promise<void> {
  if (testStoreKind() !== 'postgres') {
    await sleep(scaled(100));
    return;
  }
  await untilSessionsWaitForLock(service.databaseUrl, count);
}

/**
 * PostgreSQL: until `count` sessions on the database wait for a lock. A client of its own: inside a
 * transaction, pg_stat_activity would keep showing what it first showed.
 */
export async function untilSessionsWaitForLock(databaseUrl: string, count: number): Promise<void> {
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    for (const deadline = Date.now() + scaled(20_000); Date.now() < deadline;) {
      const result = await client.query(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (result.rows[0].n >= count) return;
      await sleep(10);
    }
    throw new Error(`fewer than ${count} requests waited for the lock`);
  } finally {
    await client.end();
  }
}
