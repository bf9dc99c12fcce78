/**
 * Issue: an import running beside live traffic does not block agencies for its whole duration.
 * On PostgreSQL an import's transaction locks only the orders it writes, so agencies acting on
 * other orders are answered while a large file is still being imported. (On SQLite an import holds
 * the single writer lock while it writes; docs/operations.md says so.)
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { asNdjson, CliSandbox, type ServeProcess } from '../helpers/cli.js';
import { bearer, cancelRQ, simpleOrder } from '../helpers/documents.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../helpers/test-database.js';

const postgres = testStoreKind() === 'postgres';
const sandbox = new CliSandbox();
let database: TestDatabase | null = null;
let server: ServeProcess | null = null;
let token = '';
const LIVE = 40;
const IMPORTED = 15_000;

before(async () => {
  if (!postgres) return;
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AGI', '--name', 'Import Travel']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AGI'])).stdout.trim();
  const live = Array.from({ length: LIVE }, (_, index) =>
    simpleOrder(
      `LIVE-${index}`,
      'AGI',
      `LIV${String(index).padStart(3, '0')}`,
      `22077${String(index).padStart(8, '0')}`,
    ),
  );
  await sandbox.ok(['orders', 'import', sandbox.write('live.ndjson', asNdjson(live))]);
  server = await sandbox.serve([], { env: { RATE_LIMIT_PER_SECOND: '0' } });
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

test(
  'agencies are answered while a large import is running',
  { skip: postgres ? false : 'PostgreSQL only: runs in the postgres group' },
  async () => {
    const big = Array.from({ length: IMPORTED }, (_, index) =>
      simpleOrder(
        `BULK-${index}`,
        'AGI',
        `B${index.toString(36).toUpperCase().padStart(6, '0')}`,
        `23${String(index).padStart(11, '0')}`,
      ),
    );
    const file = sandbox.write('bulk.ndjson', asNdjson(big));

    // What the test reads of the import from PostgreSQL itself: whether its transaction is open and has
    // written orders (it holds the records table's write lock until it ends, and no request is in flight when
    // this is read), and how many of its orders are committed (all at once, when it commits).
    const observer = new pg.Client(database!.url);
    await observer.connect();
    const importState = async (): Promise<{ writing: boolean; committed: number }> => {
      const locks =
        await observer.query(`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
      where c.relname = 'order_records' and l.mode = 'RowExclusiveLock' and l.granted and l.pid <> pg_backend_pid()`);
      const bulk = await observer.query("select count(*)::int as n from orders where order_id like 'BULK-%'");
      return { writing: locks.rows[0].n > 0, committed: bulk.rows[0].n };
    };
    try {
      let importDone = false;
      const importing = sandbox.run(['orders', 'import', file], { timeoutMs: 120_000 }).then((result) => {
        importDone = true;
        return result;
      });
      // Until the import is under way: its transaction has written orders, not yet visible.
      for (let state = await importState(); !state.writing; state = await importState()) {
        assert.equal(importDone, false, 'the import was seen writing before it ended');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }

      let answeredDuringImport = 0;
      for (let index = 0; index < LIVE && !importDone; index += 1) {
        const response = await server!.post(
          '/AirOrderCancel',
          cancelRQ(`LIVE-${index}`, [`LIV${String(index).padStart(3, '0')}`]),
          bearer(token),
        );
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.OrderViewRS.Response[0].Status, 'SUCCESS');
        // Answered while the import's transaction was still open and none of its orders committed.
        const state = await importState();
        if (state.writing && state.committed === 0) answeredDuringImport += 1;
      }
      const imported = await importing;
      assert.equal(imported.code, 0, imported.stderr);
      assert.deepEqual(JSON.parse(imported.stdout), { imported: IMPORTED, replaced: 0 });
      assert.equal((await importState()).committed, IMPORTED);
      // Requests were answered before the import committed: it did not hold them back.
      assert.ok(
        answeredDuringImport >= 5,
        `only ${answeredDuringImport} requests were answered while the import's transaction was open`,
      );
    } finally {
      await observer.end();
    }
  },
);
