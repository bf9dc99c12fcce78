/**
 * `airorder operator`: the console's operators added, listed, reset and removed. In process
 * (test/helpers/in-process-cli.ts); test/cli/* run the built program as an operator does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verifyPassword } from '../../src/console/password-hash.js';
import { ok, refused, withDatabase, useInProcessCli } from '../helpers/in-process-cli.js';

useInProcessCli();

describe('operator', () => {
  const PASSWORD = 'correct horse battery staple';
  const passwordOf = (email: string) =>
    withDatabase(async (store) => (await store.read.findOperator(email))!.passwordHash);

  test('add reads the password from standard input, without its line end; the address is kept in lower case', async () => {
    assert.equal(
      await ok(
        ['operator', 'add', '--email', ' Desk@Airline.Example ', '--name', 'Desk', '--password-stdin'],
        `${PASSWORD}\r\n`,
      ),
      'operator desk@airline.example added\n',
    );
    assert.ok(await verifyPassword(PASSWORD, await passwordOf('desk@airline.example')));
    assert.equal(
      await ok(
        ['--json', 'operator', 'add', '--email', ' Night@Airline.Example ', '--name', 'Night', '--password-stdin'],
        `${PASSWORD}\nsecond line \n\n`,
      ),
      '{"email":"night@airline.example","added":true}\n',
    );
    // Only one line end is the shell's: the rest is the password's.
    assert.ok(await verifyPassword(`${PASSWORD}\nsecond line \n`, await passwordOf('night@airline.example')));
  });

  test('a password must come on standard input', async () => {
    const line = 'error: --password-stdin is required: the password is read from standard input.\n';
    assert.equal(await refused(['operator', 'add', '--email', 'x@y.zz', '--name', 'X'], PASSWORD), line);
    assert.equal(await refused(['operator', 'password', 'desk@airline.example'], PASSWORD), line);
  });

  test('list: address, name and state, as text and JSON', async () => {
    assert.equal(
      await ok(['operator', 'list']),
      'desk@airline.example\tDesk\tactive\nnight@airline.example\tNight\tactive\n',
    );
    const [desk] = JSON.parse(await ok(['--json', 'operator', 'list']));
    assert.deepEqual(Object.keys(desk), ['email', 'name', 'disabledAt', 'createdAt']);
    assert.deepEqual([desk.email, desk.name, desk.disabledAt], ['desk@airline.example', 'Desk', null]);
  });

  test('password: changed from standard input; disable: shown as disabled since when', async () => {
    assert.equal(
      await ok(['operator', 'password', ' NIGHT@airline.example', '--password-stdin'], 'another long password\n'),
      'password of night@airline.example changed\n',
    );
    assert.ok(await verifyPassword('another long password', await passwordOf('night@airline.example')));
    assert.equal(
      await ok(['operator', 'disable', 'Night@Airline.Example ']),
      'operator night@airline.example disabled\n',
    );
    assert.match(
      await ok(['operator', 'list']),
      /^desk@airline\.example\tDesk\tactive\nnight@airline\.example\tNight\tdisabled \d{4}-\d\d-\d\dT\S+Z\n$/,
    );
  });

  test("password and disable each end that operator's sessions, and no other operator's", async () => {
    await ok(
      ['operator', 'add', '--email', 'eve@airline.example', '--name', 'Eve', '--password-stdin'],
      `${PASSWORD}\n`,
    );
    const session = (sessionHash: string, email: string) =>
      withDatabase((store) =>
        store.write((tx) =>
          tx.insertSession({ sessionHash, email, csrfToken: `csrf-${sessionHash}` }, '2026-01-01T00:00:00.000Z'),
        ),
      );
    const present = (...hashes: string[]) =>
      withDatabase(async (store) => {
        const found = await Promise.all(hashes.map((hash) => store.read.findSession(hash)));
        return hashes.filter((_, index) => found[index] !== null);
      });
    await session('eve-1', 'eve@airline.example');
    await session('desk-1', 'desk@airline.example');
    assert.deepEqual(await present('eve-1', 'desk-1'), ['eve-1', 'desk-1']);

    await ok(['operator', 'password', 'eve@airline.example', '--password-stdin'], 'yet another long password\n');
    assert.deepEqual(await present('eve-1', 'desk-1'), ['desk-1'], "eve's session ended, desk's kept");

    await session('eve-2', 'eve@airline.example');
    await ok(['operator', 'disable', 'eve@airline.example']);
    assert.deepEqual(await present('eve-2', 'desk-1'), ['desk-1'], "eve's new session ended, desk's kept");
  });

  test("actions: --limit from 1 to 10000, and only one operator's with --email", async () => {
    for (const limit of ['0', '10001', '1.5', 'x', '-1'])
      assert.equal(
        await refused(['operator', 'actions', '--limit', limit]),
        'error: --limit must be a whole number from 1 to 10000.\n',
        limit,
      );
    assert.equal(await ok(['operator', 'actions', '--limit', '10000']), '[]\n');
    // Acts as the console records them, two operators' at three moments.
    await withDatabase((store) =>
      store.write(async (tx) => {
        await tx.insertOperatorAction(
          { email: 'desk@airline.example', action: 'sign-in', target: '-', reason: null },
          '2026-11-27T08:00:00.000Z',
        );
        await tx.insertOperatorAction(
          { email: 'night@airline.example', action: 'sign-in', target: '-', reason: null },
          '2026-11-27T09:00:00.000Z',
        );
        await tx.insertOperatorAction(
          { email: 'desk@airline.example', action: 'cancel', target: 'ORD-1', reason: 'asked' },
          '2026-11-27T10:00:00.000Z',
        );
      }),
    );
    const shown = (args: string[]) =>
      ok(['operator', 'actions', ...args]).then((text) =>
        (JSON.parse(text) as { email: string; action: string; occurredAt: string }[]).map(
          ({ email, action, occurredAt }) => `${email} ${action} ${occurredAt}`,
        ),
      );
    assert.deepEqual(await shown([]), [
      'desk@airline.example cancel 2026-11-27T10:00:00.000Z',
      'night@airline.example sign-in 2026-11-27T09:00:00.000Z',
      'desk@airline.example sign-in 2026-11-27T08:00:00.000Z',
    ]);
    assert.deepEqual(await shown(['--limit', '1']), ['desk@airline.example cancel 2026-11-27T10:00:00.000Z']);
    assert.deepEqual(await shown(['--email', ' Desk@Airline.Example']), [
      'desk@airline.example cancel 2026-11-27T10:00:00.000Z',
      'desk@airline.example sign-in 2026-11-27T08:00:00.000Z',
    ]);
  });
});
