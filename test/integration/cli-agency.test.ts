/**
 * `airorder agency add`: its line, its JSON, and each field's refusal. In process (test/helpers/in-
 * process-cli.ts); test/cli/* run the built program as an operator does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { loadConfig } from '../../src/config.js';
import { database, ok, refused, useInProcessCli } from '../helpers/in-process-cli.js';
import { TEST_DATABASE_ENV } from '../helpers/test-database.js';

useInProcessCli();

describe('agency add', () => {
  test('adds an agency and says so; with --json, as an object', async () => {
    assert.equal(await ok(['agency', 'add', '--agency-id', 'CLI1', '--name', 'One']), 'agency CLI1 added\n');
    assert.equal(
      await ok([
        '--json',
        'agency',
        'add',
        '--agency-id',
        'CLI2',
        '--name',
        'Two',
        '--iata',
        '1234567',
        '--email',
        'ops.desk@agency-two.example',
      ]),
      '{\n  "agencyId": "CLI2",\n  "added": true\n}\n',
    );
    const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
    try {
      const one = await store.read.findAgency('CLI1');
      const two = await store.read.findAgency('CLI2');
      assert.deepEqual([one?.name, one?.iataNumber, one?.email], ['One', null, null]);
      assert.deepEqual([two?.name, two?.iataNumber, two?.email], ['Two', '1234567', 'ops.desk@agency-two.example']);
      await ok(['agency', 'add', '--agency-id', 'CLI3', '--name', 'Three', '--email', 'a@b.cd']);
    } finally {
      await store.close();
    }
  });

  test('an agency id of 1 and of 64 characters; an agency that exists already is refused', async () => {
    await ok(['agency', 'add', '--agency-id', 'X', '--name', 'n']);
    await ok(['agency', 'add', '--agency-id', `Y${' '.repeat(62)}Y`, '--name', 'n']);
    assert.equal(
      await refused(['agency', 'add', '--agency-id', 'X', '--name', 'n']),
      'error: Agency X exists already.\n',
    );
  });

  test('the bounds of each field, each refused with its own line', async () => {
    const id = 'error: --agency-id must be 1 to 64 characters without surrounding spaces.\n';
    for (const agencyId of ['', ' A', 'A ', 'Z'.repeat(65)])
      assert.equal(
        await refused(['agency', 'add', '--agency-id', agencyId, '--name', 'n']),
        id,
        JSON.stringify(agencyId),
      );
    const name = 'error: --name must be 1 to 200 characters.\n';
    assert.equal(await refused(['agency', 'add', '--agency-id', 'N1', '--name', '']), name);
    assert.equal(await refused(['agency', 'add', '--agency-id', 'N1', '--name', 'n'.repeat(201)]), name);
    await ok(['agency', 'add', '--agency-id', 'N1', '--name', 'n'.repeat(200)]);
    const iata = 'error: --iata must be 7 or 8 digits.\n';
    for (const number of ['123456', '123456789', '1234567a', 'a1234567', ''])
      assert.equal(
        await refused(['agency', 'add', '--agency-id', 'I1', '--name', 'n', '--iata', number]),
        iata,
        number,
      );
    await ok(['agency', 'add', '--agency-id', 'I8', '--name', 'n', '--iata', '12345678']);
    const email = 'error: --email must be an e-mail address.\n';
    for (const address of ['a@b', 'a b@c.d', '@b.cd', 'a@.cd', 'a@b.', 'ab.cd', 'x a@b.cd', 'a@b.cd x'])
      assert.equal(
        await refused(['agency', 'add', '--agency-id', 'E1', '--name', 'n', '--email', address]),
        email,
        address,
      );
  });
});
