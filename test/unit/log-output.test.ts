/**
 * The service's log output (src/lifecycle/log-output.ts), in small node processes this test starts:
 * lines reach standard output whole whether it is a pipe or a file, a lone line does not wait for
 * more traffic, an exit (ordered or a crash) writes what is buffered first, and neither waits for a
 * reader that never comes.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { scaled } from '../helpers/time-scale.js';

const MODULE = path.resolve(import.meta.dirname, '..', '..', 'src', 'lifecycle', 'log-output.ts');

/**
 * A node process running `body` after `const { openLogOutput, survivePipeErrors } = await import(log-output)`,
 * under coreutils' `timeout`: a process that hangs (a broken exit) is killed after a minute even when
 * this test's own process is gone. `timeout` passes SIGTERM on, and its child's exit code back.
 */
function child(body: string, stdio: StdioOptions = ['ignore', 'pipe', 'pipe']) {
  const code = `const { openLogOutput, survivePipeErrors } = await import(${JSON.stringify(MODULE)});\n${body}`;
  const limit = String(Math.round(scaled(60_000) / 1000));
  const args = ['-s', 'KILL', limit, process.execPath, '--import', 'tsx', '--input-type=module', '-e', code];
  const started = spawn('timeout', args, { cwd: path.dirname(MODULE), stdio });
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
    const run = child(`${WRITE_LINES(5000)}\nlog.exit(3, 10000);\nsetTimeout(() => {}, 30000);`);
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

test(
  'lines reach a file whole and in order, after what it held (standard output appended to a log file)',
  {
    timeout: scaled(30_000),
  },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-output-'));
    try {
      const file = path.join(dir, 'log');
      const before = `${JSON.stringify({ earlier: 'x'.repeat(5000) })}\n`;
      fs.writeFileSync(file, before);
      const fd = fs.openSync(file, 'a');
      const run = child(`${WRITE_LINES(3000)}\nlog.exit(0, 10000);`, ['ignore', fd, 'inherit']);
      fs.closeSync(fd);
      const [code] = await run.exited;
      assert.equal(code, 0);
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(text.startsWith(before), 'what the file held is kept');
      assert.equal(wholeLinesInOrder(text.slice(before.length)), 3000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'a lone line is written while the process runs on, not only at its exit',
  { timeout: scaled(30_000) },
  async () => {
    // The process never ends by itself: the line can only come from the timer that flushes every 200 ms.
    const run = child(`${WRITE_LINES(1)}\nsetInterval(() => {}, 30000);`);
    try {
      const stdout = run.process.stdout!;
      stdout.setEncoding('utf8');
      let text = '';
      const line = new Promise<void>((resolve) =>
        stdout.on('data', (chunk: string) => {
          text += chunk;
          if (text.endsWith('\n')) resolve();
        }),
      );
      const waited = await Promise.race([
        line.then(() => 'line'),
        new Promise<string>((resolve) => setTimeout(() => resolve('nothing'), scaled(5_000)).unref()),
      ]);
      assert.equal(waited, 'line', 'no line within 5 s');
      assert.equal(wholeLinesInOrder(text), 1);
    } finally {
      run.process.kill('SIGTERM');
      await run.exited;
    }
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
  const run = child(`${WRITE_LINES(20_000)}\nlog.exit(4, 500);\nsetTimeout(() => {}, 30000);`);
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
      `setTimeout(() => { ${WRITE_LINES(5000)}\nlog.exit(5, 2000); }, 500);\nsetTimeout(() => {}, 30000);`,
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

/** The child's exit code and signal, or 'still running' after `ms` (it is then killed). */
async function exitWithin(run: ReturnType<typeof child>, ms: number) {
  const timer = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms).unref());
  const outcome = await Promise.race([run.exited, timer]);
  if (outcome === 'still running') {
    run.process.kill('SIGTERM');
    await run.exited;
  }
  return outcome;
}

test(
  'a second exit while the first writes changes nothing: the first code, every line',
  {
    timeout: scaled(30_000),
  },
  async () => {
    const run = child(`${WRITE_LINES(5000)}\nlog.exit(3, 10000);\nlog.exit(4, 0);\nsetTimeout(() => {}, 30000);`);
    const [text, [code]] = await Promise.all([readAll(run.process.stdout!), run.exited]);
    assert.equal(code, 3);
    assert.equal(wholeLinesInOrder(text), 5000);
  },
);

/**
 * A pipe (a FIFO: what a shell's `|` makes; Node's own child pipes are sockets) for a child's standard
 * output: the child's write end, and this process's read end, as a socket it may read or leave unread.
 */
function fifo(t: { after: (fn: () => void) => void }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-output-'));
  const file = path.join(dir, 'pipe');
  execFileSync('mkfifo', [file]);
  const readEnd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const writeEnd = fs.openSync(file, fs.constants.O_WRONLY);
  const reader = new net.Socket({ fd: readEnd, readable: true, writable: false });
  reader.pause();
  t.after(() => {
    reader.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { writeEnd, reader };
}

test('lines reach a pipe (a FIFO) whole and in order', { timeout: scaled(30_000) }, async (t) => {
  const pipe = fifo(t);
  const run = child(`${WRITE_LINES(5000)}\nlog.exit(3, 10000);\nsetTimeout(() => {}, 30000);`, [
    'ignore',
    pipe.writeEnd,
    'pipe',
  ]);
  fs.closeSync(pipe.writeEnd);
  const [text, stderr, [code]] = await Promise.all([readAll(pipe.reader), readAll(run.process.stderr!), run.exited]);
  assert.equal(stderr, '');
  assert.equal(code, 3);
  assert.equal(wholeLinesInOrder(text), 5000);
});

test('a pipe another process set back to blocking does not hold the exit', { timeout: scaled(60_000) }, async (t) => {
  // What Node does to standard output as it exits, and the launcher or the primary may exit first:
  // the open file description of the pipe, shared by them all, is blocking from then on.
  const pipe = fifo(t);
  const run = child(
    `process.stdout._handle.setBlocking(true);\n${WRITE_LINES(20_000)}\nlog.exit(4, 500);\nsetTimeout(() => {}, 30000);`,
    ['ignore', pipe.writeEnd, 'pipe'],
  );
  fs.closeSync(pipe.writeEnd);
  const stderr = readAll(run.process.stderr!);
  assert.deepEqual(await exitWithin(run, scaled(15_000)), [4, null]);
  assert.equal(await stderr, '');
});

/**
 * Standard output on a full disk: /dev/full answers every write ENOSPC, a failure that waiting does
 * not mend (unlike EAGAIN). The lines are lost; the process's exit and its code are not.
 */
function onFullDisk(body: string) {
  const full = fs.openSync('/dev/full', 'w');
  try {
    return child(body, ['ignore', full, 'pipe']);
  } finally {
    fs.closeSync(full);
  }
}

test(
  'standard output on a full disk: an ordered exit ends with its code, saying nothing',
  { timeout: scaled(60_000) },
  async () => {
    const run = onFullDisk(
      `${WRITE_LINES(3000)}\nsetTimeout(() => log.exit(5, 1000), 300);\nsetTimeout(() => {}, 30000);`,
    );
    const stderr = readAll(run.process.stderr!);
    assert.deepEqual(await exitWithin(run, scaled(15_000)), [5, null]);
    assert.equal(await stderr, '');
  },
);

test(
  'standard output on a full disk: an exit before any write failed ends with its code',
  { timeout: scaled(60_000) },
  async () => {
    // The lines are still buffered when the exit begins: the first write fails inside the exit's flush.
    const run = onFullDisk(`${WRITE_LINES(3000)}\nlog.exit(6, 1000);\nsetTimeout(() => {}, 30000);`);
    const stderr = readAll(run.process.stderr!);
    assert.deepEqual(await exitWithin(run, scaled(15_000)), [6, null]);
    assert.equal(await stderr, '');
  },
);

test(
  'standard output on a full disk: a crash ends the process with its own error',
  { timeout: scaled(60_000) },
  async () => {
    const run = onFullDisk(`${WRITE_LINES(3000)}\nsetTimeout(() => { throw new Error('crash'); }, 300);`);
    const stderr = readAll(run.process.stderr!);
    assert.deepEqual(await exitWithin(run, scaled(15_000)), [1, null]);
    assert.match(await stderr, /Error: crash/);
    assert.doesNotMatch(await stderr, /ENOSPC/);
  },
);

test(
  'an exit ends the process once its lines are written, not at the end of the longest wait it allows',
  { timeout: scaled(60_000) },
  async () => {
    // Ten minutes allowed: only the flush's own end can end this process within the test's time.
    const run = child(`${WRITE_LINES(5000)}\nlog.exit(3, 600000);\nsetTimeout(() => {}, 900000);`);
    const [text, outcome] = await Promise.all([readAll(run.process.stdout!), exitWithin(run, scaled(30_000))]);
    assert.deepEqual(outcome, [3, null]);
    assert.equal(wholeLinesInOrder(text), 5000);
  },
);
