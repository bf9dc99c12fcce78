// Mutation testing (docs/testing.md, "Mutation testing"): `npm run mutate` (scripts/mutate.ts) runs
// Stryker once per area below (MUTATE_AREA), each with the test files that exercise it. Each test
// file runs in its own node process (the TAP runner) on the instrumented sources, so only tests
// that start the service in-process (test/helpers/test-service.ts) or call the code directly can
// kill a mutant; tests that run the built CLI (test/cli, console.test.ts) see no mutant and are
// left out. TEST_STORE picks the store the integration files run on: the version check is run on
// SQLite and on PostgreSQL.
const unit = (...names) => names.map((name) => `test/unit/${name}.test.ts`);
const integration = (...names) => names.map((name) => `test/integration/${name}.test.ts`);

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
  'envelope-errors': {
    mutate: ['src/http/envelope.ts', 'src/http/error-mapping.ts', 'src/http/error-handler.ts'],
    // limits.test.ts (a request out of time: 503 UNAVAILABLE and its warning) last: it is slow.
    testFiles: [
      ...unit('error-mapping', 'envelope'),
      ...integration('error-handler', 'errors', 'wire-format', 'limits'),
    ],
  },
  'console-sessions-csrf': {
    // requireSession, requireLoginCookie, requireCsrf (console-gate.ts): where the session and CSRF rules are applied.
    mutate: ['src/console/sessions.ts', 'src/console/csrf-check.ts', 'src/console/console-gate.ts:66-102'],
    testFiles: integration('console-sessions', 'console-refusals'),
  },
  'version-check': {
    // What both stores share, and each store's own write: its own run mutates it (the other
    // store's code is never loaded there).
    mutate: [
      'src/store/order-update.ts',
      // recordWrite: the update that moves the version on, only if it is still the one read.
      'src/store/repositories/orders-repository.ts:221-231',
    ],
    perStore: { sqlite: ['src/store/sqlite/order-update.ts'], postgres: ['src/store/postgres/order-update.ts'] },
    // The quick files first: a mutant is done with at the first file that fails. limits.test.ts
    // (a request out of time before its write) is slow, so it comes last.
    testFiles: integration(
      'order-version-race',
      'order-version',
      'idempotency',
      'concurrency',
      'console-acts',
      'voluntary-refunds',
      'metrics',
      'involuntary-accept',
      'deadlines',
      'errors',
      'limits',
    ),
  },
  'webhook-delivery': {
    mutate: ['src/webhook-delivery/**/*.ts'],
    testFiles: [
      ...unit('retry-schedule', 'address-guard', 'webhook-sender'),
      ...integration('webhook-outcomes', 'webhook-dispatcher', 'webhooks-guard', 'webhooks'),
    ],
  },
};

const area = process.env.MUTATE_AREA ?? 'domain';
const store = process.env.TEST_STORE ?? 'sqlite';
if (!AREAS[area]) throw new Error(`MUTATE_AREA must be one of ${Object.keys(AREAS).join(', ')}; got ${area}`);
const run = `${area}-${store}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'tap',
  plugins: ['@stryker-mutator/tap-runner'],
  tap: {
    testFiles: AREAS[area].testFiles,
    nodeArgs: ['--import', 'tsx', '--test-reporter=tap'],
    forceBail: true,
  },
  mutate: [...AREAS[area].mutate, ...(AREAS[area].perStore?.[store] ?? [])],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 20,
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${run}.json`,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation-${run}.json` },
  htmlReporter: { fileName: `reports/mutation-${run}.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['bench/results', 'data', 'docs', 'reports'],
};
