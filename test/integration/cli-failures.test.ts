/**
 * How `runCli` ends a command that fails: a bad setting in one line, an unexpected failure in one
 * line or, with --verbose, where it happened; and `airorder demo`'s summary. In process
 * (test/helpers/in-process-cli.ts); test/cli/* run the built program as an operator does.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { readRecords } from '../../src/documents/document-reader.js';
import { importOrders } from '../../src/service/order-import.js';
import { preparedHere } from '../../src/service/order-preparation.js';
import { simpleOrder } from '../helpers/documents.js';
import { setStoredBookingMember } from '../helpers/stored-records.js';
import { airorder, ok, refused, sink, swapped, withDatabase, useInProcessCli } from '../helpers/in-process-cli.js';

useInProcessCli();

describe('runCli', () => {
  test('a bad DATABASE_URL is a configuration error, in one line', async () => {
    const stderr: string[] = [];
    const before = process.exitCode;
    try {
      await swapped({ stderr: sink(stderr), stdout: sink([]) }, () =>
        runCli(['node', 'airorder', '--database-url', 'mysql://x', 'orders', 'show', 'X']),
      );
      assert.equal(process.exitCode, 1);
    } finally {
      process.exitCode = before;
    }
    assert.equal(
      stderr.join(''),
      'error: DATABASE_URL must be sqlite:PATH or postgres://user:password@host:port/database, got "mysql://x".\n',
    );
  });
});

describe('demo', () => {
  test('prints the summary: the demo agency, a token, the orders and the examples', async () => {
    const summary = JSON.parse(await ok(['demo', '--orders', '2']));
    assert.equal(summary.agencyId, 'DEMO01');
    assert.match(summary.token, /^aot_/);
    assert.equal(summary.orders, 2);
    assert.equal(summary.pendingChanges, 2);
  });
});

describe('an unexpected failure', () => {
  before(async () => {
    await ok(['agency', 'add', '--agency-id', 'BROKEN', '--name', 'Broken']);
    await withDatabase(async (store) => {
      const now = () => new Date().toISOString();
      await importOrders(
        store,
        now,
        preparedHere(readRecords(JSON.stringify([simpleOrder('BROKEN-1', 'BROKEN', 'BRKREF')])), now()),
        false,
      );
      // What no import writes: a store written by hand.
      await setStoredBookingMember(store.db, 'BROKEN-1', 0, 'passengers', '"not a list"');
    });
  });

  test('one line, its first, saying to run again with --verbose', async () => {
    assert.equal(
      await refused(['orders', 'show', 'BROKEN-1']),
      'error: booking.passengers.map is not a function (unexpected: run again with --verbose to see where it happened)\n',
    );
  });

  test('with --verbose, where it happened', async () => {
    const run = await airorder(['--verbose', 'orders', 'show', 'BROKEN-1']);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /^error: TypeError: booking\.passengers\.map is not a function\n {4}at .*order-view\.ts:\d+:\d+\)\n/,
    );
    assert.doesNotMatch(run.stderr, /unexpected/);
  });
});
