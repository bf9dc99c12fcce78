/**
 * A Stryker reporter ("checkpoint") that keeps a chunk's results as they come, so that a chunk
 * stopped midway (a session's end, Ctrl-C) resumes where it stopped instead of from its first
 * mutant (docs/testing.md, "Running it in parts"). Stryker writes its incremental file only when a
 * run ends; this reporter writes, after every mutant, the same kind of report (the
 * mutation-testing-report-schema's `files` and `testFiles`) with the mutants tested so far, to
 * `<chunk>.partial.json` beside it, with the sources of the mutated files and of the test files.
 * scripts/mutate.ts hands that file to the next run of the chunk as its incremental file; Stryker
 * then tests only the mutants the partial report lacks, and those whose code or tests changed.
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
    const source = test.fileName ? readSource(test.fileName) : undefined;
    testFiles[name] ??= { tests: [], ...(source === undefined ? {} : { source }) };
    testFiles[name].tests.push({ id: test.id, name: test.name });
  }
  return { schemaVersion: '1.0', thresholds: { high: 80, low: 60 }, files, testFiles, fingerprint };
}

/**
 * Before a chunk runs: a partial report becomes its incremental file, and Stryker tests only the
 * mutants it lacks. Written under another `fingerprint` (the code or the tests changed since), it
 * is used all the same if it holds its test files' sources, as Stryker's own incremental file does:
 * Stryker then also tests again what the changes reach. One without them (written before they
 * were kept) could not tell a changed test file, and goes. Says which, or null when there was none.
 */
export function resumeFromPartial(incrementalFile, fingerprint) {
  const partialFile = partialFileOf(incrementalFile);
  if (!fs.existsSync(partialFile)) return null;
  const partial = JSON.parse(fs.readFileSync(partialFile, 'utf8'));
  const mutants = Object.values(partial.files).reduce((sum, file) => sum + file.mutants.length, 0);
  const results = `the ${mutants} ${mutants === 1 ? 'result' : 'results'} a stopped run left`;
  if (partial.fingerprint === fingerprint) {
    fs.copyFileSync(partialFile, incrementalFile);
    return `resumes from ${results}`;
  }
  const testFiles = Object.entries(partial.testFiles ?? {});
  if (testFiles.length > 0 && testFiles.every(([name, file]) => name === '' || file.source !== undefined)) {
    fs.copyFileSync(partialFile, incrementalFile);
    return `resumes from ${results}, of other code or tests: what the changes reach is tested again`;
  }
  fs.rmSync(partialFile);
  return `${results} ${mutants === 1 ? 'is' : 'are'} of other code or tests, without their test files' sources: not used`;
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

  /** A file's source as it is when first read: the test files' at the dry run, a mutated file's at its first result. */
  source(fileName) {
    if (!this.sources.has(fileName)) {
      let source;
      try {
        source = fs.readFileSync(fileName, 'utf8');
      } catch {
        source = undefined; // not a file of the project (a test Stryker names otherwise): kept without it
      }
      this.sources.set(fileName, source);
    }
    return this.sources.get(fileName);
  }

  onDryRunCompleted(event) {
    this.tests = event.result.tests.map(({ id, name, fileName }) => ({ id, name, fileName }));
    // Read now, as the dry run found them: what a later change of them must be compared with.
    for (const { fileName } of this.tests) if (fileName) this.source(fileName);
  }

  onMutantTested(result) {
    this.results.push(result);
    const report = partialReport(this.results, this.tests, this.fingerprint, (fileName) => this.source(fileName));
    // Written whole and then renamed: a run killed while it writes leaves the last report intact.
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(`${this.file}.tmp`, JSON.stringify(report));
    fs.renameSync(`${this.file}.tmp`, this.file);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'checkpoint', CheckpointReporter)];
