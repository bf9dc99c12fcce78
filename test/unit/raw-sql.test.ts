import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { engineSql, registerEngineSql } from '../../src/store/engine-sql.js';
import type { Executor } from '../../src/store/executor.js';
import { insertRows, registerDirectSql, runSql } from '../../src/store/raw-sql.js';
import { sqliteSql } from '../../src/store/sqlite/engine-sql.js';

/** A Kysely executor over an in-memory SQLite database, as the embedded store opens one. */
function openExecutor(): { db: Executor; connection: SqliteDatabase.Database } {
  const connection = new SqliteDatabase(':memory:');
  const db = new Kysely({ dialect: new SqliteDialect({ database: connection }) }) as unknown as Executor;
  registerEngineSql(db, sqliteSql);
  return { db, connection };
}

/** Registers a direct runner on `db` that runs on `connection` and keeps every statement it was given. */
function recordDirect(db: Executor, connection: SqliteDatabase.Database): { text: string; parameters: unknown[] }[] {
  const seen: { text: string; parameters: unknown[] }[] = [];
  registerDirectSql(db, (text, parameters) => {
    seen.push({ text, parameters: [...parameters] });
    const statement = connection.prepare(text);
    if (statement.reader) return statement.all(...parameters);
    statement.run(...parameters);
    return [];
  });
  return seen;
}

const columns = (width: number) => Array.from({ length: width }, (_, index) => `c${index}`);

describe('raw SQL', () => {
  test('a registered direct runner takes the statement and its values, and its rows are the answer', async () => {
    const { db, connection } = openExecutor();
    const seen = recordDirect(db, connection);
    const rows = await runSql<{ total: number }>(db, 'select ? + ? as total', [2, 3]);
    assert.deepEqual(rows, [{ total: 5 }]);
    assert.deepEqual(seen, [{ text: 'select ? + ? as total', parameters: [2, 3] }]);
    await db.destroy();
  });

  test('without a direct runner, the statement goes through the query builder to the same answer', async () => {
    const { db } = openExecutor();
    assert.deepEqual(await runSql<{ total: number }>(db, 'select ? + ? as total', [2, 3]), [{ total: 5 }]);
    await db.destroy();
  });

  test('rows that fit under the parameter limit go in one statement, their values row after row', async () => {
    const { db, connection } = openExecutor();
    connection.exec('create table t (c0, c1, c2)');
    const seen = recordDirect(db, connection);
    const rows = Array.from({ length: 10 }, (_, index) => [index, `r${index}`, index * 10]);
    await insertRows(db, 't', columns(3), rows);
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0]!.parameters, rows.flat());
    assert.deepEqual(connection.prepare('select c0, c1, c2 from t order by c0').raw().all(), rows);
    await db.destroy();
  });

  test('past 30,000 values, the rows are cut into statements of at most that many, each with only its own values', async () => {
    const { db, connection } = openExecutor();
    connection.exec('create table t (c0)');
    const seen = recordDirect(db, connection);
    const rows = Array.from({ length: 30_001 }, (_, index) => [index]);
    await insertRows(db, 't', columns(1), rows);
    assert.deepEqual(
      seen.map((statement) => statement.parameters.length),
      [30_000, 1],
    );
    assert.deepEqual(seen[1]!.parameters, [30_000]);
    assert.equal((connection.prepare('select count(*) as n from t').get() as { n: number }).n, 30_001);
    await db.destroy();
  });

  test('rows that fill their statements exactly: as many statements as needed, and no empty one after them', async () => {
    const { db, connection } = openExecutor();
    connection.exec('create table t (c0, c1)');
    const seen = recordDirect(db, connection);
    const rows = Array.from({ length: 30_000 }, (_, index) => [index, -index]);
    await insertRows(db, 't', columns(2), rows);
    assert.deepEqual(
      seen.map((statement) => statement.parameters.length),
      [30_000, 30_000],
    );
    assert.equal((connection.prepare('select count(*) as n from t').get() as { n: number }).n, 30_000);
    await db.destroy();
  });

  test('a batch whose values SQLite could not bind in one statement is inserted whole, in several', async () => {
    // 3,000 rows of 12 columns: 36,000 values, over SQLite's 32,766 in one statement.
    const { db, connection } = openExecutor();
    connection.exec(`create table t (${columns(12).join(', ')})`);
    const rows = Array.from({ length: 3_000 }, (_, index) =>
      Array.from({ length: 12 }, (__, column) => index * 12 + column),
    );
    await insertRows(db, 't', columns(12), rows);
    const stored = connection.prepare('select count(*) as n, sum(c11) as last from t').get() as {
      n: number;
      last: number;
    };
    assert.deepEqual(stored, { n: 3_000, last: rows.reduce((sum, row) => sum + row[11]!, 0) });
    await db.destroy();
  });

  test("a connection no store opened has no engine's SQL: asked for it, a programming error that says so", async () => {
    const connection = new SqliteDatabase(':memory:');
    const db = new Kysely({ dialect: new SqliteDialect({ database: connection }) }) as unknown as Executor;
    assert.throws(() => engineSql(db), {
      message: 'this connection was not opened by a store (open-store.ts)',
    });
    await db.destroy();
  });
});
