/**
 * The service's log output (src/lifecycle/log-output.ts), in small node processes this test starts:
 * lines reach standard output whole whether it is a pipe or a file, a lone line does not wait for
 * more traffic, an exit (ordered or a crash) writes what is buffered first, and neither waits for a
 * reader that never comes.
 */
import assert from 'node:assert/strict';
import { spawn, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { scaled } from '../helpers/time-scale.js';

const MODULE = path.resolve(import.meta.dirname, '..', '..', 'src', 'lifecycle', 'log-output.ts');

/** A node process running `body` after `const { openLogOutput, survivePipeErrors } = await import(log-output)`. */
function child(body: string, stdio: StdioOptions = ['ignore', 'pipe', 'pipe']) {
  const code = `const { openLogOutput, survivePipeErrors } = await import(${JSON.stringify(MODULE)});\n${body}`;
  const started = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: path.dirname(MODULE),
    stdio,
  });
  const exited = once(started, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { process: started, exited };
}

/** Writes `count` JSON lines of about 200 bytes numbered from 0: the body of a child. */
const WRITE_LINES = (count: number) =>
  `const log = openLogOutput();
   for (let n = 0; n < ${count}; n++) log.destination.write(JSON.stringify({ n, pad: 'x'.repeat(180) }) + '\\n');`;

/** Every line `text` holds is a whole JSON line, numbered 0, 1, 2… in order; their count. */
function wholeLinesInOrder(text: string): number {
  const lines = text.split('\n');
  assert.equal(lines.pop(), '', 'the output ends with a whole line');
  lines.forEach((line, index) => assert.equal((JSON.parse(line) as { n: number }).n, index));
  return lines.length;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

test(
  'lines reach a pipe whole and in order, and exit ends the process with its code once they are written',
  {
    timeout: scaled(30_000),
  },
  async () => {
    const run = child(`${WRITE_LINES(5000)}\nlog.exit(3, 10000);\nsetTimeout(() => {}, 60000);`);
    const [text, stderr, [code]] = await Promise.all([
      readAll(run.process.stdout!),
      readAll(run.process.stderr!),
      run.exited,
    ]);
    assert.equal(stderr, '');
    assert.equal(code, 3);
    assert.equal(wholeLinesInOrder(text), 5000);
  },
);

test('lines reach a file whole and in order', { timeout: scaled(30_000) }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-output-'));
  try {
    const file = path.join(dir, 'log');
    const fd = fs.openSync(file, 'w');
    const run = child(`${WRITE_LINES(3000)}\nlog.exit(0, 10000);`, ['ignore', fd, 'inherit']);
    fs.closeSync(fd);
    const [code] = await run.exited;
    assert.equal(code, 0);
    assert.equal(wholeLinesInOrder(fs.readFileSync(file, 'utf8')), 3000);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'a lone line is written while the process runs on, not only at its exit',
  { timeout: scaled(30_000) },
  async () => {
    const run = child(`${WRITE_LINES(1)}\nsetTimeout(() => log.exit(0, 1000), 8000);`);
    const stdout = run.process.stdout!;
    stdout.setEncoding('utf8');
    let text = '';
    let exited = false;
    void run.exited.then(() => (exited = true));
    for await (const chunk of stdout) {
      text += chunk as string;
      if (text.endsWith('\n')) break;
    }
    assert.equal(exited, false, 'the line came only with the exit');
    assert.equal(wholeLinesInOrder(text), 1);
    run.process.kill('SIGKILL');
    await run.exited;
  },
);

test('a crash writes the buffered lines before the process ends', { timeout: scaled(30_000) }, async () => {
  const run = child(`${WRITE_LINES(2000)}\nthrow new Error('crash');`);
  const [text, stderr, [code]] = await Promise.all([
    readAll(run.process.stdout!),
    readAll(run.process.stderr!),
    run.exited,
  ]);
  assert.equal(code, 1);
  assert.match(stderr, /Error: crash/);
  assert.equal(wholeLinesInOrder(text), 2000);
});

test('an exit does not wait for a reader that never reads', { timeout: scaled(60_000) }, async () => {
  // 4 MB of lines: far more than the pipe and this process's paused stream take.
  const run = child(`${WRITE_LINES(20_000)}\nlog.exit(4, 500);\nsetTimeout(() => {}, 600000);`);
  run.process.stdout!.pause();
  const [code, signal] = await run.exited;
  assert.equal(signal, null);
  assert.equal(code, 4);
});

test('a crash does not wait for a reader that never reads', { timeout: scaled(60_000) }, async () => {
  const run = child(`${WRITE_LINES(20_000)}\nsetTimeout(() => { throw new Error('crash'); }, 100);`);
  run.process.stdout!.pause();
  const stderr = readAll(run.process.stderr!);
  const [code, signal] = await run.exited;
  assert.equal(signal, null);
  assert.equal(code, 1);
  assert.match(await stderr, /Error: crash/);
});

test(
  'an exit after the reader has gone ends the process with its code, not with a broken pipe',
  {
    timeout: scaled(30_000),
  },
  async () => {
    const run = child(
      `setTimeout(() => { ${WRITE_LINES(5000)}\nlog.exit(5, 2000); }, 500);\nsetTimeout(() => {}, 60000);`,
    );
    run.process.stdout!.destroy();
    const stderr = readAll(run.process.stderr!);
    const [code, signal] = await run.exited;
    assert.equal(signal, null);
    assert.equal(await stderr, '');
    assert.equal(code, 5);
  },
);

test(
  'standard output and error failing (a reader gone) costs the lines, never the process',
  {
    timeout: scaled(30_000),
  },
  async () => {
    // In a process of its own: the 'error' event would cut this test file's own report short.
    const epipe = "Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })";
    const run = child(
      `survivePipeErrors();\nprocess.stdout.emit('error', ${epipe});\nprocess.stderr.emit('error', ${epipe});\nprocess.exitCode = 7;`,
    );
    const [stdout, stderr, [code]] = await Promise.all([
      readAll(run.process.stdout!),
      readAll(run.process.stderr!),
      run.exited,
    ]);
    assert.equal(stdout, '');
    assert.equal(stderr, '');
    assert.equal(code, 7);
  },
);
