import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The layers' direction (docs/decisions.md, "Layers"): the rules (domain) depend on nothing but the
// error catalogue, the service on neither HTTP nor the console nor the CLI, and the catalogue on
// nothing. Checked on the source's own imports, including what each file reaches through others.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every file's relative imports (static, type-only, re-exports, dynamic), as paths from the repository root. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const specifier = /(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g;
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(specifier)]
      .map((match) => relative(ROOT, resolve(dirname(file), match[1]!)).replace(/\.js$/, '.ts'));
    graph.set(relative(ROOT, file), targets);
  }
  return graph;
}

const GRAPH = importGraph();

function reached(from: string): Set<string> {
  const seen = new Set<string>();
  const pending = [...(GRAPH.get(from) ?? [])];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...(GRAPH.get(file) ?? []));
  }
  return seen;
}

function filesUnder(folder: string): string[] {
  return [...GRAPH.keys()].filter((file) => file.startsWith(`${folder}/`)).sort();
}

/** `file -> target` for each of the files' imports (direct, or reached when `transitive`) that `forbidden` matches. */
function violations(files: string[], forbidden: (target: string) => boolean, transitive: boolean): string[] {
  return files.flatMap((file) => [...(transitive ? reached(file) : GRAPH.get(file) ?? [])]
    .filter(forbidden)
    .map((target) => `${file} -> ${target}`));
}

const EDGE = ['src/http/', 'src/console/', 'src/cli/'];

describe('layer imports', () => {
  test('the graph is read: a route reaches the service and the rules through it', () => {
    const fromRoute = reached('src/http/routes/operation-routes.ts');
    assert.ok(fromRoute.has('src/service/order-operations.ts'));
    assert.ok(fromRoute.has('src/domain/booking-outcome.ts'));
    assert.ok(fromRoute.has('src/errors/item-error.ts'));
    assert.ok(filesUnder('src/domain').length > 5 && filesUnder('src/service').length > 5);
  });

  test('the rules import only the rules and the error catalogue', () => {
    const domain = filesUnder('src/domain');
    assert.deepEqual(violations(domain, (target) => !target.startsWith('src/domain/') && !target.startsWith('src/errors/'), false), []);
  });

  test('the error catalogue imports nothing outside itself', () => {
    assert.deepEqual(violations(filesUnder('src/errors'), (target) => !target.startsWith('src/errors/'), false), []);
  });

  test('nothing the service or the rules reach is HTTP, the console or the CLI', () => {
    const files = [...filesUnder('src/domain'), ...filesUnder('src/service'), ...filesUnder('src/events')];
    assert.ok(files.includes('src/service/agency-admin.ts'));
    assert.deepEqual(violations(files, (target) => EDGE.some((edge) => target.startsWith(edge)), true), []);
  });

  test('the service and the rules never raise the HTTP errors (statuses are the HTTP layer\'s)', () => {
    const files = [...filesUnder('src/domain'), ...filesUnder('src/service')];
    assert.deepEqual(violations(files, (target) => target === 'src/errors/api-error.ts', true), []);
  });
});
