/**
 * `airorder orders import` of a 95 MB JSON array reads it as a stream: the process's peak resident
 * memory (VmHWM in /proc/PID/status, read every 20 ms while it runs) stays under 300 MB, for 95 MB of
 * `{"a":1}` (refused at the first record) and for 95 MB of valid orders (about 180,000, all stored).
 * On the store TEST_STORE names.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { numberedOrder, peakResident, smallObject, writeJsonArray } from '../helpers/big-import-files.js';
import { CliSandbox, PROJECT_ROOT } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { mutationHookOptions } from '../helpers/mutation-hook.js';
import { scaled } from '../helpers/time-scale.js';

const FILE_BYTES = 95 * 1000 * 1000;
const PEAK_LIMIT_BYTES = 300 * 1000 * 1000;

const sandbox = new CliSandbox();
let database: TestDatabase;

before(async () => {
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
});

after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

/** Runs `airorder orders import FILE`, with its peak resident memory, read while it runs. */
function importWithPeak(file: string): Promise<{ code: number | null; stderr: string; stdout: string; peak: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: sandbox.databaseUrl };
  delete env.NODE_OPTIONS;
  Object.assign(env, mutationHookOptions());
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'airorder.js'), 'orders', 'import', file], {
    cwd: sandbox.dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peak = 0;
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, peakResident(child.pid!));
    } catch {
      /* exited between two reads */
    }
  }, 20);
  const limit = setTimeout(() => child.kill('SIGKILL'), scaled(150_000));
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      clearTimeout(limit);
      child.on('close', () => resolve({ code, stderr, stdout, peak }));
    });
  });
}

test('95 MB of small objects in a JSON array: refused at the first record, the process under 300 MB', async () => {
  const file = path.join(sandbox.dir, 'small-objects.json');
  const written = await writeJsonArray(file, FILE_BYTES, smallObject);
  const result = await importWithPeak(file);
  fs.rmSync(file);
  process.stdout.write(
    `# ${written.records} small objects: peak resident memory ${(result.peak / 1e6).toFixed(1)} MB\n`,
  );
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: record 1: currency is required/);
  assert.ok(
    result.peak > 0 && result.peak < PEAK_LIMIT_BYTES,
    `peak resident memory ${(result.peak / 1e6).toFixed(1)} MB`,
  );
});

test('95 MB of valid orders in a JSON array: all stored, the process under 300 MB', async () => {
  const file = path.join(sandbox.dir, 'orders.json');
  const written = await writeJsonArray(file, FILE_BYTES, numberedOrder('CLI', 'AG1'));
  const result = await importWithPeak(file);
  fs.rmSync(file);
  process.stdout.write(`# ${written.records} orders: peak resident memory ${(result.peak / 1e6).toFixed(1)} MB\n`);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { imported: written.records, replaced: 0 });
  assert.ok(
    result.peak > 0 && result.peak < PEAK_LIMIT_BYTES,
    `peak resident memory ${(result.peak / 1e6).toFixed(1)} MB`,
  );
});
