/**
 * A Stryker reporter ("checkpoint") that keeps a chunk's results as they come, so that a chunk
 * stopped midway (a session's end, Ctrl-C) resumes where it stopped instead of from its first
 * mutant (docs/testing.md, "Running it in parts"). Stryker writes its incremental file only when a
 * run ends; this reporter writes, after every mutant, the same kind of report (the
 * mutation-testing-report-schema's `files` and `testFiles`) with the mutants tested so far, to
 * `<chunk>.partial.json` beside it. scripts/mutate.ts hands that file to the next run of the chunk
 * as its incremental file, if the chunk's fingerprint (its files, its area's test files, Stryker's
 * settings) is the one the partial report was written under; Stryker then tests only the mutants
 * the partial report lacks.
 *
 * Plain JavaScript: Stryker's own process loads it, without the TypeScript loader the tests use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** Where a chunk's partial report goes: beside its incremental file. */
export function partialFileOf(incrementalFile) {
  return incrementalFile.replace(/\.incremental\.json$/, '.partial.json');
}

/** The partial report of the results so far, in the form Stryker reads an incremental file. */
export function partialReport(results, tests, fingerprint, readSource) {
  const files = {};
  for (const { fileName, ...result } of results) {
    const name = path.relative(process.cwd(), fileName);
    files[name] ??= { language: 'typescript', source: readSource(fileName), mutants: [] };
    files[name].mutants.push(result);
  }
  const testFiles = {};
  for (const test of tests) {
    const name = test.fileName ? path.relative(process.cwd(), test.fileName) : '';
    (testFiles[name] ??= { tests: [] }).tests.push({ id: test.id, name: test.name });
  }
  return { schemaVersion: '1.0', thresholds: { high: 80, low: 60 }, files, testFiles, fingerprint };
}

/**
 * Before a chunk runs: a partial report written under the chunk's `fingerprint` becomes its
 * incremental file, and Stryker tests only the mutants it lacks; one written under another
 * fingerprint is of other code or tests, and goes. Says which, or null when there was none.
 */
export function resumeFromPartial(incrementalFile, fingerprint) {
  const partialFile = partialFileOf(incrementalFile);
  if (!fs.existsSync(partialFile)) return null;
  const partial = JSON.parse(fs.readFileSync(partialFile, 'utf8'));
  const mutants = Object.values(partial.files).reduce((sum, file) => sum + file.mutants.length, 0);
  if (partial.fingerprint !== fingerprint) {
    fs.rmSync(partialFile);
    return `the ${mutants} results a stopped run left are of other code or tests: not used`;
  }
  fs.copyFileSync(partialFile, incrementalFile);
  return `resumes from the ${mutants} results a stopped run left`;
}

class CheckpointReporter {
  static inject = [commonTokens.options];

  constructor(options) {
    this.file = partialFileOf(options.incrementalFile);
    this.fingerprint = process.env.MUTATE_FINGERPRINT ?? null;
    this.tests = [];
    this.results = [];
    this.sources = new Map();
  }

  onDryRunCompleted(event) {
    this.tests = event.result.tests.map(({ id, name, fileName }) => ({ id, name, fileName }));
  }

  onMutantTested(result) {
    this.results.push(result);
    const report = partialReport(this.results, this.tests, this.fingerprint, (fileName) => {
      if (!this.sources.has(fileName)) this.sources.set(fileName, fs.readFileSync(fileName, 'utf8'));
      return this.sources.get(fileName);
    });
    // Written whole and then renamed: a run killed while it writes leaves the last report intact.
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(`${this.file}.tmp`, JSON.stringify(report));
    fs.renameSync(`${this.file}.tmp`, this.file);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'checkpoint', CheckpointReporter)];
