/**
 * `npm run mutate`: mutation testing with StrykerJS (stryker.config.mjs, docs/testing.md "Mutation
 * testing"). Runs Stryker once per area and store, with the test files that exercise it: every area
 * on SQLite, the store's code also on a throwaway PostgreSQL cluster. Each run is cut into chunks
 * (scripts/mutation-chunks.ts), each a Stryker run of its own, so that stopping loses at most the
 * chunk under way. MUTATE_AREAS narrows the areas (comma-separated; default all); arguments go to
 * each Stryker run. Reports land in reports/mutation/<area>-<store>/ (a .json and .html per chunk);
 * reruns redo only the mutants whose code or tests changed (Stryker's incremental mode), and a
 * chunk whose files and test files are as its last finished run left them is not run again
 * (MUTATE_FORCE=1 runs it anyway). Ends with the score of each run and in total.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { AREAS, storesOf } from '../stryker.config.mjs';
import { partialFileOf, resumeFromPartial } from './mutation-checkpoint.mjs';
import { chunksOf, type Chunk } from './mutation-chunks.js';
import { restore, saveChunk } from './mutation-results.js';
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

/**
 * The mutation score: killed and timed-out mutants over every valid one. Stryker leaves out the
 * mutants a `// Stryker disable` comment marks (ignored ones); here they count as survivors, so that
 * marking a mutant proven equivalent saves its run but never raises the score. Mutants that do not
 * compile (errors) are left out, as Stryker does.
 */
function score(tally: Tally): string {
  const detected = tally.killed + tally.timeout;
  const valid = detected + tally.survived + tally.noCoverage + tally.ignored;
  return valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)} %`;
}

function line(name: string, tally: Tally): string {
  const valid = tally.killed + tally.timeout + tally.survived + tally.noCoverage + tally.ignored;
  return (
    `${name.padEnd(48)} ${String(valid).padStart(5)} mutants  ${String(tally.killed).padStart(5)} killed  ${String(tally.timeout).padStart(3)} timeout  ` +
    `${String(tally.survived).padStart(3)} survived  ${String(tally.noCoverage).padStart(3)} no coverage  ` +
    `${String(tally.ignored).padStart(3)} marked equivalent  ${score(tally)}\n`
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
  // MUTATE_STORES=postgres runs only the store area's PostgreSQL chunks (the other areas run on SQLite).
  const stores = (process.env.MUTATE_STORES ?? 'sqlite,postgres').split(',').map((store) => store.trim());
  const unknownStores = stores.filter((store) => store !== 'sqlite' && store !== 'postgres');
  if (unknownStores.length > 0) {
    process.stderr.write(`MUTATE_STORES may list sqlite, postgres; got ${unknownStores.join(', ')}\n`);
    return 2;
  }
  const runs = RUNS.filter((run) => areas.includes(run.area) && stores.includes(run.store));
  const args = process.argv.slice(2);
  const started = Date.now();
  const chunksByRun = new Map<string, Chunk[]>();
  for (const { area, store } of runs) {
    const run = `${area}-${store}`;
    const spec = AREAS[area]!;
    const chunks = await chunksOf(
      run,
      [...spec.mutate, ...(spec.perStore?.[store]?.exclude ?? [])],
      spec.chunkMutants,
      spec.alone,
    );
    chunksByRun.set(run, chunks);
    const mutants = chunks.reduce((sum, chunk) => sum + chunk.mutants, 0);
    process.stdout.write(`# ${run}: ${mutants} mutants in ${chunks.length} chunks\n`);
    for (const [index, chunk] of chunks.entries())
      process.stdout.write(`#   ${index + 1}. ${chunk.id} (${chunk.mutants} mutants, ${chunk.files.length} files)\n`);
  }
  // MUTATE_CHUNKS=2,3 runs only those chunks (numbered from 1, as listed above) of each run: one
  // that fits the time at hand, rather than the first in line.
  const picked = (process.env.MUTATE_CHUNKS ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)
    .map(Number);
  if (picked.some((number) => !Number.isInteger(number) || number < 1)) {
    process.stderr.write(`MUTATE_CHUNKS lists chunk numbers from 1; got ${process.env.MUTATE_CHUNKS}\n`);
    return 2;
  }
  let exitCode = 0;
  let cluster: PostgresCluster | null = null;
  try {
    for (const { area, store } of runs) {
      for (const [index, chunk] of chunksByRun.get(`${area}-${store}`)!.entries()) {
        if (picked.length > 0 && !picked.includes(index + 1)) continue;
        const fingerprint = fingerprintOf(chunk, AREAS[area]!);
        const doneFile = `reports/mutation/${chunk.id}.done`;
        if (
          process.env.MUTATE_FORCE !== '1' &&
          fs.existsSync(doneFile) &&
          fs.readFileSync(doneFile, 'utf8') === fingerprint
        ) {
          process.stdout.write(`# ${chunk.id}: unchanged since its last run\n`);
          continue;
        }
        process.stdout.write(
          `\n# === ${chunk.id} (${chunk.mutants} mutants: ${chunk.files.join(', ')}), on ${store} ===\n`,
        );
        const incrementalFile = `reports/mutation/${chunk.id}.incremental.json`;
        // What reports/ holds of the chunk is newer than what git keeps; with neither, it starts from its first mutant.
        const resumed =
          resumeFromPartial(incrementalFile, fingerprint) ??
          (fs.existsSync(incrementalFile)
            ? null
            : restore(process.cwd(), `${area}-${store}`, chunk.files, incrementalFile));
        if (resumed) process.stdout.write(`# ${chunk.id}: ${resumed}\n`);
        const env: Record<string, string> = {
          MUTATE_FINGERPRINT: fingerprint,
          MUTATE_AREA: area,
          TEST_STORE: store,
          MUTATE_CHUNK: chunk.id,
          MUTATE_FILES: chunk.files.join(','),
          // Instrumented code on a machine busy with the mutants' test files runs slower than a plain
          // `npm test`: the tests wait three times longer for a state (docs/testing.md, "On a busy
          // machine"). Stryker's own time-out still ends a mutant that hangs.
          TEST_TIME_SCALE: process.env.TEST_TIME_SCALE ?? '3',
        };
        if (store === 'postgres') {
          cluster ??= await startPostgresCluster();
          env.TEST_POSTGRES_URL = cluster.url;
        }
        const sandboxes = `.stryker-tmp/${area}-${store}/`;
        const reaper = reapOrphans(sandboxes);
        const code = await stryker(env, args).finally(() => clearInterval(reaper));
        endLeftovers(sandboxes);
        if (code === 0) {
          fs.writeFileSync(doneFile, fingerprint);
          fs.rmSync(partialFileOf(incrementalFile), { force: true });
        }
        // Kept in git (test/mutation/results), whether the chunk ended or was stopped: commit them to keep them.
        process.stdout.write(`# kept: ${saveChunk(process.cwd(), `${area}-${store}`, incrementalFile)}\n`);
        if (code === 0) continue;
        // Most often the first ("dry") run of the tests failed: the area's other chunks would fail the same way.
        process.stdout.write(`# ${chunk.id}: Stryker exited with ${code}; the rest of ${area} on ${store} is left\n`);
        exitCode = code;
        break;
      }
    }
  } finally {
    await cluster?.stop();
  }
  const total: Tally = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, ignored: 0, errors: 0 };
  process.stdout.write('\n# mutation score per run (chunks not run yet left out)\n');
  for (const { area, store } of runs) {
    const run = `${area}-${store}`;
    const tally: Tally = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, ignored: 0, errors: 0 };
    let missing = 0;
    for (const chunk of chunksByRun.get(run)!) {
      const chunkTally = tallyOf(`reports/mutation/${chunk.id}.json`);
      if (!chunkTally) missing += 1;
      else for (const key of Object.keys(tally) as (keyof Tally)[]) tally[key] += chunkTally[key];
    }
    process.stdout.write(line(`${area} (${store})${missing > 0 ? ` [${missing} chunks not run]` : ''}`, tally));
    for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
  }
  process.stdout.write(line('total', total));
  process.stdout.write(`took ${Math.round((Date.now() - started) / 60_000)} min\n`);
  return exitCode;
}

/** How often the sandboxes' processes are looked at, and how long one may run on orphaned before it is ended. */
const REAP_EVERY_MS = 30_000;
const ORPHANED_FOR_MS = 60_000;

/**
 * Ends, while a chunk runs, the processes its tests left behind. When a mutant makes a test file
 * fail, Stryker kills that file's process at once, and an `airorder serve` it started is handed to
 * init (parent pid 1). Serve stops when its parent is gone, unless the mutant broke the way it stops:
 * then it runs on, often busy, and dozens of them took most of the machine before the chunk's end.
 * A process still orphaned a minute after it was first seen so is ended; one a test orphans on
 * purpose (its launcher exits, serve notices and stops) is gone within seconds.
 */
function reapOrphans(sandboxes: string): NodeJS.Timeout {
  const orphanedSince = new Map<number, number>();
  return setInterval(() => {
    const listing = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).stdout ?? '';
    const now = Date.now();
    const orphans = new Set<number>();
    for (const line of listing.split('\n')) {
      const [pid, ppid, ...args] = line.trim().split(/\s+/);
      if (ppid !== '1' || !args.join(' ').includes(sandboxes)) continue;
      orphans.add(Number(pid));
      const since = orphanedSince.get(Number(pid)) ?? now;
      orphanedSince.set(Number(pid), since);
      if (now - since < ORPHANED_FOR_MS) continue;
      try {
        process.kill(Number(pid), 'SIGKILL');
        process.stdout.write(`# ended a process orphaned for over a minute: ${args.join(' ').slice(0, 160)}\n`);
      } catch {
        // it ended meanwhile
      }
    }
    for (const pid of orphanedSince.keys()) if (!orphans.has(pid)) orphanedSince.delete(pid);
  }, REAP_EVERY_MS);
}

/**
 * Ends what a chunk's tests left running from its sandbox. Stryker kills a test file's process when a
 * mutant makes it fail or hang, and an `airorder serve` it started lives on if the mutant broke the
 * way serve stops (its signals, or how it notices that its parent is gone).
 */
function endLeftovers(sandboxes: string): void {
  const listing = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout ?? '';
  for (const line of listing.split('\n')) {
    const [pid, ...args] = line.trim().split(' ');
    if (!args.join(' ').includes(sandboxes) || Number(pid) === process.pid) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      process.stdout.write(`# ended a process left running: ${args.join(' ').slice(0, 160)}\n`);
    } catch {
      // it ended meanwhile
    }
  }
}

/**
 * What a chunk's results depend on, as Stryker's incremental mode sees it: the mutated files, the
 * area's list of test files and their contents, and Stryker's settings. Another area's list is left
 * out, so that adding a test file to one area does not send every other area's chunks round again.
 */
function fingerprintOf(chunk: Chunk, spec: (typeof AREAS)[string]): string {
  // How the area is cut decides which files a chunk holds, which the chunk's files say: not its results.
  const results = { ...spec, chunkMutants: undefined, alone: undefined };
  const hash = createHash('sha256').update(JSON.stringify(results)).update('\0');
  const config = fs.readFileSync('stryker.config.mjs', 'utf8');
  hash.update(config.slice(config.indexOf('\n/** The stores an area runs on')));
  for (const file of [...chunk.files, ...spec.testFiles]) hash.update(`${file}\0`).update(fs.readFileSync(file));
  return hash.digest('hex');
}

process.exitCode = await main();
