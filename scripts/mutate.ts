/**
 * `npm run mutate`: mutation testing with StrykerJS (stryker.config.mjs, docs/testing.md "Mutation
 * testing"). Runs Stryker once with the integration files on SQLite (every mutant of the scope),
 * then once on a throwaway PostgreSQL cluster (the order's version check only). MUTATE_STORES
 * narrows the stores (default "sqlite,postgres"); arguments after `--` go to each Stryker run
 * (e.g. `--mutate 'src/domain/**\/*.ts'`). Reports land in reports/; reruns redo only the
 * mutants whose code or tests changed (Stryker's incremental mode).
 */
import { spawn } from 'node:child_process';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';

const STORES = ['sqlite', 'postgres'];

function stryker(env: Record<string, string>, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('node_modules/.bin/stryker', ['run', 'stryker.config.mjs', ...args], {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const stores = (process.env.MUTATE_STORES ?? STORES.join(',')).split(',').map((store) => store.trim()).filter(Boolean);
  const unknown = stores.filter((store) => !STORES.includes(store));
  if (unknown.length > 0) {
    process.stderr.write(`MUTATE_STORES may list ${STORES.join(', ')}; got ${unknown.join(', ')}\n`);
    return 2;
  }
  const args = process.argv.slice(2);
  let exitCode = 0;
  for (const store of stores) {
    process.stdout.write(`\n# === mutation testing with the integration files on ${store} ===\n`);
    let cluster: PostgresCluster | null = null;
    try {
      const env: Record<string, string> = { TEST_STORE: store };
      if (store === 'postgres') {
        cluster = await startPostgresCluster();
        env.TEST_POSTGRES_URL = cluster.url;
      }
      exitCode ||= await stryker(env, args);
    } finally {
      await cluster?.stop();
    }
  }
  return exitCode;
}

process.exitCode = await main();
