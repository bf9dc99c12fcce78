// Mutation testing (docs/testing.md, "Mutation testing"): `npm run mutate`. Each test file runs
// in its own node process (the TAP runner) on the instrumented sources, so only tests that start
// the service in-process (test/helpers/test-service.ts) or call the code directly can kill a
// mutant; the CLI tests run the built dist and are left out. TEST_STORE picks the store the
// integration files run on (scripts/mutate.ts runs this once per store).
const store = process.env.TEST_STORE ?? 'sqlite';

/** The version check of an order's write, run on both stores. */
export const versionCheck = [
  'src/store/order-change.ts',
  'src/store/sqlite/order-change.ts',
  'src/store/postgres/order-change.ts',
  // recordWrite: the update that moves the version on, only if it is still the one read.
  'src/store/repositories/orders-repository.ts:159-168',
];

const everywhere = [
  'src/domain/**/*.ts',
  'src/webhook-delivery/**/*.ts',
  'src/http/envelope.ts',
  'src/http/error-mapping.ts',
  'src/http/error-handler.ts',
  'src/console/sessions.ts',
  'src/console/csrf-check.ts',
  // requireSession, requireLoginCookie, requireCsrf: where the session and CSRF rules are applied.
  'src/console/console-gate.ts:53-87',
  ...versionCheck,
];

const unit = [
  'address-ranges', 'coupon-reassignment', 'currencies', 'deadline-consequence', 'money', 'order-sums',
  'refunds', 'retry-schedule', 'transitions', 'voluntary-refunds',
].map((name) => `test/unit/${name}.test.ts`);

// Fastest first: a mutant's covering files run in this order until one fails.
const integration = [
  'order-version', 'wire-format', 'webhooks-guard', 'errors', 'console-refusals', 'console-acts', 'webhooks',
  'cancel', 'involuntary-accept', 'involuntary-cancel', 'voluntary-refunds', 'concurrency', 'console',
].map((name) => `test/integration/${name}.test.ts`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'tap',
  plugins: ['@stryker-mutator/tap-runner'],
  tap: {
    testFiles: store === 'sqlite' ? [...unit, ...integration] : integration,
    nodeArgs: ['--import', 'tsx', '--test-reporter=tap'],
    forceBail: true,
  },
  mutate: store === 'sqlite' ? everywhere : versionCheck,
  coverageAnalysis: 'perTest',
  checkers: [],
  concurrency: 2,
  timeoutMS: 60_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 20,
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${store}.json`,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation-${store}.json` },
  htmlReporter: { fileName: `reports/mutation-${store}.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['bench/results', 'data', 'docs', 'reports'],
};
