/**
 * docs/configuration.md is the one list of settings: every variable the configuration reads has its
 * row there with its default, and every row names a variable something reads, so that a setting
 * added, renamed or given a new default cannot leave the document behind.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULTS } from '../../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
// `serve --workers` reads its own variable (src/cli/main.ts), not the configuration object.
const READ_BY_THE_CLI = ['WORKERS'];

/** The table's rows: variable → its Default cell. */
function documented(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of DOC.split('\n')) {
    const cells = /^\| `([A-Z0-9_]+)` \| ([^|]*) \|/.exec(line);
    if (cells) rows.set(cells[1]!, cells[2]!.trim());
  }
  return rows;
}

test('every setting the configuration reads has a row in docs/configuration.md, with its default', () => {
  const rows = documented();
  for (const [name, value] of Object.entries(DEFAULTS)) {
    const cell = rows.get(name);
    assert.ok(cell !== undefined, `${name} has no row in docs/configuration.md`);
    if (value === '') assert.equal(cell, '(none)', `${name}: no default is shown as (none)`);
    else assert.ok(cell.includes(`\`${value}\``), `${name}: the row shows ${cell}, the default is ${value}`);
  }
});

test('every row of docs/configuration.md names a setting that is read', () => {
  const known = new Set([...Object.keys(DEFAULTS), ...READ_BY_THE_CLI]);
  assert.deepEqual(
    [...documented().keys()].filter((name) => !known.has(name)),
    [],
  );
});
