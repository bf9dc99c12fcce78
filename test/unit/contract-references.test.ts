/**
 * Comments and docs point to the rules they follow as "docs/contract.md §N" or "§N.M" (section N,
 * its numbered rule M). A reference to a section or rule that docs/contract.md does not have points
 * nowhere: every such reference in the code, the tests and the docs must resolve.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const REFERENCE = /contract(?:\.md)?\s*§\s*(\d+(?:\.\d+)?)/g;

/** Section numbers ("## N. Title") and, per section, its numbered rules ("M. " at the start of a line). */
function contractOutline(text: string): Map<number, Set<number>> {
  const outline = new Map<number, Set<number>>();
  let current: Set<number> | null = null;
  for (const line of text.split('\n')) {
    const heading = /^## (\d+)\. /.exec(line);
    if (heading) {
      current = new Set();
      outline.set(Number(heading[1]), current);
      continue;
    }
    if (line.startsWith('#')) continue;
    const rule = /^(\d+)\. /.exec(line);
    if (rule && current) current.add(Number(rule[1]));
  }
  return outline;
}

function resolves(outline: Map<number, Set<number>>, reference: string): boolean {
  const [section, rule] = reference.split('.').map(Number);
  const rules = outline.get(section!);
  return rules !== undefined && (rule === undefined || rules.has(rule));
}

function filesUnder(dir: string, extensions: string[]): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'generated' ? [] : filesUnder(full, extensions);
    return extensions.some((extension) => entry.name.endsWith(extension)) ? [full] : [];
  });
}

const outline = contractOutline(fs.readFileSync(path.join(ROOT, 'docs', 'contract.md'), 'utf8'));

test('the outline of docs/contract.md is read, and a reference to what it lacks does not resolve', () => {
  assert.ok(outline.size >= 10, `sections found: ${[...outline.keys()].join(', ')}`);
  assert.ok(resolves(outline, '8'));
  assert.ok(resolves(outline, '8.2'));
  assert.ok(!resolves(outline, '99'), 'a section that does not exist');
  assert.ok(!resolves(outline, '8.99'), 'a rule that section 8 does not have');
  const planted = 'see docs/contract.md §8.99 and contract §4';
  assert.deepEqual(
    [...planted.matchAll(REFERENCE)].map((match) => match[1]),
    ['8.99', '4'],
  );
});

test('every "contract.md §…" in the code, the tests and the docs points to a section or rule that exists', () => {
  const files = [
    ...filesUnder(path.join(ROOT, 'src'), ['.ts']),
    ...filesUnder(path.join(ROOT, 'test'), ['.ts']),
    ...filesUnder(path.join(ROOT, 'docs'), ['.md']),
    path.join(ROOT, 'README.md'),
  ];
  const found: string[] = [];
  const broken: string[] = [];
  for (const file of files) {
    if (file === path.join(ROOT, 'test', 'unit', 'contract-references.test.ts')) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(REFERENCE)) {
      found.push(match[1]!);
      if (!resolves(outline, match[1]!)) broken.push(`${path.relative(ROOT, file)}: §${match[1]}`);
    }
  }
  assert.ok(found.length >= 10, `references found: ${found.length}`);
  assert.deepEqual(broken, []);
});
