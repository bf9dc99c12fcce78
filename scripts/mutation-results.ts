/**
 * Mutation results kept in git (docs/testing.md, "Results kept in git"), so that a run of hours
 * survives a machine that loses `reports/`, and a fresh clone starts from the results already had.
 *
 * Stryker's incremental file holds, besides each mutant's result, the sources it was run on: half
 * a megabyte a chunk. Here each mutated file's results are kept without them, one mutant a line,
 * in test/mutation/results/<area>-<store>/<file>.json, with the commit the run was on: the sources
 * come back from git when a chunk is run again. `save` writes these records from the reports of
 * the chunks run so far; scripts/mutate.ts calls `restore` for a chunk that `reports/` knows
 * nothing of, and Stryker's incremental mode then tests again only the mutants whose code or
 * covering test files changed since that commit.
 *
 *   npx tsx scripts/mutation-results.ts save   (after a run: then commit test/mutation/results/)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { partialFileOf } from './mutation-checkpoint.mjs';

export const RESULTS_DIR = 'test/mutation/results';
const REPORTS_DIR = 'reports/mutation';
/** How far back `save` looks for the commit a report's sources are of. */
const COMMITS_SEARCHED = 200;

interface Position {
  line: number;
  column: number;
}
interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: Position; end: Position };
  status: string;
  static?: boolean;
  coveredBy?: string[];
  killedBy?: string[];
}
interface Report {
  files: Record<string, { language?: string; source: string; mutants: ReportMutant[] }>;
  testFiles?: Record<string, { source?: string; tests: { id: string; name: string }[] }>;
}

/** One mutant: where, which mutator and replacement, its status, the test files that reached and killed it (indexes into `tests`). */
type KeptMutant = [
  where: string,
  mutator: string,
  replacement: string,
  status: string,
  coveredBy: number[],
  killedBy: number[],
  isStatic?: 1,
];

export interface KeptResults {
  file: string;
  commit: string;
  tests: string[];
  mutants: KeptMutant[];
}

function git(args: string[], cwd: string): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout;
}

/** Git's name of a blob with these contents, to compare a report's source with a commit's file without reading it. */
function blobName(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function where({ start, end }: ReportMutant['location']): string {
  return `${start.line}:${start.column}-${end.line}:${end.column}`;
}

function location(text: string): ReportMutant['location'] {
  const [start, end] = text.split('-').map((part) => {
    const [line, column] = part.split(':').map(Number);
    return { line: line!, column: column! };
  });
  return { start: start!, end: end! };
}

/** The test files' names a report gives its test ids: with Stryker's TAP runner a test is a file. */
function testNames(report: Report): Map<string, string> {
  const names = new Map<string, string>();
  for (const [file, { tests }] of Object.entries(report.testFiles ?? {}))
    for (const test of tests) names.set(test.id, file || test.name);
  return names;
}

/** The results of one report's mutated files, as kept in git, a record a file. */
export function keptResultsOf(report: Report, commit: string): KeptResults[] {
  const names = testNames(report);
  return Object.entries(report.files).map(([file, { mutants }]) => {
    const tests: string[] = [];
    const index = (id: string) => {
      const name = names.get(id) ?? id;
      const at = tests.indexOf(name);
      return at >= 0 ? at : tests.push(name) - 1;
    };
    const kept = [...mutants]
      .sort(
        (a, b) =>
          where(a.location).localeCompare(where(b.location), 'en', { numeric: true }) ||
          a.mutatorName.localeCompare(b.mutatorName),
      )
      .map((mutant): KeptMutant => {
        const row: KeptMutant = [
          where(mutant.location),
          mutant.mutatorName,
          mutant.replacement ?? mutant.mutatorName,
          mutant.status,
          (mutant.coveredBy ?? []).map(index),
          (mutant.killedBy ?? []).map(index),
        ];
        if (mutant.static) row.push(1);
        return row;
      });
    return { file, commit, tests, mutants: kept };
  });
}

/** A record as text: one mutant a line, so that a change of results reads as a change of lines. */
export function formatKept(kept: KeptResults): string {
  const rows = kept.mutants.map((row) => `    ${JSON.stringify(row)}`).join(',\n');
  return (
    `{\n  "file": ${JSON.stringify(kept.file)},\n  "commit": ${JSON.stringify(kept.commit)},\n` +
    `  "tests": ${JSON.stringify(kept.tests)},\n  "mutants": [\n${rows}\n  ]\n}\n`
  );
}

/** Where a file's results of a run (an area on a store: `http-sqlite`) are kept. */
export function keptFileOf(root: string, run: string, file: string): string {
  return path.join(root, RESULTS_DIR, run, `${file}.json`);
}

/**
 * The commit whose files are the report's sources (the mutated files, and the test files where the
 * report holds them), among the last COMMITS_SEARCHED of HEAD, the `preferred` ones first, then
 * the newest: null if none is.
 */
export function commitOf(report: Report, root: string, preferred: string[] = []): string | null {
  const wanted = new Map<string, string>();
  for (const [file, { source }] of Object.entries(report.files)) wanted.set(file, blobName(source));
  for (const [file, { source }] of Object.entries(report.testFiles ?? {}))
    if (file && source !== undefined) wanted.set(file, blobName(source));
  const recent = git(['rev-list', `--max-count=${COMMITS_SEARCHED}`, 'HEAD'], root)
    .split('\n')
    .filter(Boolean);
  for (const commit of [...preferred.filter((commit) => recent.includes(commit)), ...recent]) {
    const listing = git(['ls-tree', '-r', commit, '--', ...wanted.keys()], root);
    const blobs = new Map(
      listing
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [meta, file] = line.split('\t');
          return [file!, meta!.split(' ')[2]!];
        }),
    );
    if ([...wanted].every(([file, blob]) => blobs.get(file) === blob)) return commit;
  }
  return null;
}

/**
 * Keeps the results of one chunk: its partial report where a run of it was stopped (the newer),
 * else its incremental file. Says what it kept, or why nothing.
 */
export function saveChunk(root: string, run: string, incrementalFile: string): string {
  const partial = partialFileOf(incrementalFile);
  const from = fs.existsSync(partial) ? partial : incrementalFile;
  const chunk = `${run}/${path.basename(incrementalFile).replace(/\.incremental\.json$/, '')}`;
  if (!fs.existsSync(from)) return `${chunk}: no results yet`;
  const report = JSON.parse(fs.readFileSync(from, 'utf8')) as Report;
  // The commit already named, while it still holds the sources: saving again changes no line for nothing.
  const named = Object.keys(report.files)
    .map((file) => keptFileOf(root, run, file))
    .filter((file) => fs.existsSync(file))
    .map((file) => (JSON.parse(fs.readFileSync(file, 'utf8')) as KeptResults).commit);
  const commit = commitOf(report, root, named);
  if (!commit) return `${chunk}: its sources are those of no commit among HEAD's last ${COMMITS_SEARCHED}: not kept`;
  let mutants = 0;
  for (const kept of keptResultsOf(report, commit)) {
    const file = keptFileOf(root, run, kept.file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, formatKept(kept));
    mutants += kept.mutants.length;
  }
  return `${chunk}: ${mutants} results of ${commit.slice(0, 7)}${from === partial ? ' (a stopped run)' : ''}`;
}

/** Keeps the results of every chunk in reports/mutation (`try/` aside: runs on one file while killing survivors). */
export function saveAll(root: string): string[] {
  const reportsDir = path.join(root, REPORTS_DIR);
  if (!fs.existsSync(reportsDir)) return ['no reports/mutation here: nothing to keep'];
  const said: string[] = [];
  for (const run of fs.readdirSync(reportsDir).sort()) {
    const runDir = path.join(reportsDir, run);
    if (run === 'try' || !fs.statSync(runDir).isDirectory()) continue;
    // A chunk stopped in its first run has only its partial report: no incremental file yet.
    const chunks = new Set(
      fs
        .readdirSync(runDir)
        .filter((name) => name.endsWith('.incremental.json') || name.endsWith('.partial.json'))
        .map((name) => name.replace(/\.(incremental|partial)\.json$/, '')),
    );
    for (const chunk of [...chunks].sort())
      said.push(saveChunk(root, run, path.join(runDir, `${chunk}.incremental.json`)));
  }
  return said;
}

/**
 * Before a chunk of `run` (an area on a store) runs, with nothing in reports/ to start from: the
 * kept results of its files, written as Stryker's incremental file with the sources of their
 * commits. Says how many, or null when none are kept or their commit is not in this clone.
 */
export function restore(root: string, run: string, files: string[], incrementalFile: string): string | null {
  const report: Report & { schemaVersion: string; thresholds: object } = {
    schemaVersion: '1.0',
    thresholds: { high: 80, low: 60 },
    files: {},
    testFiles: {},
  };
  const sources = new Map<string, string>();
  const sourceAt = (commit: string, file: string): string | undefined => {
    const key = `${commit}:${file}`;
    if (!sources.has(key)) {
      const shown = spawnSync('git', ['show', key], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (shown.status !== 0) return undefined;
      sources.set(key, shown.stdout);
    }
    return sources.get(key);
  };
  let count = 0;
  let id = 0;
  for (const file of files) {
    const keptFile = keptFileOf(root, run, file);
    if (!fs.existsSync(keptFile)) continue;
    const kept = JSON.parse(fs.readFileSync(keptFile, 'utf8')) as KeptResults;
    const source = sourceAt(kept.commit, kept.file);
    if (source === undefined) continue; // a commit this clone lacks (a shallow clone): the file is tested anew
    const testSources = kept.tests.map((test) => sourceAt(kept.commit, test));
    for (const [at, test] of kept.tests.entries()) {
      // A test file's source says whether it changed since; without it Stryker could not tell, so
      // a test file the commit lacks is left out, and the mutants it alone reached are tested anew.
      if (testSources[at] === undefined || report.testFiles![test]) continue;
      report.testFiles![test] = { source: testSources[at], tests: [{ id: test, name: test }] };
    }
    const known = (at: number) => testSources[at] !== undefined;
    report.files[file] = {
      language: 'typescript',
      source,
      mutants: kept.mutants.map(([at, mutatorName, replacement, status, coveredBy, killedBy, isStatic]) => ({
        id: String(id++),
        mutatorName,
        replacement,
        location: location(at),
        status,
        ...(isStatic ? { static: true } : {}),
        coveredBy: coveredBy.filter(known).map((index) => kept.tests[index]!),
        killedBy: killedBy.filter(known).map((index) => kept.tests[index]!),
      })),
    };
    count += kept.mutants.length;
  }
  if (count === 0) return null;
  fs.mkdirSync(path.dirname(incrementalFile), { recursive: true });
  fs.writeFileSync(incrementalFile, JSON.stringify(report));
  return `starts from the ${count} results kept in ${RESULTS_DIR}/${run}`;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('mutation-results.ts')) {
  if (process.argv[2] !== 'save') {
    process.stderr.write('usage: npx tsx scripts/mutation-results.ts save\n');
    process.exitCode = 2;
  } else {
    for (const line of saveAll(process.cwd())) process.stdout.write(`${line}\n`);
  }
}
