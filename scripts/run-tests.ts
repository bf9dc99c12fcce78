/**
 * Runs every test group with node's test runner: unit, CLI, e2e (the docs page in headless
 * Chromium), and the integration suite once per store. TEST_STORES narrows the stores (default
 * "sqlite,postgres"); the PostgreSQL runs start a throwaway cluster and fail, never skip, when it
 * cannot start. Each file runs in its own process with a time limit (TEST_FILE_TIMEOUT_MS, default
 * ten minutes, times TEST_TIME_SCALE): one that has not ended by then is stopped and fails, named.
 * TEST_FILES narrows the files: a comma-separated list of paths or parts of paths
 * (`test/cli/serve,test/unit/`); a group left without files is not run. Ends with one
 * "N passed, N failed" line over all groups.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';
import { fileTimeoutMs, runFiles, type Tally } from './test-file-runner.js';

const STORES = ['sqlite', 'postgres'] as const;
type StoreKind = (typeof STORES)[number];

function testFiles(folder: string, root = 'test'): string[] {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** TEST_FILES's parts of paths, or null when every file runs. */
function fileFilter(): string[] | null {
  const parts = (process.env.TEST_FILES ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.length > 0 ? parts : null;
}

const FILTER = fileFilter();

/** The files of a group that TEST_FILES selects (all of them without it). */
function selected(files: string[]): string[] {
  return FILTER ? files.filter((file) => FILTER.some((part) => file.includes(part))) : files;
}

async function runGroup(name: string, files: string[], env: Record<string, string>, timeoutMs: number): Promise<Tally> {
  const chosen = selected(files);
  if (chosen.length === 0) return { pass: 0, fail: 0, skipped: 0, exitCode: 0 };
  process.stdout.write(`\n# === ${name}: ${chosen.length} files ===\n`);
  return runFiles(chosen, { env, timeoutMs, concurrency: 2 });
}

async function main(): Promise<number> {
  const requested = (process.env.TEST_STORES ?? STORES.join(','))
    .split(',')
    .map((store) => store.trim())
    .filter(Boolean);
  const unknown = requested.filter((store) => !(STORES as readonly string[]).includes(store));
  if (unknown.length > 0) {
    process.stderr.write(`TEST_STORES may list ${STORES.join(', ')}; got ${unknown.join(', ')}\n`);
    return 2;
  }
  const stores = requested as StoreKind[];
  let timeoutMs: number;
  try {
    timeoutMs = fileTimeoutMs();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  if (
    FILTER &&
    !['unit', 'cli', 'e2e', 'integration'].some((folder) => selected(testFiles(folder)).length > 0) &&
    selected(testFiles('test', 'packages/client')).length === 0
  ) {
    process.stderr.write(`TEST_FILES selects no test file: ${FILTER.join(', ')}\n`);
    return 2;
  }
  const tallies: Tally[] = [];
  tallies.push(await runGroup('unit', testFiles('unit'), {}, timeoutMs));
  tallies.push(await runGroup('cli', testFiles('cli'), {}, timeoutMs));
  // The client package's tests start the real service themselves, on SQLite.
  tallies.push(
    await runGroup(
      'client (packages/client) on sqlite',
      testFiles('test', 'packages/client'),
      { TEST_STORE: 'sqlite' },
      timeoutMs,
    ),
  );
  tallies.push(await runGroup('e2e', testFiles('e2e'), {}, timeoutMs));

  let cluster: PostgresCluster | null = null;
  try {
    for (const store of selected(testFiles('integration')).length > 0 ? stores : []) {
      const env: Record<string, string> = { TEST_STORE: store };
      if (store === 'postgres') {
        cluster = await startPostgresCluster();
        env.TEST_POSTGRES_URL = cluster.url;
      }
      tallies.push(await runGroup(`integration on ${store}`, testFiles('integration'), env, timeoutMs));
    }
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    tallies.push({ pass: 0, fail: 1, skipped: 0, exitCode: 1 });
  } finally {
    await cluster?.stop();
  }

  const total = tallies.reduce((sum, tally) => ({
    pass: sum.pass + tally.pass,
    fail: sum.fail + tally.fail,
    skipped: sum.skipped + tally.skipped,
    exitCode: sum.exitCode || tally.exitCode,
  }));
  process.stdout.write(`\nall: ${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped\n`);
  return total.fail > 0 || total.exitCode !== 0 || total.pass === 0 ? 1 : 0;
}

process.exitCode = await main();
