import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ensureDatabase, openStore } from '../../src/store/open-store.js';
import { TEST_DATABASE_ENV, testStoreKind } from '../helpers/test-database.js';

/**
 * How a DATABASE_URL that cannot be used is reported, called in process: the same lines
 * test/cli/configuration-errors.test.ts reads from the commands, and what a usable one opens.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-open-store-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const configFor = (databaseUrl: string, extra: Record<string, string> = {}) =>
  loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: databaseUrl, ...extra });

function refusal(open: () => unknown): string {
  try {
    open();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `a ConfigError, not ${String(error)}`);
    return error.message;
  }
  assert.fail('it opened');
}

describe('an SQLite DATABASE_URL', () => {
  test('a file opens, with the durability configured', async () => {
    for (const durability of ['process', 'power']) {
      const store = openStore(configFor(`sqlite:${path.join(dir, `${durability}.db`)}`, { DURABILITY: durability }));
      try {
        assert.deepEqual(store.describe(), { store: 'sqlite', durability });
      } finally {
        await store.close();
      }
    }
  });

  test('a directory is named as one', () => {
    const folder = path.join(dir, 'a-folder');
    fs.mkdirSync(folder);
    assert.equal(
      refusal(() => openStore(configFor(`sqlite:${folder}`))),
      `DATABASE_URL "sqlite:${folder}" cannot be used: ${folder} is a directory, not a database file.`,
    );
  });

  test('a file that is not a database is named with what SQLite says, and left as it was', () => {
    const file = path.join(dir, 'notes.txt');
    const notes = 'these are not the orders you are looking for\n'.repeat(20);
    fs.writeFileSync(file, notes);
    assert.equal(
      refusal(() => openStore(configFor(`sqlite:${file}`))),
      `DATABASE_URL "sqlite:${file}" cannot be used: ${file}: file is not a database.`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), notes);
  });

  test('a path under a plain file, where no folder can be made, is named with the system error', () => {
    const file = path.join(dir, 'plain-file');
    fs.writeFileSync(file, '');
    const message = refusal(() => openStore(configFor(`sqlite:${file}/x.db`)));
    assert.match(message, new RegExp(`^DATABASE_URL "sqlite:${file}/x\\.db" cannot be used: ${file}/x\\.db: E[A-Z]+`));
  });

  test('a file another process holds locked is not a mistake in the URL: its error is left as it is', () => {
    const file = path.join(dir, 'held.db');
    const holder = new SqliteDatabase(file);
    holder.exec('create table t (x); begin exclusive; insert into t values (1);');
    try {
      assert.throws(
        () => openStore(configFor(`sqlite:${file}`, { REQUEST_TIMEOUT_MS: '1000' })),
        (error: unknown) => {
          assert.ok(!(error instanceof ConfigError), `left as it is: ${String(error)}`);
          assert.match(String((error as { code?: unknown }).code), /^SQLITE_BUSY/);
          return true;
        },
      );
    } finally {
      holder.exec('rollback');
      holder.close();
    }
  });

  test('ensureDatabase has nothing to make: SQLite makes its file by itself', async () => {
    assert.equal(await ensureDatabase(configFor(`sqlite:${path.join(dir, 'later.db')}`)), null);
    assert.equal(fs.existsSync(path.join(dir, 'later.db')), false);
  });
});

describe('a PostgreSQL DATABASE_URL', () => {
  test("one whose certificate file cannot be read is refused with the system's reason, without its password", () => {
    const url = 'postgres://airorder:s3cret@db.internal/airorder?sslrootcert=/nonexistent/ca.pem';
    assert.equal(
      refusal(() => openStore(configFor(url))),
      'DATABASE_URL "postgres://airorder:***@db.internal/airorder?sslrootcert=/nonexistent/ca.pem" cannot be used: ' +
        "ENOENT: no such file or directory, open '/nonexistent/ca.pem'.",
    );
  });

  const malformed = [
    'postgres://airorder:s3cret@db.internal:notaport/airorder',
    'postgresql://airorder:s3cret@db.internal:99999/airorder',
  ];

  test('a malformed one is refused as not a valid URL, without its password, when opening or making the database', async () => {
    for (const url of malformed) {
      const expected =
        `DATABASE_URL "${url.replace(':s3cret@', ':***@')}" cannot be used: ` +
        'it is not a valid URL (the form is postgres://user:password@host:port/database).';
      assert.equal(
        refusal(() => openStore(configFor(url))),
        expected,
      );
      await assert.rejects(ensureDatabase(configFor(url)), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.message, expected);
        return true;
      });
    }
  });
});

const ON_POSTGRES = testStoreKind() === 'postgres' ? {} : { skip: 'PostgreSQL only: runs in the postgres group' };
const suffix = randomBytes(4).toString('hex');

async function asAdmin(sqlText: string): Promise<void> {
  const client = new pg.Client(process.env.TEST_POSTGRES_URL);
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

/** The test server's URL for DATABASE, as ROLE when given. */
function serverUrl(database: string, role?: string): string {
  const url = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://localhost/postgres');
  url.pathname = `/${database}`;
  if (role) {
    url.username = role;
    url.password = role;
  }
  return url.toString();
}

describe('a PostgreSQL DATABASE_URL on a server', ON_POSTGRES, () => {
  after(async () => {
    await asAdmin(`drop database if exists made_${suffix} with (force)`);
    await asAdmin(`drop role if exists plain_${suffix}`);
  });

  test('a database that is missing is made when the role may, and said so once; then it opens', async () => {
    const url = serverUrl(`made_${suffix}`);
    const said = await ensureDatabase(configFor(url));
    assert.match(said ?? '', new RegExp(`made_${suffix}`));
    assert.equal(await ensureDatabase(configFor(url)), null, 'there the second time');
    const store = openStore(configFor(url));
    try {
      assert.deepEqual(store.describe(), { store: 'postgres' });
    } finally {
      await store.close();
    }
  });

  test('a role that may not make it is told, in one line, what an administrator runs', async () => {
    await asAdmin(`create role plain_${suffix} login password 'plain_${suffix}'`);
    await assert.rejects(
      ensureDatabase(configFor(serverUrl(`never_${suffix}`, `plain_${suffix}`))),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.match(
          error.message,
          new RegExp(
            `^database "never_${suffix}" does not exist on .*, and role "plain_${suffix}" may not create it; have an administrator run: CREATE DATABASE "never_${suffix}" OWNER "plain_${suffix}"; then run this again\\.$`,
          ),
        );
        return true;
      },
    );
  });
});
