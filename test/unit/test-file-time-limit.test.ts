import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileTimeoutMs, runFiles } from '../../scripts/test-file-runner.js';
import { scaled, timeScale } from '../helpers/time-scale.js';

/** The test runner's per-file time limit: a file that never ends fails the run, named, instead of hanging it. */
const NEVER_ENDS = 'test/fixtures/never-ending-test.ts';
const PASSES = 'test/fixtures/passing-test.ts';
const LIMIT_MS = 4_000;

test(
  'a file that never ends is stopped at its limit and fails the run, named; the others count as usual',
  { timeout: scaled(60_000) },
  async () => {
    let out = '';
    let err = '';
    const started = performance.now();
    const tally = await runFiles([NEVER_ENDS, PASSES], {
      timeoutMs: LIMIT_MS,
      out: (text) => {
        out += text;
      },
      err: (text) => {
        err += text;
      },
    });
    const elapsed = performance.now() - started;

    assert.ok(
      elapsed < LIMIT_MS + scaled(5_000),
      `ended ${Math.round(elapsed)} ms after it started: within the limit, give or take a process's start`,
    );
    assert.equal(tally.pass, 1, 'the passing file counts');
    assert.equal(tally.fail, 1, 'the file that never ends is one failure');
    assert.notEqual(tally.exitCode, 0);
    const stopped = tally.files.find((file) => file.file === NEVER_ENDS)!;
    assert.equal(stopped.timedOut, true);
    assert.match(
      out,
      new RegExp(
        `^not ok - ${NEVER_ENDS.replace(/[.]/g, '\\.')} did not end within ${LIMIT_MS} ms \\(TEST_FILE_TIMEOUT_MS\\): stopped`,
        'm',
      ),
    );
    assert.equal(err, `did not end in time, stopped: ${NEVER_ENDS}\n`);
    assert.equal(tally.files.find((file) => file.file === PASSES)!.timedOut, false);
  },
);

test('TEST_FILE_TIMEOUT_MS sets the limit; ten minutes without it; nonsense is refused', () => {
  assert.equal(fileTimeoutMs({}), 600_000);
  assert.equal(fileTimeoutMs({ TEST_FILE_TIMEOUT_MS: '90000' }), 90_000);
  assert.throws(
    () => fileTimeoutMs({ TEST_FILE_TIMEOUT_MS: '10m' }),
    /TEST_FILE_TIMEOUT_MS must be a number of milliseconds, got "10m"/,
  );
});

test('TEST_TIME_SCALE multiplies the file limit, its default and a set one alike; 1 without it; nonsense is refused', () => {
  assert.equal(timeScale({}), 1);
  assert.equal(timeScale({ TEST_TIME_SCALE: '2.5' }), 2.5);
  assert.equal(fileTimeoutMs({ TEST_TIME_SCALE: '3' }), 1_800_000);
  assert.equal(fileTimeoutMs({ TEST_TIME_SCALE: '1.5', TEST_FILE_TIMEOUT_MS: '90000' }), 135_000);
  assert.equal(scaled(20_000, 3), 60_000);
  for (const text of ['0.5', '0', '101', 'x', '2s', '-2'])
    assert.throws(
      () => fileTimeoutMs({ TEST_TIME_SCALE: text }),
      new RegExp(`TEST_TIME_SCALE must be a number from 1 to 100, got "${text}"`),
    );
});
