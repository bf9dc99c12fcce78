import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';

const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

/**
 * Runs `airorder ARGS…`, which must stop at once: exit 1, nothing on stdout, and one `error: …`
 * line on stderr (not a stack trace). Returns that line.
 */
async function stops(args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await sandbox.run(args, { env, timeoutMs: 15_000 });
  assert.equal(result.code, 1, `expected exit 1, got ${result.code}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line of error, not a stack trace:\n${result.stderr}`);
  assert.match(lines[0]!, /^error: /);
  return lines[0]!;
}

describe('a bad setting stops every command with one line naming it', () => {
  test('LOG_LEVEL outside the levels README lists: serve and any other command, before anything runs', async () => {
    const expected = 'error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "bogus".';
    // PORT 0: were the level not checked, serve would get as far as listening before the logger refused it.
    assert.equal(await stops(['serve'], { LOG_LEVEL: 'bogus', PORT: '0' }), expected);
    assert.equal(await stops(['migrate'], { LOG_LEVEL: 'bogus' }), expected);
    assert.equal(await stops(['orders', 'show', 'ORD-1'], { LOG_LEVEL: 'INFO' }),
      'error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "INFO".');
  });

  test('every level README lists is accepted', async () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      const result = await sandbox.run(['migrate'], { env: { LOG_LEVEL: level } });
      assert.equal(result.code, 0, `LOG_LEVEL=${level}: ${result.stderr}`);
    }
  });
});
