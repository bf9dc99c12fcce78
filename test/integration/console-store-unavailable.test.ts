/**
 * The console while its SQLite store is held by another process for longer than a request may wait
 * (another process's write lock, as a long CLI import holds it): a form that must write answers 503
 * with words saying so, an upload starts no import and leaves no file, pages that only read still
 * answer, and once the lock is let go the same form goes through. PostgreSQL's own outage, the
 * server gone under traffic, is test/integration/postgres-outage.test.ts's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { addOperator } from '../../src/console/operator-accounts.js';
import { runSql } from '../../src/store/raw-sql.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { numberedOrder } from '../helpers/big-import-files.js';
import { waitFor } from '../helpers/held-connections.js';
import { testStoreKind } from '../helpers/test-database.js';
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
  service = await startTestService({ env: { REQUEST_TIMEOUT_MS: '1000' } });
  await addOperator(service.store, () => new Date().toISOString(), {
    email: EMAIL,
    name: 'Desk One',
    password: PASSWORD,
  });
  browser = new ConsoleClient(service.baseUrl);
  assert.equal((await browser.signIn(EMAIL, PASSWORD)).status, 303);
});

after(async () => {
  await service?.close();
});

/** Another process's write transaction on the service's file, held until `release`. */
function holdWriteLock(): { release(): void } {
  const db = new Database(service.databaseUrl.slice('sqlite:'.length));
  db.exec('begin immediate');
  return {
    release: () => {
      db.exec('rollback');
      db.close();
    },
  };
}

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
    const csrf = csrfOf((await browser.request('/console/imports')).text);
    const line = numberedOrder('ORD-HELD', 'AG1');
    const form = new FormData();
    form.set('_csrf', csrf);
    form.set('kind', 'orders');
    form.set('file', new Blob([Array.from({ length: 6000 }, (_, index) => line(index)).join('\n')]), 'held.ndjson');
    const logsBefore = service.logs.length;
    const uploaded = await browser.request('/console/imports', { body: form });
    assert.equal(uploaded.status, 303, uploaded.text);
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
    const importPath = uploaded.headers.get('location')!;
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
