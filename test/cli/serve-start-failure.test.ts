import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';

/**
 * The test helper that starts `airorder serve` (test/helpers/cli.ts): when the service does not
 * start, the failure says how the process ended, or that it still runs, and shows its last lines,
 * so that a test failing on a busy machine says why instead of ending on an empty message.
 */
const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

test('a service that exits before it is healthy: the error names its exit code and its last lines', async () => {
  await assert.rejects(sandbox.serve([], { env: { LOG_LEVEL: 'bogus' } }), (error: Error) => {
    assert.match(error.message, /^airorder serve ended before it became healthy: exited with code 1; \/healthz: /);
    assert.match(
      error.message,
      /; its last lines:\nerror: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "bogus"\.$/,
    );
    return true;
  });
});

test('a service still not ready at the limit: the error says it still runs, what /healthz answered and its last lines', async () => {
  await assert.rejects(
    sandbox.serve(['--demo'], { waitForStderr: 'a line serve never prints', startLimitMs: 3_000 }),
    (error: Error) => {
      assert.match(
        error.message,
        /^airorder serve did not become healthy within \d+ ms \(TEST_TIME_SCALE multiplies it\): still running \(pid \d+\); \/healthz: HTTP 200; waiting for "a line serve never prints" on stderr; its last lines:\n/,
      );
      const shown = error.message.split('; its last lines:\n')[1]!.split('\n');
      assert.ok(shown.length >= 1 && shown.length <= 21, `between 1 and 20 lines (and a note): ${shown.length}`);
      assert.ok(
        shown.some((line) => line.includes('"operation":"GET /healthz"')),
        `the service's own log lines, its log of the health checks among them: ${shown.join('\n')}`,
      );
      return true;
    },
  );
});
