/**
 * The CLI's progress lines on standard error (src/cli/progress.ts), on a stream that records what is
 * written and a test clock (node's mock timers stand in for Date): the exact text of each line, a
 * terminal against a log, the ETA and its units, and how often a log gets a line.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { countProgress, importProgress, upgradeProgress } from '../../src/cli/progress.js';

const T0 = Date.parse('2026-11-27T08:00:00.000Z');
const ERASE = '\u001b[K';

beforeEach(() => mock.timers.enable({ apis: ['Date'], now: T0 }));
afterEach(() => mock.timers.reset());

function stream(isTTY: boolean): { output: string[]; stderr: NodeJS.WriteStream } {
  const output: string[] = [];
  return { output, stderr: { isTTY, write: (text: string) => output.push(text) } as unknown as NodeJS.WriteStream };
}

/** A file of `size` bytes in a fresh directory, removed after the test. */
function fileOf(size: number, t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-progress-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'orders.json');
  fs.writeFileSync(file, 'x'.repeat(size));
  return file;
}

const bar = (hashes: number, percent: number) => `[${'#'.repeat(hashes)}${'.'.repeat(24 - hashes)}] ${percent}%`;

// --- importProgress ---

test('an import of a file on a terminal: a bar of the bytes read, the count, the rate and the ETA, redrawn in place', (t) => {
  const { output, stderr } = stream(true);
  const progress = importProgress(fileOf(1000, t), 'orders', stderr);
  mock.timers.tick(2000);
  progress.report(50, 250);
  mock.timers.tick(2000);
  progress.report(12_345, 500);
  progress.done();
  assert.deepEqual(output, [
    `\r${bar(6, 25)} orders: 50 (25/s), ETA 6s${ERASE}`,
    `\r${bar(12, 50)} orders: 12,345 (3,086/s), ETA 4s${ERASE}`,
    '\n',
  ]);
});

test('an import: nothing read yet has an unknown ETA, and no time gone a rate of 0', (t) => {
  const { output, stderr } = stream(true);
  const progress = importProgress(fileOf(1000, t), 'changes', stderr);
  progress.report(0, 0);
  progress.report(7, 0);
  assert.deepEqual(output, [
    `\r${bar(0, 0)} changes: 0 (0/s), ETA ?${ERASE}`,
    `\r${bar(0, 0)} changes: 7 (0/s), ETA ?${ERASE}`,
  ]);
});

test('an import: the ETA in minutes and seconds from a minute on, and a bar full at the end', (t) => {
  const { output, stderr } = stream(true);
  const progress = importProgress(fileOf(1000, t), 'orders', stderr);
  mock.timers.tick(30_000);
  progress.report(300, 100); // 30 s for a tenth: 270 s to go
  mock.timers.tick(30_000);
  progress.report(600, 500); // 60 s for a half: 60 s to go
  mock.timers.tick(60_000);
  progress.report(1200, 1200); // more than the file's size (the stream's last chunk): full, nothing to go
  assert.deepEqual(output, [
    `\r${bar(2, 10)} orders: 300 (10/s), ETA 4m30s${ERASE}`,
    `\r${bar(12, 50)} orders: 600 (10/s), ETA 1m00s${ERASE}`,
    `\r${bar(24, 100)} orders: 1,200 (10/s), ETA 0s${ERASE}`,
  ]);
});

test('an import: seconds that round up to a minute are written as a minute', (t) => {
  const { output, stderr } = stream(true);
  const progress = importProgress(fileOf(1000, t), 'orders', stderr);
  mock.timers.tick(59_600);
  progress.report(1, 500); // 59.6 s to go
  mock.timers.tick(60_000);
  progress.report(1, 500); // 119.6 s to go
  assert.deepEqual(
    output.map((line) => line.slice(line.indexOf('ETA'))),
    [`ETA 1m00s${ERASE}`, `ETA 2m00s${ERASE}`],
  );
});

test('an import from standard input (-): the count and the rate only, for its size is unknown', () => {
  const { output, stderr } = stream(true);
  const progress = importProgress('-', 'orders', stderr);
  mock.timers.tick(4000);
  progress.report(1000, 123_456);
  progress.done();
  assert.deepEqual(output, [`\rorders: 1,000 (250/s)${ERASE}`, '\n']);
});

test('an import of an empty file: no bar, as for standard input', (t) => {
  const { output, stderr } = stream(true);
  const progress = importProgress(fileOf(0, t), 'orders', stderr);
  mock.timers.tick(1000);
  progress.report(0, 0);
  assert.deepEqual(output, [`\rorders: 0 (0/s)${ERASE}`]);
});

test('an import where nobody watches (not a terminal): nothing written, not even the end of the line', (t) => {
  const { output, stderr } = stream(false);
  const progress = importProgress(fileOf(1000, t), 'orders', stderr);
  mock.timers.tick(1000);
  progress.report(10, 500);
  progress.done();
  assert.deepEqual(output, []);
});

test('an import that reported nothing ends no line', (t) => {
  const { output, stderr } = stream(true);
  importProgress(fileOf(1000, t), 'orders', stderr).done();
  assert.deepEqual(output, []);
});

test('an import of a missing file fails before anything is read, naming the file', () => {
  const { stderr } = stream(true);
  assert.throws(
    () => importProgress('/nonexistent/airorder/orders.json', 'orders', stderr),
    (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' && error.message.includes('/nonexistent/airorder/orders.json'),
  );
});

test('by default the lines go to the process standard error', (t) => {
  const written: string[] = [];
  t.mock.method(process.stderr, 'write', (text: string) => written.push(text) > 0);
  const wasTTY = process.stderr.isTTY;
  process.stderr.isTTY = true;
  try {
    const imported = importProgress('-', 'orders');
    imported.report(1, 0);
    imported.done();
    const upgrade = upgradeProgress();
    upgrade.report(1, 2);
    upgrade.done();
    const counted = countProgress('things');
    counted.report(1, 2);
    counted.done();
  } finally {
    process.stderr.isTTY = wasTTY;
  }
  assert.deepEqual(written, [
    `\rorders: 1 (0/s)${ERASE}`,
    '\n',
    `\r${bar(12, 50)} upgrade: orders copied into records: 1 of 2, ETA ?${ERASE}`,
    '\n',
    `\r${bar(12, 50)} things: 1 of 2, ETA ?${ERASE}`,
    '\n',
  ]);
});

// --- countProgress on a terminal ---

test('a count on a terminal: the ETA from the pace since the first report, in seconds, then minutes', () => {
  const { output, stderr } = stream(true);
  const progress = countProgress('copied', stderr);
  progress.report(0, 3000);
  mock.timers.tick(10_000);
  progress.report(1000, 3000); // a third in 10 s: 20 s to go
  mock.timers.tick(50_000);
  progress.report(1500, 3000); // a half in 60 s: 60 s to go
  mock.timers.tick(1_000);
  progress.report(3000, 3000);
  progress.done();
  assert.deepEqual(output, [
    `\r${bar(0, 0)} copied: 0 of 3,000, ETA ?${ERASE}`,
    `\r${bar(8, 33)} copied: 1,000 of 3,000, ETA 20s${ERASE}`,
    `\r${bar(12, 50)} copied: 1,500 of 3,000, ETA 1m00s${ERASE}`,
    `\r${bar(24, 100)} copied: 3,000 of 3,000, ETA 0s${ERASE}`,
    '\n',
  ]);
});

test('a count resumed part way: the ETA counts only what was done since the first report', () => {
  const { output, stderr } = stream(true);
  const progress = countProgress('copied', stderr);
  progress.report(1000, 4000);
  mock.timers.tick(10_000);
  progress.report(2000, 4000); // a quarter in 10 s, half to go: 20 s
  assert.deepEqual(output, [
    `\r${bar(6, 25)} copied: 1,000 of 4,000, ETA ?${ERASE}`,
    `\r${bar(12, 50)} copied: 2,000 of 4,000, ETA 20s${ERASE}`,
  ]);
});

test('a count that goes back (a copy begun again) shows no ETA rather than a negative one', () => {
  const { output, stderr } = stream(true);
  const progress = countProgress('copied', stderr);
  progress.report(500, 1000);
  mock.timers.tick(10_000);
  progress.report(400, 1000);
  assert.equal(output[1], `\r${bar(10, 40)} copied: 400 of 1,000, ETA ?${ERASE}`);
});

test('a count: the bar rounds to the nearest mark and the percentage down', () => {
  const { output, stderr } = stream(true);
  const progress = countProgress('copied', stderr);
  progress.report(1, 48); // 0.5 of 24 marks, 2.08 %
  progress.report(47, 48); // 23.5 marks, 97.9 %
  progress.report(999, 1000); // 23.976 marks, 99.9 %
  assert.deepEqual(
    output.map((line) => line.slice(1, line.indexOf('%') + 1)),
    [bar(1, 2), bar(24, 97), bar(24, 99)],
  );
});

test('a count: done ends the line once, and only when a bar was drawn', () => {
  const { output, stderr } = stream(true);
  const progress = countProgress('copied', stderr);
  progress.done();
  assert.deepEqual(output, []);
  progress.report(1, 2);
  progress.done();
  progress.done();
  assert.equal(output.length, 2);
  assert.equal(output[1], '\n');
});

test('a count of nothing, or of a negative total, shows nothing; a total of one is shown', () => {
  for (const isTTY of [true, false]) {
    const { output, stderr } = stream(isTTY);
    const progress = countProgress('copied', stderr);
    progress.report(0, 0);
    progress.report(0, -1);
    progress.done();
    assert.deepEqual(output, [], `isTTY ${isTTY}`);
    progress.report(1, 1);
    assert.equal(output.length, 1, `isTTY ${isTTY}`);
  }
});

// --- countProgress in a log ---

test('a count in a log: no bar, no ETA, nothing redrawn, and no end of line to add', () => {
  const { output, stderr } = stream(false);
  const progress = countProgress('copied', stderr);
  progress.report(0, 1234);
  progress.report(1234, 1234);
  progress.done();
  assert.deepEqual(output, ['copied: 0 of 1,234 (0%)\n', 'copied: 1,234 of 1,234 (100%)\n']);
});

test('a count in a log: within a tenth, one line every 5 s at most', () => {
  const { output, stderr } = stream(false);
  const progress = countProgress('copied', stderr);
  progress.report(0, 1000);
  mock.timers.tick(4999);
  progress.report(50, 1000); // same tenth, 4.999 s on: nothing
  mock.timers.tick(1);
  progress.report(60, 1000); // 5 s since the last line: shown
  mock.timers.tick(4999);
  progress.report(99, 1000); // 4.999 s since that one: nothing
  progress.report(100, 1000); // the next tenth: shown at once
  progress.report(101, 1000); // same tenth, no time gone: nothing
  assert.deepEqual(output, ['copied: 0 of 1,000 (0%)\n', 'copied: 60 of 1,000 (6%)\n', 'copied: 100 of 1,000 (10%)\n']);
});

test('a count in a log: the end is always shown, even right after another line', () => {
  const { output, stderr } = stream(false);
  const progress = countProgress('copied', stderr);
  progress.report(1000, 1000);
  progress.report(1000, 1000);
  assert.deepEqual(output, ['copied: 1,000 of 1,000 (100%)\n', 'copied: 1,000 of 1,000 (100%)\n']);
});

test('a count in a log: the first report is shown whatever its tenth and however early the clock', () => {
  mock.timers.setTime(0);
  for (const done of [0, 150, 999]) {
    const { output, stderr } = stream(false);
    countProgress('copied', stderr).report(done, 1000);
    assert.deepEqual(output, [`copied: ${done} of 1,000 (${Math.floor(done / 10)}%)\n`]);
  }
});

test('the upgrade names what it copies', () => {
  const { output, stderr } = stream(false);
  upgradeProgress(stderr).report(5, 10);
  assert.deepEqual(output, ['upgrade: orders copied into records: 5 of 10 (50%)\n']);
});
