/**
 * How a chunk of `npm run mutate` stopped midway resumes (scripts/mutation-checkpoint.mjs;
 * docs/testing.md, "Running it in parts"): the checkpoint reporter writes, after every mutant, the
 * results so far as an incremental report, and the next run of the chunk starts from it when it was
 * written under the chunk's fingerprint. Stryker's own reading of that file (87 of 93 results
 * reused after a run stopped midway) is shown in docs/testing.md; here, what is written and chosen.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { partialFileOf, resumeFromPartial, strykerPlugins } from '../../scripts/mutation-checkpoint.mjs';

let dir: string;
let incrementalFile: string;
let source: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-checkpoint-'));
  incrementalFile = path.join(dir, 'reports', 'try-sqlite', 'src-x.ts.incremental.json');
  source = path.join(dir, 'x.ts');
  fs.writeFileSync(source, 'export const x = 1 + 2;\n');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Reporter {
  onDryRunCompleted(event: unknown): void;
  onMutantTested(result: unknown): void;
}

function reporter(fingerprint: string): Reporter {
  const plugin = (strykerPlugins as { injectableClass: new (options: unknown) => Reporter }[])[0]!;
  const before = process.env.MUTATE_FINGERPRINT;
  process.env.MUTATE_FINGERPRINT = fingerprint;
  try {
    return new plugin.injectableClass({ incrementalFile });
  } finally {
    if (before === undefined) delete process.env.MUTATE_FINGERPRINT;
    else process.env.MUTATE_FINGERPRINT = before;
  }
}

const mutant = (id: string, status: string, killedBy: string[] = []) => ({
  id,
  fileName: source,
  mutatorName: 'ArithmeticOperator',
  replacement: '1 - 2',
  location: { start: { line: 1, column: 18 }, end: { line: 1, column: 23 } },
  status,
  coveredBy: ['test/unit/x.test.ts'],
  killedBy,
});

test('the partial report sits beside the incremental file, named for it', () => {
  assert.equal(partialFileOf('reports/mutation/a/b.ts.incremental.json'), 'reports/mutation/a/b.ts.partial.json');
});

test('after every mutant, the results so far: each file with its source, the tests of the dry run, the fingerprint', () => {
  const checkpoint = reporter('print-1');
  checkpoint.onDryRunCompleted({
    result: { tests: [{ id: 'test/unit/x.test.ts', name: 'test/unit/x.test.ts', fileName: 'test/unit/x.test.ts' }] },
  });
  const partialFile = partialFileOf(incrementalFile);
  checkpoint.onMutantTested(mutant('0', 'Killed', ['test/unit/x.test.ts']));
  const first = JSON.parse(fs.readFileSync(partialFile, 'utf8'));
  const name = path.relative(process.cwd(), source);
  assert.deepEqual(Object.keys(first.files), [name]);
  assert.equal(first.files[name].mutants.length, 1);
  checkpoint.onMutantTested(mutant('1', 'Survived'));
  const report = JSON.parse(fs.readFileSync(partialFile, 'utf8'));
  assert.equal(report.fingerprint, 'print-1');
  assert.equal(report.files[name].source, 'export const x = 1 + 2;\n');
  assert.deepEqual(
    report.files[name].mutants.map((m: { id: string; status: string; fileName?: string }) => [
      m.id,
      m.status,
      m.fileName,
    ]),
    [
      ['0', 'Killed', undefined],
      ['1', 'Survived', undefined],
    ],
  );
  assert.deepEqual(report.files[name].mutants[0].killedBy, ['test/unit/x.test.ts']);
  assert.deepEqual(report.testFiles, {
    'test/unit/x.test.ts': { tests: [{ id: 'test/unit/x.test.ts', name: 'test/unit/x.test.ts' }] },
  });
  assert.deepEqual(fs.readdirSync(path.dirname(partialFile)), [path.basename(partialFile)], 'no file half written');
});

test('a partial report of the same fingerprint becomes the incremental file; the run says how many it resumes from', () => {
  const checkpoint = reporter('print-1');
  checkpoint.onDryRunCompleted({ result: { tests: [] } });
  checkpoint.onMutantTested(mutant('0', 'Killed'));
  checkpoint.onMutantTested(mutant('1', 'Survived'));
  assert.equal(resumeFromPartial(incrementalFile, 'print-1'), 'resumes from the 2 results a stopped run left');
  assert.equal(fs.readFileSync(incrementalFile, 'utf8'), fs.readFileSync(partialFileOf(incrementalFile), 'utf8'));
});

test("a partial report of another fingerprint without its test files' sources is not used, and goes; an incremental file already there stays", () => {
  fs.mkdirSync(path.dirname(incrementalFile), { recursive: true });
  fs.writeFileSync(incrementalFile, '{"files":{},"testFiles":{}}');
  const checkpoint = reporter('print-1');
  checkpoint.onDryRunCompleted({ result: { tests: [] } });
  checkpoint.onMutantTested(mutant('0', 'Killed'));
  assert.equal(
    resumeFromPartial(incrementalFile, 'print-2'),
    "the 1 result a stopped run left is of other code or tests, without their test files' sources: not used",
  );
  assert.equal(fs.existsSync(partialFileOf(incrementalFile)), false);
  assert.equal(fs.readFileSync(incrementalFile, 'utf8'), '{"files":{},"testFiles":{}}');
});

test('no partial report: nothing to resume, nothing touched', () => {
  assert.equal(resumeFromPartial(incrementalFile, 'print-1'), null);
  assert.equal(fs.existsSync(path.dirname(incrementalFile)), false);
});

test("the test files' sources are kept as the dry run found them, named from the project's root", () => {
  const testFile = path.join(dir, 'x.test.ts');
  fs.writeFileSync(testFile, "import './x.js';\n");
  const checkpoint = reporter('print-1');
  checkpoint.onDryRunCompleted({ result: { tests: [{ id: '0', name: 'x', fileName: testFile }] } });
  fs.writeFileSync(testFile, '// changed while the run went on\n');
  checkpoint.onMutantTested(mutant('0', 'Killed', ['0']));
  const report = JSON.parse(fs.readFileSync(partialFileOf(incrementalFile), 'utf8'));
  assert.deepEqual(report.testFiles, {
    [path.relative(process.cwd(), testFile)]: { tests: [{ id: '0', name: 'x' }], source: "import './x.js';\n" },
  });
});

test("a partial report of another fingerprint that holds its test files' sources is used: Stryker tests again what changed", () => {
  const testFile = path.join(dir, 'x.test.ts');
  fs.writeFileSync(testFile, "import './x.js';\n");
  const checkpoint = reporter('print-1');
  checkpoint.onDryRunCompleted({ result: { tests: [{ id: '0', name: 'x', fileName: testFile }] } });
  checkpoint.onMutantTested(mutant('0', 'Killed', ['0']));
  checkpoint.onMutantTested(mutant('1', 'Survived'));
  assert.equal(
    resumeFromPartial(incrementalFile, 'print-2'),
    'resumes from the 2 results a stopped run left, of other code or tests: what the changes reach is tested again',
  );
  assert.equal(fs.readFileSync(incrementalFile, 'utf8'), fs.readFileSync(partialFileOf(incrementalFile), 'utf8'));
});
