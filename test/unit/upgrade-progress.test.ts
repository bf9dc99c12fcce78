/** The upgrade's progress on standard error (cli/progress.ts): a bar redrawn on a terminal, plain lines now and then elsewhere. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { upgradeProgress } from '../../src/cli/progress.js';

function stream(isTTY: boolean): { output: string[]; stderr: NodeJS.WriteStream } {
  const output: string[] = [];
  return { output, stderr: { isTTY, write: (text: string) => output.push(text) } as unknown as NodeJS.WriteStream };
}

test('on a terminal: one bar redrawn in place at every report, ended by a newline', () => {
  const { output, stderr } = stream(true);
  const progress = upgradeProgress(stderr);
  for (const copied of [0, 1000, 2000, 3000]) progress.report(copied, 3000);
  progress.done();
  assert.equal(output.length, 5);
  assert.ok(output.slice(0, 4).every((text) => text.startsWith('\r[') && text.endsWith('\u001b[K')));
  assert.match(output[1]!, /^\r\[########\.{16}\] 33% upgrade: orders copied into records: 1,000 of 3,000, ETA /);
  assert.match(output[3]!, /\[#{24}\] 100% .*3,000 of 3,000/);
  assert.equal(output[4], '\n');
});

test('elsewhere: a plain line at the start, at each further tenth and at the end, nothing redrawn', () => {
  const { output, stderr } = stream(false);
  const progress = upgradeProgress(stderr);
  for (let copied = 0; copied <= 20_000; copied += 1000) progress.report(copied, 20_000);
  progress.done();
  assert.deepEqual(
    output,
    [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map(
      (percent) =>
        `upgrade: orders copied into records: ${(percent * 200).toLocaleString('en')} of 20,000 (${percent}%)\n`,
    ),
  );
});

test('nothing to copy: nothing shown', () => {
  const { output, stderr } = stream(true);
  const progress = upgradeProgress(stderr);
  progress.report(0, 0);
  progress.done();
  assert.deepEqual(output, []);
});
