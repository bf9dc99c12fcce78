import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import pg from 'pg';
import { CliSandbox } from '../helpers/cli.js';
import { testStoreKind } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * `airorder migrate` and `serve` on a server where the configured database does not exist yet: they
 * create it when the role may, and otherwise say in one line what an administrator runs, exit 1.
 */
const POSTGRES = testStoreKind() === 'postgres';
const OPTIONS = POSTGRES ? { timeout: scaled(120_000) } : { skip: 'PostgreSQL only: runs in the postgres group' };

const suffix = randomBytes(4).toString('hex');
const databases: string[] = [];
const roles: string[] = [];
const sandbox = new CliSandbox();

function adminUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url)
    throw new Error(
      'TEST_STORE=postgres needs TEST_POSTGRES_URL: run the tests through npm test (scripts/run-tests.ts)',
    );
  return url;
}

async function asAdmin(sqlText: string): Promise<void> {
  const client = new pg.Client(adminUrl());
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

/** The admin URL's server, as ROLE (with PASSWORD), on DATABASE; the database is dropped after the file. */
function urlOf(database: string, role?: { name: string; password: string }): string {
  databases.push(database);
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  if (role) {
    url.username = role.name;
    url.password = role.password;
  }
  return url.toString();
}

after(async () => {
  await sandbox.cleanup();
  if (!POSTGRES) return;
  for (const database of databases) await asAdmin(`drop database if exists ${database} with (force)`);
  for (const role of roles) await asAdmin(`drop role if exists ${role}`);
});

test('migrate on a server without the database creates it (the role may) and migrates it', OPTIONS, async () => {
  sandbox.useDatabase(urlOf(`fresh_${suffix}`));
  const first = await sandbox.run(['migrate']);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(
    first.stderr,
    `database "fresh_${suffix}" created on 127.0.0.1:${new URL(adminUrl()).port}, owned by role "${new URL(adminUrl()).username}"\n`,
  );
  assert.match(first.stdout, /^Up 001-initial-schema\n(Up [0-9]{3}-[a-z-]+\n)+$/);
  const again = await sandbox.run(['migrate']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stderr, '', 'it exists now: nothing said');
  assert.equal(again.stdout, 'nothing to do\n');
});

test('serve on a server without the database creates it and serves', OPTIONS, async () => {
  sandbox.useDatabase(urlOf(`served_${suffix}`));
  const server = await sandbox.serve();
  try {
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
    assert.match(server.stderr(), new RegExp(`database "served_${suffix}" created on `));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

test(
  'a role that may not create databases: one line naming the database and the SQL to run, exit 1; then it works',
  OPTIONS,
  async () => {
    const role = { name: `limited_${suffix}`, password: `pw-${randomBytes(8).toString('hex')}` };
    await asAdmin(`create role ${role.name} login password '${role.password}'`);
    roles.push(role.name);
    const database = `owned_${suffix}`;
    sandbox.useDatabase(urlOf(database, role));
    const expected =
      `error: database "${database}" does not exist on 127.0.0.1:${new URL(adminUrl()).port}, and role "${role.name}" may not create it; ` +
      `have an administrator run: CREATE DATABASE "${database}" OWNER "${role.name}"; then run this again.\n`;

    const migrate = await sandbox.run(['migrate']);
    assert.equal(migrate.code, 1, migrate.stdout);
    assert.equal(migrate.stderr, expected, 'one line, no stack trace');
    assert.equal(migrate.stdout, '');

    const serve = await sandbox.run(['serve', '--port', '0']);
    assert.equal(serve.code, 1, serve.stdout);
    assert.equal(serve.stderr, expected);

    for (const output of [migrate, serve])
      assert.equal(`${output.stdout}${output.stderr}`.includes(role.password), false, 'never the password');

    await asAdmin(`CREATE DATABASE "${database}" OWNER "${role.name}"`);
    const done = await sandbox.run(['migrate']);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /^Up 001-initial-schema\n/);
    await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  },
);
