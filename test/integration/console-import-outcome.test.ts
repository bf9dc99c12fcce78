/**
 * What a console import stores when its outcome cannot be written with it, on the store TEST_STORE
 * names (docs/console.md, "Imports"): the import's summary is written in the import's own
 * transaction, so a summary the database refuses leaves nothing of the file stored; and an import
 * another process ended while it read (taken for gone) stores nothing, and keeps that process's words.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { startSignedInService } from '../helpers/console-service.js';
import { endedStatus, uploadOrders } from '../helpers/console-uploads.js';
import { waitFor } from '../helpers/held-connections.js';
import { testStoreKind } from '../helpers/test-database.js';
import type { TestService } from '../helpers/test-service.js';

const EMAIL = 'desk@airline.example';
const PASSWORD = 'correct horse battery';
let service: TestService;
let browser: ConsoleClient;

before(async () => {
  ({ service, browser } = await startSignedInService(EMAIL, PASSWORD));
});

after(async () => {
  await service?.close();
});

/** SQL that makes the database itself refuse any write of an import's summary, and SQL that undoes it. */
const REFUSE_SUMMARY =
  testStoreKind() === 'sqlite'
    ? {
        create: [
          "create trigger refuse_summary before update of summary on console_imports when new.summary is not null begin select raise(abort, 'refused by the test'); end",
        ],
        drop: ['drop trigger refuse_summary'],
      }
    : {
        create: [
          "create function refuse_summary() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$",
          'create trigger refuse_summary before update of summary on console_imports for each row when (new.summary is not null) execute function refuse_summary()',
        ],
        drop: ['drop trigger refuse_summary on console_imports', 'drop function refuse_summary()'],
      };

async function storedOrders(prefix: string): Promise<number> {
  const [row] = await runSql<{ n: number | string }>(
    service.store.db,
    'select count(*) as n from order_records where order_id like ?',
    [`${prefix}%`],
  );
  return Number(row!.n);
}

test("an import's summary the database refuses: the import fails, and nothing of its file is stored", async () => {
  for (const statement of REFUSE_SUMMARY.create) await runSql(service.store.db, statement, []);
  try {
    const logsBefore = service.logs.length;
    const importPath = await uploadOrders(browser, 'ORD-ATOM');
    assert.equal(await endedStatus(browser, importPath), 'failed');
    assert.equal(await storedOrders('ORD-ATOM'), 0, 'no order of the file is stored without its summary');
    assert.ok(
      service.logs.slice(logsBefore).some((line) => line.msg === 'console import failed'),
      'the refusal is logged',
    );
  } finally {
    for (const statement of REFUSE_SUMMARY.drop) await runSql(service.store.db, statement, []);
  }
  // The same file once the database takes summaries again: stored whole, so the refusal alone stopped it.
  const importPath = await uploadOrders(browser, 'ORD-ATOM');
  assert.equal(await endedStatus(browser, importPath), 'done');
  assert.equal(await storedOrders('ORD-ATOM'), 6000);
});

test('an import ended by another process while it reads (taken for gone) stores nothing, and keeps the words that process wrote', async () => {
  const logsBefore = service.logs.length;
  const importPath = await uploadOrders(browser, 'ORD-GONE');
  const importId = importPath.slice(importPath.lastIndexOf('/') + 1);
  // As another process does when it takes this one for gone (settleInterrupted).
  await runSql(service.store.db, "update console_imports set status = 'failed', error = ? where import_id = ?", [
    'Interrupted elsewhere.',
    importId,
  ]);
  await waitFor(
    () => service.logs.slice(logsBefore).some((line) => line.msg === 'console import failed'),
    'the import to give up',
    60_000,
  );
  assert.equal(await storedOrders('ORD-GONE'), 0, 'nothing stored under an import shown as failed');
  const [row] = await runSql<{ status: string; error: string }>(
    service.store.db,
    'select status, error from console_imports where import_id = ?',
    [importId],
  );
  assert.deepEqual({ ...row }, { status: 'failed', error: 'Interrupted elsewhere.' });
});
