/**
 * The lint rule that keeps names from outside off plain objects (lint/no-plain-object-lookup.js,
 * docs/security.md, "Lookups by name"). The project's ESLint configuration turns it on for every file
 * of src/; here it runs with type information on files planted in a temporary project: each breach
 * is reported, and each safe look-alike beside it is not, so that a clean `npm run lint` means the
 * rule holds, not that it is blind.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import lookups from '../../lint/no-plain-object-lookup.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const RULE = 'airorder/no-plain-object-lookup';
const planted = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-lookup-rule-'));
let files = 0;

after(() => fs.rmSync(planted, { recursive: true, force: true }));

async function reported(code: string): Promise<number[]> {
  files += 1;
  const file = path.join(planted, `planted-${files}.ts`);
  fs.writeFileSync(file, code);
  fs.writeFileSync(
    path.join(planted, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, target: 'ES2022', lib: ['ES2023'], types: [] },
      include: ['*.ts'],
    }),
  );
  const eslint = new ESLint({
    cwd: planted,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: {
          parser: tseslint.parser,
          parserOptions: { projectService: true, tsconfigRootDir: planted },
        },
        plugins: { airorder: lookups },
        rules: { [RULE]: 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([file]);
  const fatal = result!.messages.filter((message) => message.fatal);
  assert.deepEqual(fatal, [], 'the planted file parses');
  return result!.messages.filter((message) => message.ruleId === RULE).map((message) => message.line);
}

test("the project's configuration turns the rule on for every file of src/", async () => {
  const eslint = new ESLint({ cwd: ROOT });
  for (const file of ['src/console/routes/order-routes.ts', 'src/http/validation-message.ts', 'src/app.ts']) {
    const config = (await eslint.calculateConfigForFile(path.join(ROOT, file))) as { rules: Record<string, unknown> };
    assert.deepEqual(config.rules[RULE], [2], file);
  }
});

test('a string looked up, read or written, on a Record<string, T> or an index signature is reported', async () => {
  const lines = await reported(
    [
      'const ACTIONS: Record<string, number> = { accept: 1 };',
      'export const read = (name: string) => ACTIONS[name];',
      'export const write = (name: string) => { ACTIONS[name] = 2; };',
      'export const indexed = (bag: { [key: string]: unknown }, name: string) => bag[name];',
      'export const maybe = (bag: Record<string, unknown> | undefined, name: string) => bag?.[name];',
      'export const template = (name: string) => ACTIONS[`${name}`];',
    ].join('\n'),
  );
  assert.deepEqual(lines, [2, 3, 4, 5, 6]);
});

test('a Map, a key narrowed to literals, an array or string by number, and a literal key are not reported', async () => {
  const lines = await reported(
    [
      "const ACTIONS = new Map([['accept', 1]]);",
      'export const read = (name: string) => ACTIONS.get(name);',
      "const NAMED: Record<'accept' | 'cancel', number> = { accept: 1, cancel: 2 };",
      "export const narrowed = (name: 'accept' | 'cancel') => NAMED[name];",
      'export const item = (list: string[], index: number) => list[index];',
      'export const letter = (text: string, index: number) => text[index];',
      'const BAG: Record<string, number> = { accept: 1 };',
      "export const literal = () => BAG['accept'];",
      'export const own = (name: string) => Object.getOwnPropertyDescriptor(BAG, name)?.value;',
    ].join('\n'),
  );
  assert.deepEqual(lines, []);
});
