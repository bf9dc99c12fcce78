/**
 * Runs every test group with node's test runner: unit, CLI, e2e (the docs page in headless
 * Chromium), and the integration suite once per store. TEST_STORES narrows the stores (default
 * "sqlite,postgres"); the PostgreSQL runs start a throwaway cluster and fail, never skip, when it
 * cannot start. Ends with one "N passed, N failed" line over all groups.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';

const STORES = ['sqlite', 'postgres'] as const;
type StoreKind = (typeof STORES)[number];

function testFiles(folder: string, root = 'test'): string[] {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((name) => name.endsWith('.test.ts')).sort().map((name) => path.join(dir, name));
}

interface Tally { pass: number; fail: number; skipped: number; exitCode: number }

function runGroup(name: string, files: string[], env: Record<string, string>): Promise<Tally> {
  process.stdout.write(`\n# === ${name}: ${files.length} files ===\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', '--test-concurrency=2', ...files], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tally: Tally = { pass: 0, fail: 0, skipped: 0, exitCode: 0 };
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^# (pass|fail|skipped) (\d+)$/.exec(line);
        if (match) tally[match[1] as 'pass' | 'fail' | 'skipped'] += Number(match[2]);
      }
    });
    child.on('close', (code) => resolve({ ...tally, exitCode: code ?? 1 }));
  });
}

async function main(): Promise<number> {
  const requested = (process.env.TEST_STORES ?? STORES.join(',')).split(',').map((store) => store.trim()).filter(Boolean);
  const unknown = requested.filter((store) => !(STORES as readonly string[]).includes(store));
  if (unknown.length > 0) {
    process.stderr.write(`TEST_STORES may list ${STORES.join(', ')}; got ${unknown.join(', ')}\n`);
    return 2;
  }
  const stores = requested as StoreKind[];
  const tallies: Tally[] = [];
  tallies.push(await runGroup('unit', testFiles('unit'), {}));
  tallies.push(await runGroup('cli', testFiles('cli'), {}));
  // The client package's tests start the real service themselves, on SQLite.
  tallies.push(await runGroup('client (packages/client) on sqlite', testFiles('test', 'packages/client'), { TEST_STORE: 'sqlite' }));
  tallies.push(await runGroup('e2e', testFiles('e2e'), {}));

  let cluster: PostgresCluster | null = null;
  try {
    for (const store of stores) {
      const env: Record<string, string> = { TEST_STORE: store };
      if (store === 'postgres') {
        cluster = await startPostgresCluster();
        env.TEST_POSTGRES_URL = cluster.url;
      }
      tallies.push(await runGroup(`integration on ${store}`, testFiles('integration'), env));
    }
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    tallies.push({ pass: 0, fail: 1, skipped: 0, exitCode: 1 });
  } finally {
    await cluster?.stop();
  }

  const total = tallies.reduce((sum, tally) => ({
    pass: sum.pass + tally.pass, fail: sum.fail + tally.fail, skipped: sum.skipped + tally.skipped,
    exitCode: sum.exitCode || tally.exitCode,
  }));
  process.stdout.write(`\nall: ${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped\n`);
  return total.fail > 0 || total.exitCode !== 0 || total.pass === 0 ? 1 : 0;
}

process.exitCode = await main();
