/**
 * README.md and docs/*.md point at files: relative Markdown links, and paths in backticks under
 * src/, test/, docs/, bench/ (outside bench/results/, which a run writes), scripts/ and packages/,
 * or a bare `name.md` of docs/. A link or path to a file that is not in the repository points
 * nowhere: every one must exist.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LINK = /\]\(([^)\s]+)\)/g;
const CODE = /`([^`\s]+)`/g;
const PATH = /^(?:src|test|docs|bench|scripts|packages)\/[\w./-]+$/;
const BARE_DOC = /^[\w-]+\.md$/;

const documents = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The links and paths of one document that name no file or folder. */
function brokenReferences(document: string, text: string): string[] {
  const broken: string[] = [];
  const here = path.dirname(path.join(ROOT, document));
  for (const [, target] of text.matchAll(LINK)) {
    if (/^(?:[a-z]+:|#)/.test(target!)) continue;
    if (!fs.existsSync(path.resolve(here, target!.split('#')[0]!))) broken.push(`${document}: link ${target}`);
  }
  for (const [, code] of text.matchAll(CODE)) {
    if (PATH.test(code!) && !code!.startsWith('bench/results/')) {
      if (!fs.existsSync(path.join(ROOT, code!))) broken.push(`${document}: path ${code}`);
    } else if (BARE_DOC.test(code!) && code !== 'README.md') {
      if (!fs.existsSync(path.join(ROOT, 'docs', code!))) broken.push(`${document}: path ${code}`);
    }
  }
  return broken;
}

test('a missing file is found, as a link and as a path', () => {
  assert.deepEqual(
    brokenReferences(
      'docs/x.md',
      'see [a](contract.md), [b](nowhere.md#x), `src/app.ts`, `src/nowhere.ts` and `interface.md`',
    ),
    ['docs/x.md: link nowhere.md#x', 'docs/x.md: path src/nowhere.ts', 'docs/x.md: path interface.md'],
  );
});

test('every relative link and every path named in README.md and docs/*.md exists', () => {
  const broken = documents.flatMap((document) =>
    brokenReferences(document, fs.readFileSync(path.join(ROOT, document), 'utf8')),
  );
  assert.deepEqual(broken, []);
});
