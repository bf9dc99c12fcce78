/**
 * The console while its SQLite store is held by another process for longer than a request may wait
 * (another process's write lock, as a long CLI import holds it): a form that must write answers 503
 * with words saying so, an upload starts no import and leaves no file, pages that only read still
 * answer, and once the lock is let go the same form goes through. An import whose outcome the store
 * refuses shows as running until the store takes it. PostgreSQL's own outage, the server gone under
 * traffic, is test/integration/postgres-outage.test.ts's; what an import stores when its summary is
 * refused or another process ended it, on either store, is console-import-outcome.test.ts's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { addOperator } from '../../src/console/operator-accounts.js';
import { TALLY_FLUSH_MS } from '../../src/console/request-tally.js';
import { runSql } from '../../src/store/raw-sql.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { startSignedInService } from '../helpers/console-service.js';
import { endedStatus, uploadOrders } from '../helpers/console-uploads.js';
import { waitFor } from '../helpers/held-connections.js';
import { testStoreKind } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const SQLITE = testStoreKind() === 'sqlite';
const OPTIONS = SQLITE ? {} : { skip: "SQLite's write lock: PostgreSQL's outage is postgres-outage.test.ts's" };
const EMAIL = 'desk@airline.example';
const PASSWORD = 'correct horse battery';
let service: TestService;
let browser: ConsoleClient;

before(async () => {
  if (!SQLITE) return;
  // A write waits for another process's lock as long as a request may take: here one second.
  ({ service, browser } = await startSignedInService(EMAIL, PASSWORD, { env: { REQUEST_TIMEOUT_MS: '1000' } }));
});

after(async () => {
  await service?.close();
});

/** Another process's write transaction on the service's file, held until `release`. */
function holdWriteLock(of: TestService = service): { release(): void } {
  const db = new Database(of.databaseUrl.slice('sqlite:'.length));
  db.exec('begin immediate');
  return {
    release: () => {
      db.exec('rollback');
      db.close();
    },
  };
}

const TALLY_REFUSED = 'request counts not yet added to the store; kept for the next try';
const OUTCOME_REFUSED = 'the outcome of a console import not recorded yet; trying again';

function uploadFolders(): string[] {
  return fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(`airorder-upload-${process.pid}`));
}

test(
  "the store held past a request's wait: a form answers 503 with words, an upload starts nothing, reading pages still answer",
  OPTIONS,
  async () => {
    const csrf = csrfOf((await browser.request('/console/agencies')).text);
    const lock = holdWriteLock();
    try {
      const added = await browser.request('/console/agencies', {
        form: { _csrf: csrf, agencyId: 'AG-LOCK', name: 'Locked' },
      });
      assert.equal(added.status, 503, added.text);
      assert.equal(added.headers.get('retry-after'), '1');
      assert.match(
        added.text,
        /<p class="error" role="alert">The store is not reachable at the moment; try again shortly\.<\/p>/,
      );

      const form = new FormData();
      form.set('_csrf', csrf);
      form.set('kind', 'orders');
      form.set('file', new Blob(['[]'], { type: 'application/json' }), 'orders.json');
      const uploaded = await browser.request('/console/imports', { body: form });
      assert.equal(uploaded.status, 503, uploaded.text);
      assert.deepEqual(uploadFolders(), [], 'the upload file is removed');

      assert.equal((await browser.request('/console/agencies')).status, 200, 'a page that only reads');
    } finally {
      lock.release();
    }
    assert.deepEqual(
      await runSql(service.store.db, "select agency_id from agencies where agency_id = 'AG-LOCK'", []),
      [],
    );
    assert.deepEqual(await runSql(service.store.db, 'select import_id from console_imports', []), []);
    const again = await browser.request('/console/agencies', {
      form: { _csrf: csrf, agencyId: 'AG-LOCK', name: 'Locked' },
    });
    assert.equal(again.status, 303, again.text);
    assert.equal(
      service.logs.filter((line) => Number(line.level) >= 50).length,
      0,
      'a store held by another process is no error of the service',
    );
  },
);

test(
  'the store held while an upload is imported: progress not written is a warning, the import fails with words saying so and stores nothing, and says so once the store is back',
  OPTIONS,
  async () => {
    const logsBefore = service.logs.length;
    const importPath = await uploadOrders(browser, 'ORD-HELD');
    // Held while the file is still being read: the import's writes wait a second each, then give up.
    const lock = holdWriteLock();
    try {
      await waitFor(
        () => service.logs.slice(logsBefore).some((line) => line.msg === 'store unavailable'),
        'the import to give up storing',
        60_000,
      );
    } finally {
      lock.release();
    }
    let page = '';
    await waitFor(
      () => page.includes('import-error') || page.includes('role="alert"'),
      'the import shown as failed',
      30_000,
      async () => {
        page = (await browser.request(importPath)).text;
      },
    );
    assert.match(page, /The store was not reachable; nothing was stored\. Try again shortly\./);
    const [stored] = await runSql<{ n: number | string }>(
      service.store.db,
      "select count(*) as n from order_records where order_id like 'ORD-HELD%'",
      [],
    );
    assert.equal(Number(stored!.n), 0);
    const lines = service.logs.slice(logsBefore).filter((line) => Number(line.level) >= 40);
    assert.deepEqual(
      lines.filter((line) => Number(line.level) >= 50),
      [],
      'no error of the service',
    );
    assert.ok(
      lines.some((line) => line.msg === 'import progress not written'),
      lines.map((line) => line.msg).join(', '),
    );
  },
);

test(
  'the store still held when the import would record how it ended: the import shows running, and ends failed once the store is back',
  OPTIONS,
  async () => {
    const logsBefore = service.logs.length;
    const importPath = await uploadOrders(browser, 'ORD-LATE');
    const progress = async () =>
      JSON.parse((await browser.request(`${importPath}/progress`)).text) as { status: string };
    // Held from the file's reading until the outcome's write has been refused once.
    const lock = holdWriteLock();
    try {
      await waitFor(
        () => service.logs.slice(logsBefore).some((line) => line.msg === OUTCOME_REFUSED),
        "the outcome's write to be refused",
        60_000,
      );
      assert.equal((await progress()).status, 'running', 'not shown as ended while its outcome is not stored');
    } finally {
      lock.release();
    }
    assert.equal(await endedStatus(browser, importPath), 'failed', 'the outcome written once the store is back');
    assert.match((await browser.request(importPath)).text, /The store was not reachable; nothing was stored\./);
    assert.deepEqual(
      service.logs.slice(logsBefore).filter((line) => Number(line.level) >= 50),
      [],
      'a store held by another process is no error of the service',
    );
  },
);

test(
  'the service closing while the outcome of an import waits for the store: it closes, after one last try, logged as an error',
  OPTIONS,
  async () => {
    const own = await startTestService({ env: { REQUEST_TIMEOUT_MS: '1000' } });
    let lock: { release(): void } | null = null;
    let closed = false;
    try {
      await addOperator(own.store, () => new Date().toISOString(), {
        email: EMAIL,
        name: 'Desk One',
        password: PASSWORD,
      });
      await own.addAgency('AG1');
      const client = new ConsoleClient(own.baseUrl);
      assert.equal((await client.signIn(EMAIL, PASSWORD)).status, 303);
      const importPath = await uploadOrders(client, 'ORD-CLOSE');
      lock = holdWriteLock(own);
      await waitFor(
        () => own.logs.some((line) => line.msg === OUTCOME_REFUSED),
        "the outcome's write to be refused",
        60_000,
      );
      const [row] = await runSql<{ status: string }>(
        own.store.db,
        'select status from console_imports where import_id = ?',
        [importPath.slice(importPath.lastIndexOf('/') + 1)],
      );
      assert.equal(row!.status, 'running');
      // Not waiting for the store: closing ends however long the store is held.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        own.close(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the service did not close while the store was held')),
            scaled(30_000),
          );
        }),
      ]).finally(() => clearTimeout(timer));
      closed = true;
      assert.deepEqual(
        own.logs.filter((line) => Number(line.level) >= 50).map((line) => line.msg),
        ['the outcome of a console import could not be recorded'],
      );
    } finally {
      lock?.release();
      if (!closed) await own.close();
    }
  },
);

test(
  'request counts the held store refuses are kept: a warning at each refused flush, and every count added once the store is back',
  OPTIONS,
  async () => {
    const sum = async () =>
      Number(
        (
          await runSql<{ n: number | string | null }>(
            service.store.db,
            'select sum(requests) as n from request_counts',
            [],
          )
        )[0]!.n ?? 0,
      );
    // The console's pages are not counted: nothing is on its way to the store yet.
    assert.equal(await sum(), 0, 'no earlier test of this file calls the API');
    const logsBefore = service.logs.length;
    const lock = holdWriteLock();
    try {
      for (let request = 0; request < 3; request += 1)
        assert.equal((await service.post('/AirOrderRetrieve', {})).status, 401, 'counted, as every answer of the API');
      await waitFor(
        () => service.logs.slice(logsBefore).some((line) => line.msg === TALLY_REFUSED),
        'a flush to be refused',
        TALLY_FLUSH_MS * 3,
      );
    } finally {
      lock.release();
    }
    let after = 0;
    await waitFor(
      () => after === 3,
      'the three counts added',
      TALLY_FLUSH_MS * 3,
      async () => {
        after = await sum();
      },
    );
    assert.deepEqual(
      service.logs
        .slice(logsBefore)
        .filter((line) => Number(line.level) >= 40)
        .map((line) => [line.level, line.msg])
        .filter(([, msg]) => msg !== TALLY_REFUSED),
      [],
      'a warning, and nothing else',
    );
  },
);
