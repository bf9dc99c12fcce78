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
  // How far it got in 3 s depends on the machine's load: listening and answering, or not yet, and
  // with or without output. Whichever it is, the error says so.
  await assert.rejects(
    sandbox.serve(['--demo'], { waitForStderr: 'a line serve never prints', startLimitMs: 3_000 }),
    (error: Error) => {
      assert.match(
        error.message,
        /^airorder serve did not become healthy within \d+ ms \(TEST_TIME_SCALE multiplies it\): still running \(pid \d+\); \/healthz: (HTTP 200|not listening \(ECONNREFUSED\)|no answer yet|no answer); waiting for "a line serve never prints" on stderr; its last lines:\n./,
      );
      const shown = error.message.split('; its last lines:\n')[1]!.split('\n');
      if (shown[0] === '(it printed nothing)') assert.equal(shown.length, 1);
      else assert.ok(shown.length <= 21, `at most 20 lines and a note of those left out: ${shown.length}`);
      return true;
    },
  );
});
