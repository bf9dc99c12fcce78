/**
 * Mutation results kept in git (scripts/mutation-results.ts; docs/testing.md, "Results kept in
 * git"): a chunk's report is kept without its sources, a record a mutated file with the commit the
 * run was on, and a chunk that reports/ knows nothing of starts from them, its sources read back
 * from that commit. Here on a repository of its own; Stryker's reuse of the restored file on the
 * real project is shown in docs/testing.md.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { keptFileOf, restore, saveAll, saveChunk } from '../../scripts/mutation-results.js';

const SOURCE = 'export const x = 1 + 2;\n';
const TEST_SOURCE = "import { x } from '../../src/x.js';\nif (x !== 3) throw new Error('x');\n";
let root: string;
let commit: string;

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-kept-'));
  git('init', '-q');
  write('src/x.ts', SOURCE);
  write('test/unit/x.test.ts', TEST_SOURCE);
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'x');
  commit = git('rev-parse', 'HEAD');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const INCREMENTAL = 'reports/mutation/domain-sqlite/src-x.ts.incremental.json';

/** A mutant that survived, as Stryker reports it, but for the tests that reached it. */
const SURVIVOR = {
  id: '0',
  mutatorName: 'StringLiteral',
  replacement: '""',
  location: { start: { line: 1, column: 7 }, end: { line: 1, column: 9 } },
  status: 'Survived',
  static: true,
};

/** Stryker's incremental report of src/x.ts: test ids are numbers there, the test's name its file. */
function strykerReport(source = SOURCE) {
  return {
    files: {
      'src/x.ts': {
        language: 'typescript',
        source,
        mutants: [
          {
            id: '1',
            mutatorName: 'ArithmeticOperator',
            replacement: '1 - 2',
            location: { start: { line: 1, column: 18 }, end: { line: 1, column: 23 } },
            status: 'Killed',
            statusReason: 'x',
            coveredBy: ['0'],
            killedBy: ['0'],
          },
          { ...SURVIVOR, coveredBy: ['0'] },
        ],
      },
    },
    testFiles: { 'test/unit/x.test.ts': { source: TEST_SOURCE, tests: [{ id: '0', name: 'test/unit/x.test.ts' }] } },
  };
}

test('a chunk is kept a record a mutated file: the commit its sources are of, its test files, a mutant a line in source order', () => {
  write(INCREMENTAL, JSON.stringify(strykerReport()));
  assert.equal(
    saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL)),
    `domain-sqlite/src-x.ts: 2 results of ${commit.slice(0, 7)}`,
  );
  const text = fs.readFileSync(keptFileOf(root, 'domain-sqlite', 'src/x.ts'), 'utf8');
  assert.deepEqual(JSON.parse(text), {
    file: 'src/x.ts',
    commit,
    tests: ['test/unit/x.test.ts'],
    mutants: [
      ['1:7-1:9', 'StringLiteral', '""', 'Survived', [0], [], 1],
      ['1:18-1:23', 'ArithmeticOperator', '1 - 2', 'Killed', [0], [0]],
    ],
  });
  assert.equal(text.split('\n').filter((line) => line.startsWith('    [')).length, 2, text);
  assert.ok(!text.includes('export const x'), 'no source is kept');
});

test('a stopped run, whose report is newer than the incremental file, is what is kept', () => {
  write(INCREMENTAL, JSON.stringify({ files: { 'src/x.ts': { source: SOURCE, mutants: [] } } }));
  const partial = strykerReport();
  partial.testFiles = {
    'test/unit/x.test.ts': { tests: [{ id: 'test/unit/x.test.ts', name: 'test/unit/x.test.ts' }] },
  } as never;
  for (const mutant of partial.files['src/x.ts'].mutants) {
    mutant.coveredBy = ['test/unit/x.test.ts'];
    if (mutant.killedBy) mutant.killedBy = ['test/unit/x.test.ts'];
  }
  write(INCREMENTAL.replace('.incremental.json', '.partial.json'), JSON.stringify(partial));
  assert.equal(
    saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL)),
    `domain-sqlite/src-x.ts: 2 results of ${commit.slice(0, 7)} (a stopped run)`,
  );
  const kept = JSON.parse(fs.readFileSync(keptFileOf(root, 'domain-sqlite', 'src/x.ts'), 'utf8'));
  assert.deepEqual(kept.tests, ['test/unit/x.test.ts']);
  assert.deepEqual(kept.mutants[1], ['1:18-1:23', 'ArithmeticOperator', '1 - 2', 'Killed', [0], [0]]);
});

test('a report whose sources are of no commit (a run on edited files) is not kept', () => {
  write(INCREMENTAL, JSON.stringify(strykerReport('export const x = 1 + 3;\n')));
  assert.match(
    saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL)),
    /its sources are those of no commit among HEAD's last 200: not kept$/,
  );
  assert.equal(fs.existsSync(keptFileOf(root, 'domain-sqlite', 'src/x.ts')), false);
});

test('a test file edited since the run makes the report of no commit too', () => {
  const report = strykerReport();
  report.testFiles['test/unit/x.test.ts'].source = `${TEST_SOURCE}// edited\n`;
  write(INCREMENTAL, JSON.stringify(report));
  assert.match(saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL)), /not kept$/);
});

test('the commit found is the newest whose files are the sources, after later commits changed them', () => {
  write(INCREMENTAL, JSON.stringify(strykerReport()));
  write('src/x.ts', 'export const x = 3;\n');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'y');
  assert.equal(
    saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL)),
    `domain-sqlite/src-x.ts: 2 results of ${commit.slice(0, 7)}`,
  );
});

test('restored, the kept results are an incremental report again, with the sources of their commit', () => {
  write(INCREMENTAL, JSON.stringify(strykerReport()));
  saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL));
  write('src/x.ts', 'export const x = 3;\n'); // the working tree moved on: the sources come from the commit
  const into = path.join(root, 'fresh', 'src-x.ts.incremental.json');
  assert.equal(
    restore(root, 'domain-sqlite', ['src/x.ts', 'src/y.ts'], into),
    'starts from the 2 results kept in test/mutation/results/domain-sqlite',
  );
  const report = JSON.parse(fs.readFileSync(into, 'utf8'));
  assert.equal(report.files['src/x.ts'].source, SOURCE);
  assert.deepEqual(report.testFiles, {
    'test/unit/x.test.ts': { source: TEST_SOURCE, tests: [{ id: 'test/unit/x.test.ts', name: 'test/unit/x.test.ts' }] },
  });
  const [survived, killed] = report.files['src/x.ts'].mutants;
  assert.deepEqual(survived, { ...SURVIVOR, coveredBy: ['test/unit/x.test.ts'], killedBy: [] });
  assert.equal(killed.status, 'Killed');
  assert.deepEqual(killed.killedBy, ['test/unit/x.test.ts']);
  assert.deepEqual(killed.location, { start: { line: 1, column: 18 }, end: { line: 1, column: 23 } });
});

test("nothing kept for the chunk's files, or of a commit this clone lacks: nothing restored, no file written", () => {
  const into = path.join(root, 'fresh', 'a.incremental.json');
  assert.equal(restore(root, 'domain-sqlite', ['src/x.ts'], into), null);
  write(INCREMENTAL, JSON.stringify(strykerReport()));
  saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL));
  const keptFile = keptFileOf(root, 'domain-sqlite', 'src/x.ts');
  fs.writeFileSync(keptFile, fs.readFileSync(keptFile, 'utf8').replace(commit, 'f'.repeat(40)));
  assert.equal(restore(root, 'domain-sqlite', ['src/x.ts'], into), null);
  assert.equal(fs.existsSync(into), false);
});

test('a test file the commit lacks is left out, with the coverage it gave', () => {
  const report = strykerReport();
  (report.testFiles as Record<string, unknown>)['test/unit/gone.test.ts'] = {
    tests: [{ id: '7', name: 'test/unit/gone.test.ts' }],
  };
  report.files['src/x.ts'].mutants[0]!.coveredBy = ['0', '7'];
  write(INCREMENTAL, JSON.stringify(report));
  saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL));
  const into = path.join(root, 'fresh', 'x.incremental.json');
  restore(root, 'domain-sqlite', ['src/x.ts'], into);
  const restored = JSON.parse(fs.readFileSync(into, 'utf8'));
  assert.deepEqual(Object.keys(restored.testFiles), ['test/unit/x.test.ts']);
  assert.deepEqual(restored.files['src/x.ts'].mutants[1].coveredBy, ['test/unit/x.test.ts']);
});

test("saving all keeps every run's chunks but the try/ runs", () => {
  write(INCREMENTAL, JSON.stringify(strykerReport()));
  write('reports/mutation/try/x.incremental.json', JSON.stringify(strykerReport()));
  assert.deepEqual(saveAll(root), [`domain-sqlite/src-x.ts: 2 results of ${commit.slice(0, 7)}`]);
  assert.deepEqual(fs.readdirSync(path.join(root, 'test/mutation/results')), ['domain-sqlite']);
});

test('saving all keeps a chunk stopped in its first run, which has only its partial report', () => {
  write(INCREMENTAL.replace('.incremental.json', '.partial.json'), JSON.stringify(strykerReport()));
  assert.deepEqual(saveAll(root), [`domain-sqlite/src-x.ts: 2 results of ${commit.slice(0, 7)} (a stopped run)`]);
  assert.ok(fs.existsSync(keptFileOf(root, 'domain-sqlite', 'src/x.ts')));
});

test('saved again, a record keeps the commit it names while that commit still holds the sources', () => {
  write(INCREMENTAL, JSON.stringify(strykerReport()));
  saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL));
  write('docs.md', 'a later commit that changes no source\n');
  git('add', 'docs.md');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'docs');
  assert.equal(
    saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL)),
    `domain-sqlite/src-x.ts: 2 results of ${commit.slice(0, 7)}`,
  );
  fs.rmSync(path.join(root, 'test/mutation/results'), { recursive: true });
  const newest = git('rev-parse', 'HEAD');
  assert.equal(
    saveChunk(root, 'domain-sqlite', path.join(root, INCREMENTAL)),
    `domain-sqlite/src-x.ts: 2 results of ${newest.slice(0, 7)}`,
  );
});
