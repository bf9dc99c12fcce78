/**
 * The import rules of .dependency-cruiser.js (docs/decisions.md, "Layers"), which
 * `npm run lint:deps` checks on src/. Here the same command, with the same configuration, runs on a
 * small tree planted in a temporary directory: each rule must fail the run on its planted breach and
 * let the look-alikes beside it pass, so that a clean src/ means the rules hold, not that they are blind.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.js');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Runs depcruise on `src` under `cwd` with the project's configuration; `err-long` is what `npm run lint:deps` prints. */
function depcruise(
  cwd: string,
  outputType: 'json' | 'err-long',
): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', outputType], {
    cwd,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The violations found, as `rule file` (the file of src/ each is reported from). */
function violations(cwd: string): string[] {
  const run = depcruise(cwd, 'json');
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return [...new Set(result.summary.violations.map((violation) => `${violation.rule.name} ${violation.from}`))].sort();
}

/** One breach per rule (the file named first in each pair), and the imports the rules allow. */
const PLANTED: Record<string, string> = {
  // Allowed: the store's own files may use the drivers, its insides and the engines.
  'src/store/store.ts': 'export interface Store { ping(): Promise<void> }\n',
  'src/store/executor.ts': "import type { Kysely } from 'kysely';\nexport type Executor = Kysely<unknown>;\n",
  'src/store/raw-sql.ts':
    "import type { Executor } from './executor.js';\nexport const runSql = (db: Executor) => db;\n",
  'src/store/repositories/agencies-repository.ts':
    "import { runSql } from '../raw-sql.js';\n" +
    'export interface Agency { id: string }\nexport const findAgency = runSql;\n',
  'src/store/sqlite/sqlite-store.ts':
    "import Database from 'better-sqlite3';\nexport const open = () => new Database(':memory:');\n",
  'src/store/open-store.ts': "import { open } from './sqlite/sqlite-store.js';\nexport const openStore = open;\n",
  'src/runtime/clock.ts': 'export const systemClock = () => new Date().toISOString();\n',
  'src/errors/item-error.ts': 'export const itemErrors = {};\n',
  'src/errors/api-error.ts':
    "import { itemErrors } from './item-error.js';\nexport class ApiError extends Error { errors = itemErrors; }\n",
  'src/domain/money.ts':
    "import { itemErrors } from '../errors/item-error.js';\nexport const sum = (a: number) => a + Object.keys(itemErrors).length;\n",
  'src/http/route.ts': "export const route = () => 'route';\n",
  'src/http/error-handler.ts':
    "import { ApiError } from '../errors/api-error.js';\nexport const handle = () => new ApiError();\n",
  'src/webhook-delivery/sender.ts':
    "import { systemClock } from '../runtime/clock.js';\nexport const send = systemClock;\n",
  'src/service/uses-store.ts': [
    "import type { Agency } from '../store/repositories/agencies-repository.js';",
    "import { type Agency as Same } from '../store/repositories/agencies-repository.js';",
    "import type { Store } from '../store/store.js';",
    "import { openStore } from '../store/open-store.js';",
    "import { systemClock } from '../runtime/clock.js';",
    "import { sum } from '../domain/money.js';",
    'export const use = (store: Store, agency: Agency, same: Same) => [store, agency, same, openStore, systemClock, sum];',
  ].join('\n'),

  // no-circular, through a type-only import.
  'src/service/cycle-a.ts': "import type { B } from './cycle-b.js';\nexport interface A { b: B }\n",
  'src/service/cycle-b.ts': "import { a } from './cycle-c.js';\nexport type B = typeof a;\n",
  'src/service/cycle-c.ts': "import type { A } from './cycle-a.js';\nexport const a = {} as A | null;\n",
  // domain-is-pure
  'src/domain/reads-store.ts': "import type { Store } from '../store/store.js';\nexport type S = Store;\n",
  // domain-without-node-io
  'src/domain/reads-files.ts': "import fs from 'node:fs';\nexport const read = fs.readFileSync;\n",
  // domain-without-io-packages
  'src/domain/logs.ts': "import type { FastifyInstance } from 'fastify';\nexport type F = FastifyInstance;\n",
  // errors-stand-alone
  'src/errors/error-codes.ts': "import { sum } from '../domain/money.js';\nexport const codes = sum;\n",
  // service-not-edge, through a file in between
  'src/service/reaches-http.ts': "import { bridge } from '../documents/bridge.js';\nexport const x = bridge;\n",
  'src/documents/bridge.ts': "import { route } from '../http/route.js';\nexport const bridge = route;\n",
  // service-answers-without-http-errors, through a file in between
  'src/service/raises.ts': "import { bridge } from '../documents/raise.js';\nexport const y = bridge;\n",
  'src/documents/raise.ts': "import { ApiError } from '../errors/api-error.js';\nexport const bridge = ApiError;\n",
  // delivery-not-service
  'src/webhook-delivery/dispatcher.ts':
    "import { use } from '../service/uses-store.js';\nexport const dispatch = use;\n",
  // sql-packages-in-store
  'src/http/builds-queries.ts': "import { sql } from 'kysely';\nexport const q = sql;\n",
  // sql-insides-in-store
  'src/http/holds-a-handle.ts': "import type { Executor } from '../store/executor.js';\nexport type E = Executor;\n",
  // store-through-its-interface
  'src/console/calls-a-repository.ts':
    "import { findAgency } from '../store/repositories/agencies-repository.js';\nexport const f = findAgency;\n",
  // engines-behind-open-store
  'src/store/repositories/asks-the-engine.ts':
    "import { open } from '../sqlite/sqlite-store.js';\nexport const o = open;\n",
  // engine-drivers-in-engines
  'src/store/repositories/uses-a-driver.ts': "import pg from 'pg';\nexport const p = pg;\n",
  // not-to-unresolvable
  'src/cli/typo.ts': "import { nothing } from './no-such-file.js';\nexport const n = nothing;\n",
  // no-orphans
  'src/forgotten.ts': 'export const forgotten = 1;\n',
};

/** Each rule and the file of src/ it must be reported from (a cycle once, from its first file). */
const EXPECTED = [
  'no-circular src/service/cycle-a.ts',
  'domain-is-pure src/domain/reads-store.ts',
  'domain-without-node-io src/domain/reads-files.ts',
  'domain-without-io-packages src/domain/logs.ts',
  'errors-stand-alone src/errors/error-codes.ts',
  'service-not-edge src/service/reaches-http.ts',
  'service-answers-without-http-errors src/service/raises.ts',
  'delivery-not-service src/webhook-delivery/dispatcher.ts',
  'sql-packages-in-store src/http/builds-queries.ts',
  'sql-insides-in-store src/http/holds-a-handle.ts',
  'store-through-its-interface src/console/calls-a-repository.ts',
  'engines-behind-open-store src/store/repositories/asks-the-engine.ts',
  'engine-drivers-in-engines src/store/repositories/uses-a-driver.ts',
  'not-to-unresolvable src/cli/typo.ts',
  'no-orphans src/forgotten.ts',
];

describe('the dependency rules', () => {
  let planted = '';

  before(() => {
    planted = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-depcruise-'));
    for (const [file, text] of Object.entries(PLANTED)) {
      fs.mkdirSync(path.join(planted, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(planted, file), text);
    }
    fs.writeFileSync(path.join(planted, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(
      path.join(planted, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true },
        include: ['src'],
      }),
    );
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(planted, 'node_modules'), 'dir');
  });

  after(() => {
    if (planted) fs.rmSync(planted, { recursive: true, force: true });
  });

  test('each rule reports its planted breach, and nothing the layers allow', () => {
    assert.deepEqual(violations(planted), [...EXPECTED].sort());
  });

  test('a breach fails the run (the exit code counts the errors)', () => {
    const run = depcruise(planted, 'err-long');
    assert.equal(run.code, EXPECTED.length, run.stdout + run.stderr);
  });

  test('every rule of the configuration is planted here', async () => {
    const { default: config } = (await import(CONFIG)) as { default: { forbidden: { name: string }[] } };
    const named = new Set(EXPECTED.map((line) => line.split(' ')[0]));
    assert.deepEqual(
      config.forbidden.map((rule) => rule.name).filter((name) => !named.has(name)),
      [],
    );
  });

  test('hold on src/', () => {
    const run = depcruise(ROOT, 'err-long');
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // A cruise of nothing would pass everything.
    const cruised = /no dependency violations found \((\d+) modules/.exec(run.stdout);
    assert.ok(cruised && Number(cruised[1]) > 200, run.stdout);
  });
});
