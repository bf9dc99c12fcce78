/**
 * The console imports' rows as the store keeps them, in process on the store TEST_STORE names
 * (src/store/repositories/console-imports-repository.ts): a running import's progress and outcome
 * are written field by field, what an update leaves out stays as it was, and an import that has
 * ended is never written again. A mistake here would leave an upload "running" for as long as its
 * process retries its outcome; these checks answer in a second what the console's files would
 * only show after waiting for an import to end.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ConsoleImport } from '../../src/store/repositories/console-imports-repository.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;

before(async () => {
  service = await startTestService();
});
after(() => service?.close());

const STARTED = '2026-12-01T08:00:00.000Z';
let counter = 0;

async function started(): Promise<string> {
  const importId = `imp-${++counter}`;
  await service.store.write((tx) =>
    tx.insertConsoleImport(
      { importId, kind: 'orders', fileName: 'orders.ndjson', operatorEmail: 'desk@airline.example', runner: 'h:1' },
      STARTED,
    ),
  );
  return importId;
}

/** The row `started` leaves: running, reading, nothing counted, written once at STARTED. */
function fresh(importId: string): ConsoleImport {
  return {
    importId,
    kind: 'orders',
    fileName: 'orders.ndjson',
    operatorEmail: 'desk@airline.example',
    runner: 'h:1',
    status: 'running',
    phase: 'reading',
    recordsRead: 0,
    recordsStored: 0,
    recordsTotal: null,
    summary: null,
    error: null,
    startedAt: STARTED,
    updatedAt: STARTED,
  };
}

async function row(importId: string): Promise<ConsoleImport> {
  const found = await service.store.read.findConsoleImport(importId);
  assert.ok(found, `import ${importId} is stored`);
  return found;
}

test('a new import is running, reading, with nothing counted', async () => {
  const importId = await started();
  assert.deepEqual(await row(importId), fresh(importId));
});

test("a running import's update writes each field it names, and leaves the others as they were", async () => {
  const importId = await started();
  const first = '2026-12-01T08:00:05.000Z';
  assert.equal(
    await service.store.write((tx) =>
      tx.updateConsoleImport(importId, { phase: 'storing', recordsRead: 120, recordsTotal: 500 }, first),
    ),
    true,
  );
  const second = '2026-12-01T08:00:09.000Z';
  assert.equal(
    await service.store.write((tx) =>
      tx.updateConsoleImport(importId, { recordsStored: 118, summary: '{"imported":118}' }, second),
    ),
    true,
  );
  const progressed = await row(importId);
  assert.deepEqual(progressed, {
    ...fresh(importId),
    phase: 'storing',
    recordsRead: 120,
    recordsStored: 118,
    recordsTotal: 500,
    summary: '{"imported":118}',
    updatedAt: second,
  });
  const ended = '2026-12-01T08:00:10.000Z';
  assert.equal(
    await service.store.write((tx) =>
      tx.updateConsoleImport(importId, { status: 'failed', error: 'Cut short.' }, ended),
    ),
    true,
  );
  assert.deepEqual(await row(importId), { ...progressed, status: 'failed', error: 'Cut short.', updatedAt: ended });
});

test('an import that has ended is not written again: the update answers false and changes nothing', async () => {
  const importId = await started();
  const other = await started();
  await service.store.write((tx) => tx.updateConsoleImport(importId, { status: 'done' }, '2026-12-01T08:01:00.000Z'));
  const ended = await row(importId);
  for (const update of [{ status: 'failed' as const, error: 'Late.' }, { recordsRead: 9 }, { summary: '{}' }]) {
    assert.equal(
      await service.store.write((tx) => tx.updateConsoleImport(importId, update, '2026-12-01T08:02:00.000Z')),
      false,
      JSON.stringify(update),
    );
    assert.deepEqual(await row(importId), ended, JSON.stringify(update));
  }
  // Another import, still running, is written as before: the refusal is the ended one's alone.
  assert.equal(
    await service.store.write((tx) => tx.updateConsoleImport(other, { recordsRead: 3 }, '2026-12-01T08:02:00.000Z')),
    true,
  );
  assert.equal((await row(other)).recordsRead, 3);
  assert.equal(
    await service.store.write((tx) => tx.updateConsoleImport('imp-none', { recordsRead: 3 }, STARTED)),
    false,
    'an import that does not exist',
  );
});
