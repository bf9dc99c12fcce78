/**
 * Writes the console pages' golden files (test/fixtures/console-pages/<scenario>.html) from the fixed
 * input of test/unit/console-pages/scenarios.ts. Run it on purpose after changing a page, then read
 * the diff: it is exactly what an operator will see differently. The tests only compare, never write.
 *
 *   node --import tsx scripts/write-console-page-goldens.ts
 */
import fs from 'node:fs';
import { GOLDEN_FOLDER, SCENARIOS } from '../test/unit/console-pages/scenarios.js';

fs.rmSync(GOLDEN_FOLDER, { recursive: true, force: true });
fs.mkdirSync(GOLDEN_FOLDER, { recursive: true });
for (const [name, render] of Object.entries(SCENARIOS))
  fs.writeFileSync(new URL(`${name}.html`, GOLDEN_FOLDER), render());
console.log(`${Object.keys(SCENARIOS).length} golden files written to ${GOLDEN_FOLDER.pathname}`);
