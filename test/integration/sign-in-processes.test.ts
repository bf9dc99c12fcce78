/**
 * The sign-in limits across processes: two `airorder serve` processes on one store (the one
 * TEST_STORE names) count attempts sent to both at once as one count, so no more are checked than
 * one process alone would check. What was checked is read from the answers: a wrong password that
 * was checked is 401, an attempt refused unchecked is 429.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import { openStoreAt } from '../helpers/cancel-race.js';
import { CliSandbox, type ServeProcess } from '../helpers/cli.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { repeated, signInAtOnce } from '../helpers/sign-in-burst.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const sandbox = new CliSandbox();
let database: TestDatabase;
let one: ServeProcess;
let two: ServeProcess;
const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['operator', 'add', '--email', EMAIL, '--name', 'Dana Desk', '--password-stdin'], {
    stdin: PASSWORD,
  });
  one = await sandbox.serve();
  two = await sandbox.serve();
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

/** The store as the processes share it, for what the tests read of its state and reset between them. */
async function onStore<T>(work: (store: ReturnType<typeof openStoreAt>) => Promise<T>): Promise<T> {
  const store = openStoreAt(database.url);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** pino's error level and above, in a process's JSON lines. */
function errorLines(server: ServeProcess): string[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{') && Number(JSON.parse(line).level) >= 50);
}

// A limited or wrong sign-in is the client's mistake: neither process may log it as an error.
afterEach(() => {
  for (const server of [one, two]) assert.deepEqual(errorLines(server), [], server.baseUrl);
});

// Every attempt comes from loopback: one test's attempts must not limit the next.
beforeEach(async () => {
  await onStore((store) => runSql(store.db, 'delete from operator_sign_in_attempts', []));
});

test('40 wrong passwords for one email sent at once to two processes: 5 checked (401), 35 refused (429), and the right password afterwards 429 on both', async () => {
  assert.equal(
    (await new ConsoleClient(one.baseUrl).signIn(EMAIL, PASSWORD)).status,
    303,
    'the right password, before',
  );
  const tally = await signInAtOnce(
    [one.baseUrl, two.baseUrl],
    repeated(40, { email: EMAIL, password: 'wrong password!' }),
  );
  assert.deepEqual(tally, { 401: 5, 429: 35 });
  const counted = await onStore((store) =>
    runSql<{ attempts: number | string }>(
      store.db,
      'select attempts from operator_sign_in_attempts where attempt_key = ?',
      [`email:${EMAIL}`],
    ),
  );
  assert.deepEqual(
    counted.map((row) => Number(row.attempts)),
    [5],
    'the five checked stay counted, whichever process took them; the 35 refused count against nothing',
  );
  for (const server of [one, two]) {
    const answer = await new ConsoleClient(server.baseUrl).signIn(EMAIL, PASSWORD);
    assert.equal(answer.status, 429, server.baseUrl);
    assert.match(answer.text, /Too many failed sign-ins/);
  }
});

test('40 emails tried at once from one address, on two processes: 20 checked (401), 20 refused (429), then the right password 429', async () => {
  const attempts = Array.from({ length: 40 }, (_, index) => ({
    email: `guess${index}@airline.example`,
    password: 'wrong password!',
  }));
  assert.deepEqual(await signInAtOnce([one.baseUrl, two.baseUrl], attempts), { 401: 20, 429: 20 });
  assert.equal(
    (await new ConsoleClient(two.baseUrl).signIn(EMAIL, PASSWORD)).status,
    429,
    'the address is limited, even for an email with no failure',
  );
});
