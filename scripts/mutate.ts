/**
 * `npm run mutate`: mutation testing with StrykerJS (stryker.config.mjs, docs/testing.md "Mutation
 * testing"). Runs Stryker once per area and store, with the test files that exercise it: every area
 * on SQLite, the store's code also on a throwaway PostgreSQL cluster. MUTATE_AREAS narrows the areas
 * (comma-separated; default all); arguments go to each Stryker run. Reports land in reports/
 * (mutation-<area>-<store>.json and .html); reruns redo only the mutants whose code or tests
 * changed (Stryker's incremental mode). Ends with the score of each run and in total.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { AREAS, storesOf } from '../stryker.config.mjs';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';

/** The runs: each area on each of its stores (storesOf: the store's code on both). */
const RUNS: { area: string; store: 'sqlite' | 'postgres' }[] = Object.keys(AREAS).flatMap((area) =>
  storesOf(area).map((store) => ({ area, store })),
);

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

interface Tally {
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  ignored: number;
  errors: number;
}

/** The statuses of a run's mutants, from Stryker's JSON report (mutation-testing-report-schema). */
function tallyOf(reportFile: string): Tally | null {
  if (!fs.existsSync(reportFile)) return null;
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as {
    files: Record<string, { mutants: { status: string }[] }>;
  };
  const tally: Tally = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, ignored: 0, errors: 0 };
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      if (status === 'Killed') tally.killed += 1;
      else if (status === 'Survived') tally.survived += 1;
      else if (status === 'Timeout') tally.timeout += 1;
      else if (status === 'NoCoverage') tally.noCoverage += 1;
      else if (status === 'Ignored') tally.ignored += 1;
      else tally.errors += 1;
    }
  }
  return tally;
}

/** Stryker's mutation score: killed and timed out over every valid mutant (errors and ignored ones left out). */
function score(tally: Tally): string {
  const detected = tally.killed + tally.timeout;
  const valid = detected + tally.survived + tally.noCoverage;
  return valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)} %`;
}

function line(name: string, tally: Tally): string {
  const valid = tally.killed + tally.timeout + tally.survived + tally.noCoverage;
  return (
    `${name.padEnd(32)} ${String(valid).padStart(5)} mutants  ${String(tally.killed).padStart(5)} killed  ${String(tally.timeout).padStart(3)} timeout  ` +
    `${String(tally.survived).padStart(3)} survived  ${String(tally.noCoverage).padStart(3)} no coverage  ${score(tally)}\n`
  );
}

async function main(): Promise<number> {
  const areas = (process.env.MUTATE_AREAS ?? Object.keys(AREAS).join(','))
    .split(',')
    .map((area) => area.trim())
    .filter(Boolean);
  const unknown = areas.filter((area) => !(area in AREAS));
  if (unknown.length > 0) {
    process.stderr.write(`MUTATE_AREAS may list ${Object.keys(AREAS).join(', ')}; got ${unknown.join(', ')}\n`);
    return 2;
  }
  const runs = RUNS.filter((run) => areas.includes(run.area));
  const args = process.argv.slice(2);
  const started = Date.now();
  let exitCode = 0;
  let cluster: PostgresCluster | null = null;
  try {
    for (const { area, store } of runs) {
      process.stdout.write(`\n# === ${area}, the integration files on ${store} ===\n`);
      const env: Record<string, string> = { MUTATE_AREA: area, TEST_STORE: store };
      if (store === 'postgres') {
        cluster ??= await startPostgresCluster();
        env.TEST_POSTGRES_URL = cluster.url;
      }
      const code = await stryker(env, args);
      exitCode ||= code;
    }
  } finally {
    await cluster?.stop();
  }
  const total: Tally = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, ignored: 0, errors: 0 };
  process.stdout.write('\n# mutation score per run\n');
  for (const { area, store } of runs) {
    const tally = tallyOf(`reports/mutation-${area}-${store}.json`);
    if (!tally) continue;
    process.stdout.write(line(`${area} (${store})`, tally));
    for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
  }
  process.stdout.write(line('total', total));
  process.stdout.write(`took ${Math.round((Date.now() - started) / 60_000)} min\n`);
  return exitCode;
}

process.exitCode = await main();
