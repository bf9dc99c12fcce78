/**
 * `airorder orders import`, `orders show`, `changes import` and `audit`: what each prints and
 * refuses. In process (test/helpers/in-process-cli.ts); test/cli/* run the built program as an
 * operator does.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { readRecords } from '../../src/documents/document-reader.js';
import { importOrders } from '../../src/service/order-import.js';
import { preparedHere } from '../../src/service/order-preparation.js';
import { openStore } from '../../src/store/open-store.js';
import { loadConfig } from '../../src/config.js';
import { order, segment, passenger, booking, change } from '../helpers/documents.js';
import { dir, database, airorder, ok, refused, useInProcessCli } from '../helpers/in-process-cli.js';
import { TEST_DATABASE_ENV } from '../helpers/test-database.js';

useInProcessCli();

describe('orders, changes, audit', () => {
  const file = (name: string, value: unknown) => {
    const where = path.join(dir, name);
    fs.writeFileSync(where, JSON.stringify(value));
    return where;
  };
  const first = order('CLI-ORD-1', 'ORDAG', 'EUR', [
    booking(
      'CLIREF',
      [segment('S1')],
      [
        passenger('P1', {
          ticketNumber: '2201234567890',
          baseFare: '450.00',
          taxes: '120.50',
          coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
        }),
      ],
    ),
  ]);

  before(async () => {
    await ok(['agency', 'add', '--agency-id', 'ORDAG', '--name', 'Orders']);
    // Through the service: `orders import` prepares the orders on a worker thread, which loads the
    // built program (dist/), not the sources this process runs; test/cli/orders-import.test.ts runs it.
    const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
    try {
      await importOrders(
        store,
        () => new Date().toISOString(),
        preparedHere(readRecords(JSON.stringify([first])), new Date().toISOString()),
        false,
      );
    } finally {
      await store.close();
    }
  });

  test('orders show prints the order as its view; an unknown one is refused', async () => {
    const shown = JSON.parse(await ok(['orders', 'show', 'CLI-ORD-1']));
    assert.equal(shown.orderId, 'CLI-ORD-1');
    assert.equal(shown.agencyId, 'ORDAG');
    assert.equal(await refused(['orders', 'show', 'NO-SUCH']), 'error: No order NO-SUCH.\n');
  });

  test('changes import prints what it recorded; the audit trail shows the import', async () => {
    const recorded = JSON.parse(
      await ok([
        'changes',
        'import',
        file('changes.json', [change('CLI-CHG-1', 'CLI-ORD-1', 'CLIREF', ['S1'], [segment('S2', 2)])]),
      ]),
    );
    assert.equal(recorded.imported, 1);
    const trail = JSON.parse(await ok(['audit', '--order', 'CLI-ORD-1']));
    assert.ok(Array.isArray(trail) && trail.length >= 2, JSON.stringify(trail));
    assert.equal(await refused(['audit', '--order', 'NO-SUCH']), 'error: No audit events for order NO-SUCH.\n');
  });

  test('changes import from standard input', async () => {
    const recorded = JSON.parse(
      await ok(
        ['changes', 'import', '-'],
        JSON.stringify(change('CLI-CHG-2', 'CLI-ORD-1', 'CLIREF', ['S2'], [segment('S3', 3)])),
      ),
    );
    assert.equal(recorded.imported, 1);
  });

  test('changes import on a terminal: the bar of the bytes read, then the line ended', async () => {
    const changes = [change('CLI-CHG-3', 'CLI-ORD-1', 'CLIREF', ['S3'], [segment('S4', 4)])];
    const run = await airorder(['changes', 'import', file('changes-tty.json', changes)], '', { tty: true });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\r\[#{24}\] 100% changes: 1 \(\d+\/s\), ETA 0s[^\n]*\n$/);
    assert.ok(run.stderr.endsWith('ETA 0s\u001b[K\n'), JSON.stringify(run.stderr));
    const fromStdin = await airorder(['changes', 'import', '-'], JSON.stringify([]), { tty: true });
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.doesNotMatch(fromStdin.stderr, /%/);
  });

  test('a file that is not there: the system says which, in one line', async () => {
    const missing = path.join(dir, 'missing.json');
    assert.equal(
      await refused(['orders', 'import', missing]),
      `error: ENOENT: no such file or directory, stat '${missing}'\n`,
    );
    assert.match(
      await refused(['changes', 'import', missing]),
      /^error: ENOENT: no such file or directory, stat '.*missing\.json'\n$/,
    );
  });

  test('a bad record: the document error, in one line', async () => {
    const bad = await refused(['changes', 'import', file('bad.json', [{ changeId: 'X' }])]);
    assert.match(bad, /^error: [^\n]+\n$/);
    assert.doesNotMatch(bad, /unexpected/);
  });
});
