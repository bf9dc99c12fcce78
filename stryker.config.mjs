// Mutation testing (docs/testing.md, "Mutation testing"): `npm run mutate` (scripts/mutate.ts) runs
// Stryker once per area below (MUTATE_AREA), on each of the area's stores (TEST_STORE), each with
// the test files that exercise it. Every area together covers all of src/ but static data (the
// OpenAPI document's examples, the demo's orders) and the types-only files, which hold no code.
//
// Every chunk of an area (scripts/mutation-chunks.ts) starts with a first ("dry") run of all the
// area's test files: the areas whose list holds CLI processes take bigger chunks (chunkMutants), so
// that their minutes-long dry run is paid a few times, not once per hundred mutants.
//
// Each test file runs in its own node process (the TAP runner) on the instrumented sources. The
// sandbox's dist/ is built from them too (buildCommand), so the CLI and `airorder serve` that a
// test starts run the mutant as well; test/mutation/child-coverage.cjs tells Stryker which mutants
// those processes reached. Within an area the quick files come first: a mutant is done with at
// the first file that fails, and only the files that reach it run.
import path from 'node:path';

const unit = (...names) => names.map((name) => `test/unit/${name}.test.ts`);
const integration = (...names) => names.map((name) => `test/integration/${name}.test.ts`);
const cli = (...names) => names.map((name) => `test/cli/${name}.test.ts`);

/** The code of the schema and its changes: the migrations, the upgrade of former versions' data, opening a database. */
const SCHEMA_CODE = ['src/store/migrations/', 'src/store/upgrade/', 'src/store/migrator.ts', 'src/store/open-store.ts'];
/** How SQLite's file is opened and kept: durability, background checkpoints. */
const SQLITE_FILE_CODE = [
  'src/store/sqlite/sqlite-store.ts',
  'src/store/sqlite/checkpointer.ts',
  'src/store/open-store.ts',
];
/** What a console upload goes through: the gate, the multipart reader, its folder, the import and its route. */
const UPLOAD_CODE = [
  'src/console/console-gate.ts',
  'src/console/console-plugin.ts',
  'src/console/upload-reader.ts',
  'src/console/upload-folders.ts',
  'src/console/console-imports.ts',
  'src/console/routes/import-routes.ts',
];

export const AREAS = {
  domain: {
    mutate: ['src/domain/**/*.ts'],
    testFiles: unit(
      'coupon-reassignment',
      'currencies',
      'deadline-consequence',
      'domain-edges',
      'money',
      'order-sums',
      'refunds',
      'transitions',
      'voluntary-refunds',
    ),
  },
  documents: {
    mutate: ['src/documents/**/*.ts'],
    testFiles: [
      // The readers' own unit tests first, each under a second or two: most mutants die there.
      ...unit(
        'field-readers',
        'document-error',
        'segment-reader',
        'fare-readers',
        'change-document',
        'order-document',
        'order-tickets',
        'order-view',
        'json-syntax',
        'document-reader',
        'text-position',
        'json-records',
        'record-stream',
        'json-record-bounds',
        'record-stream-bounds',
        'document-fields',
      ),
      ...integration('import-beside-traffic', 'change-segment-ids'),
      ...cli('changes-import', 'orders-import'),
      ...integration('store-cli'),
      ...cli('import-fare-rules', 'import-errors', 'import-amounts'),
    ],
  },
  http: {
    chunkMutants: 600,
    mutate: [
      'src/http/**/*.ts',
      '!src/http/openapi/examples.ts',
      '!src/http/openapi/refund-examples.ts',
      'src/errors/**/*.ts',
      'src/app.ts',
    ],
    testFiles: [
      ...unit(
        'envelope',
        'error-mapping',
        'error-texts',
        'system-error',
        'rate-limiter',
        'with-timeout',
        'connection-address-key',
        'operation-errors',
        'connection-limits',
        'idempotency-key',
        'lenient-input',
        'result-items',
        'order-wire',
        'error-handler-answers',
        'field-rules',
        'validation-message',
        'operation-docs',
        'operation-schemas',
        'token-lookup',
        'token-uses',
        'wire-order-serializer',
      ),
      ...integration(
        'content-coding',
        'docs-page',
        'security-headers',
        'health-routes',
        'request-log',
        'parser-refusals',
        'token-last-use',
        'error-handler',
        'smoke',
        'errors',
        'retrieve',
        'auth-tenancy',
        'wire-format',
        'idempotency',
        'kept-responses-cap',
        'validation',
        // The item-level texts of src/errors/item-error.ts as a refund quote answers them.
        'voluntary-refunds',
        'openapi',
        'openapi-fuzz',
        'app-assembly',
        'metrics',
      ),
      // The client's types against the served OpenAPI document: the schemas' words (descriptions) no other file reads.
      'packages/client/test/wire-types.test.ts',
      ...cli('connection-limits'),
      ...integration('limits', 'hostile-input'),
    ],
  },
  service: {
    chunkMutants: 560,
    mutate: ['src/service/**/*.ts', 'src/events/**/*.ts'],
    testFiles: [
      ...unit('change-notice', 'booking-fingerprint', 'refund-operations'),
      ...integration(
        // runOperation, the imports' checks and the webhook endpoints' commands called in process, word for word.
        'order-operations',
        'webhook-endpoint-admin',
        'change-import-checks',
        'change-segment-ids',
        'order-import-checks',
        'order-preparation-thread',
        'import-beside-traffic',
        'metrics',
        'involuntary-accept',
        'deadlines',
        'cancel',
        'event-feed',
        'concurrency',
        'retrieve',
        'involuntary-cancel',
        'audit',
        'idempotency',
        'voluntary-refunds',
        'token-admin',
        // The operator's commands in process: agency-admin.ts's lines and refusals, word for word;
        // webhook-endpoints.ts's deliveries and pings.
        'cli-agency',
        'cli-token',
        'cli-webhook',
      ),
      ...cli('changes-import', 'orders-import'),
      ...integration('webhooks'),
    ],
  },
  console: {
    chunkMutants: 700,
    mutate: ['src/console/**/*.ts'],
    testFiles: [
      ...unit(
        'console-pages',
        'console-html',
        'console-form-body',
        'console-cookies-csrf',
        'password-hash',
        'remembered-refusals',
        'sign-in-purge',
        'console-session-secrets',
      ),
      ...integration(
        'request-tally',
        'sign-in-checks',
        'console-refusals',
        // The agency forms' fields at their bounds: otherwise only the browser's tests reach those rules.
        'console-agency-forms',
        'console-unread-bodies',
        'console-sessions',
        'console-ownership',
        'console-acts',
        'console-body-limits',
        'sign-in-processes',
        'console-import-recovery',
        'console',
        // An import's summary the database refuses, an import another process ended: nothing stored.
        'console-import-outcome',
        // A form and an upload while SQLite's write lock is held elsewhere: the 503 and its words, and
        // an import's outcome the store refuses. Half a minute of held locks: after the quicker files.
        'console-store-unavailable',
      ),
      // An upload the disk refuses (a file-size limit): the 500, not the 400 of a malformed form.
      ...cli('console-upload-disk-error', 'console-upload-memory', 'operator'),
      ...integration('sign-in-limits'),
      ...cli('console-processes', 'console-import-stream'),
    ],
    // Uploads of 90 to 99 MiB, there to hold what an upload costs in memory: minutes each, for code
    // an upload goes through (the store's onlyFor, below, says why).
    onlyFor: {
      [cli('console-upload-memory')[0]]: UPLOAD_CODE,
      [cli('console-import-stream')[0]]: UPLOAD_CODE,
    },
  },
  store: {
    chunkMutants: 600,
    mutate: ['src/store/**/*.ts'],
    // Each store's run mutates what both share and its own engine's code; the other engine's code is never loaded there.
    perStore: {
      sqlite: { exclude: ['!src/store/postgres/**'] },
      postgres: { exclude: ['!src/store/sqlite/**'] },
    },
    testFiles: [
      ...unit('raw-sql', 'sortable-id', 'order-record', 'change-tally', 'repositories-names', 'upgrade-progress'),
      ...integration(
        // What each migration makes of the schema, and its rollback takes away: a second a mutant of a migration.
        'schema-history',
        // What a DATABASE_URL opens, or why it cannot: the lines the commands print, in process.
        'open-store',
        // The console imports' rows, written and read in process: a mistake in their update would
        // otherwise hang every file that waits for an import to end, until Stryker's time-out.
        'console-imports-store',
        'postgres-outage',
        'postgres-pool',
        'upgrade-postgres',
        'token-last-use',
        'order-version',
        'deadlines',
        'order-version-race',
        'event-feed',
        'concurrency',
        'retrieve',
        // The imports' reads and writes of records (versions, trails, changes added to records read
        // anew) and the token listing and revoking by id: in process, a few seconds each.
        'order-import-checks',
        'change-import-checks',
        'token-admin',
        'cli-token',
        // The demo set up again: what its agency's use left is removed (demo-repository.ts).
        'demo-setup',
        // The API's request counts as the store keeps them, per minute and code, added up across flushes.
        'request-tally',
        'console-acts',
        // The console's and the operator's reads: the journal, imports, pages' queries, sessions; events by id; the pending changes' tally.
        'cli-operator',
        'cli-webhook',
        'console-ownership',
        'console-import-recovery',
        'console-import-outcome',
        'console-sessions',
        'sign-in-checks',
        'console',
        'metrics',
        'involuntary-cancel',
        'audit',
        // A refund quote's audit entry, the one write of a record that changes no booking.
        'voluntary-refunds',
        'group-commit',
        'idempotency',
        'kept-responses-cap',
        'webhook-dispatcher',
      ),
      // What serve hands SQLite's store (background checkpoints, the log's limit): a running service's file and log.
      ...cli('durability', 'checkpoint'),
      ...integration('webhooks', 'store-cli'),
      ...cli('migrate', 'upgrade'),
    ],
    // Files of minutes each that a chunk runs only when it holds the code they are in the list for
    // (a path, or a folder ending in /). Elsewhere they reach everything a running service reaches,
    // and every survivor waited for them: in the chunks run with them, they were the first to kill
    // none of the mutants the in-process files left.
    onlyFor: {
      [cli('durability')[0]]: SQLITE_FILE_CODE,
      [cli('checkpoint')[0]]: SQLITE_FILE_CODE,
      [integration('store-cli')[0]]: SCHEMA_CODE,
      [cli('migrate')[0]]: SCHEMA_CODE,
      [cli('upgrade')[0]]: SCHEMA_CODE,
    },
  },
  'webhook-delivery': {
    mutate: ['src/webhook-delivery/**/*.ts'],
    testFiles: [
      ...unit('retry-schedule', 'address-guard', 'webhook-sender'),
      ...integration('webhooks-guard', 'webhook-outcomes', 'webhook-dispatcher', 'webhooks', 'webhooks-metrics'),
    ],
  },
  cli: {
    chunkMutants: 350,
    // Reached only by `airorder serve` processes: its mutants take minutes each, in a chunk of their own.
    alone: ['src/cli/serve.ts'],
    mutate: ['src/cli/**/*.ts', 'src/demo/**/*.ts', '!src/demo/demo-data.ts'],
    testFiles: [
      // The pure parts first (progress lines, options, the demo's printed examples), then the demo and the commands in process.
      ...unit(
        'progress',
        'upgrade-progress',
        'workers-option',
        'serve-flags',
        'demo-examples',
        'demo-example-choice',
        'standard-input',
        'wait-for-database',
      ),
      // The operator's commands in process, a file per command: a mutant runs only the file of its command.
      ...integration(
        'with-store',
        'demo-setup',
        'cli-parsing',
        'cli-failures',
        'cli-migrate',
        'cli-agency',
        'cli-token',
        'cli-orders',
        'cli-webhook',
        'cli-operator',
      ),
      ...cli('serve-start-failure', 'demo', 'changes-import', 'audit', 'orders-import', 'operator'),
      ...integration('store-cli', 'serve-database-wait'),
      ...cli('serve', 'checkpoint', 'migrate', 'configuration-errors', 'agency-token', 'webhook', 'import-errors'),
      // Workers left by a primary killed outright, and every way of starting: `serve.ts`'s chunk only.
      ...cli('shutdown'),
    ],
    onlyFor: {
      [cli('shutdown')[0]]: ['src/cli/serve.ts'],
    },
  },
  runtime: {
    chunkMutants: 460,
    // startServer is reached mostly by `airorder serve` processes (minutes a mutant; `server-start`
    // calls it in process for what no exit or signal is needed to see), in a chunk of its own.
    alone: ['src/server.ts'],
    mutate: [
      'src/runtime/**/*.ts',
      'src/lifecycle/**/*.ts',
      'src/metrics/**/*.ts',
      'src/server.ts',
      'src/config.ts',
      'src/address-ranges.ts',
      'src/client-address.ts',
      'src/duration.ts',
      'src/own-property.ts',
    ],
    testFiles: [
      ...unit(
        'config',
        'duration',
        'connection-address-key',
        'time-budget',
        'polling-loop',
        'clock',
        'process-identity',
        'parent-watch',
        'log-output',
        'own-property',
        'service-metrics',
        'pool-metrics',
        'cluster-metrics',
        'address-ranges',
        'configuration-docs',
      ),
      // A pass of the purge (server.ts's purgeExpired) in process: `serve` runs one only every ten minutes.
      ...integration('server-start', 'retention-purge', 'metrics', 'deadlines'),
      ...cli('serve-start-failure', 'deadlines-serve', 'metrics-workers', 'connection-limits'),
      ...integration('webhooks-metrics'),
      ...cli('serve', 'crash'),
      ...integration('limits'),
      ...cli('configuration-errors'),
      ...integration('multi-process'),
      ...cli('second-signal', 'shutdown'),
    ],
  },
};

/** The test files a chunk of these `files` runs: the area's list, less the `onlyFor` files whose code it does not hold. */
export function chunkTestFiles(spec, files) {
  const holds = (code) => files.some((file) => (code.endsWith('/') ? file.startsWith(code) : file === code));
  return spec.testFiles.filter((test) => !spec.onlyFor?.[test] || spec.onlyFor[test].some(holds));
}
// Where Stryker reads the list below, a chunk's run names its files (MUTATE_FILES, scripts/mutate.ts).
if (process.env.MUTATE_FILES) {
  for (const spec of Object.values(AREAS)) spec.testFiles = chunkTestFiles(spec, process.env.MUTATE_FILES.split(','));
}

/** The stores an area runs on: every area on SQLite, the store's code on PostgreSQL too. */
export function storesOf(area) {
  return Object.keys(AREAS[area].perStore ?? { sqlite: null });
}

const area = process.env.MUTATE_AREA ?? 'domain';
const store = process.env.TEST_STORE ?? 'sqlite';
if (!AREAS[area]) throw new Error(`MUTATE_AREA must be one of ${Object.keys(AREAS).join(', ')}; got ${area}`);
// scripts/mutate.ts runs an area in chunks: MUTATE_FILES are the chunk's files, MUTATE_CHUNK names its reports.
const chunk = process.env.MUTATE_CHUNK ?? `${area}-${store}/all`;
const files = process.env.MUTATE_FILES?.split(',');
// While killing survivors: MUTATE_TEST_FILES runs only the test files named (comma-separated) instead of the area's.
const listed = process.env.MUTATE_TEST_FILES?.split(',') ?? AREAS[area].testFiles;
// Stryker tries a mutant's files in this order and stops at the first that fails: a chunk's own
// test files (test/…/config.test.ts for src/config.ts) go first, as the likeliest to fail.
const mutated = new Set((files ?? []).map((file) => path.basename(file, '.ts')));
const ownTests = (file) => mutated.has(path.basename(file, '.test.ts'));
const testFiles = [...listed.filter(ownTests), ...listed.filter((file) => !ownTests(file))];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'tap',
  // The checkpoint reporter keeps the results as they come, so that a chunk stopped midway resumes (scripts/mutation-checkpoint.mjs).
  plugins: ['@stryker-mutator/tap-runner', './scripts/mutation-checkpoint.mjs'],
  tap: {
    testFiles,
    // The children's coverage hook first, so that it adds theirs before Stryker's hook reports.
    nodeArgs: [
      '--require',
      './test/mutation/child-coverage.cjs',
      '--require',
      '{{hookFile}}',
      '--import',
      'tsx',
      '--test-reporter=tap',
      '{{testFile}}',
    ],
    forceBail: true,
  },
  mutate: files ?? [...AREAS[area].mutate, ...(AREAS[area].perStore?.[store]?.exclude ?? [])],
  buildCommand: 'npm run build',
  // The sandbox's copies of the mutated code need `// @ts-nocheck` for the build (tsc) to take them;
  // only src/ is built. Stryker's default marks every file, and so changed the committed client types
  // that packages/client/test/wire-types.test.ts compares with what the service serves.
  disableTypeChecks: 'src/**/*.ts',
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutMS: 30_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 60,
  incremental: true,
  incrementalFile: `reports/mutation/${chunk}.incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html', 'checkpoint'],
  jsonReporter: { fileName: `reports/mutation/${chunk}.json` },
  htmlReporter: { fileName: `reports/mutation/${chunk}.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // One per area and store, so that runs of several areas at once keep out of each other's sandboxes.
  tempDirName: `.stryker-tmp/${area}-${store}`,
  cleanTempDir: true,
  // docs/ is copied: tests compare it with what the code generates (the Postman collection, the examples).
  ignorePatterns: ['bench/results', 'data', 'reports', '.stryker-tmp'],
};
