import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { GOLDEN_FOLDER, SCENARIOS } from './console-pages/scenarios.js';

/**
 * Every console page, in every state it can show, rendered from fixed input and compared whole with
 * its golden file: texts, escaping of each value, forms (action, method, fields, CSRF token), links
 * and buttons. A page changed on purpose gets its golden files rewritten by
 * scripts/write-console-page-goldens.ts (docs/testing.md), and the diff is reviewed with the change.
 */
for (const [name, render] of Object.entries(SCENARIOS)) {
  test(`console page ${name} is its golden file`, () => {
    const golden = fs.readFileSync(new URL(`${name}.html`, GOLDEN_FOLDER), 'utf8');
    assert.equal(render(), golden);
  });
}

test('every golden file belongs to a scenario (none left behind by a renamed one)', () => {
  const files = fs.readdirSync(GOLDEN_FOLDER).sort();
  assert.deepEqual(
    files,
    Object.keys(SCENARIOS)
      .map((name) => `${name}.html`)
      .sort(),
  );
});
