/**
 * Which process runs something (src/runtime/process-identity.ts): `host:pid/start`, read back from
 * /proc, and whether a process so named still runs; checked against child processes this test starts.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mock, test } from 'node:test';
import { processStart, processState, THIS_PROCESS } from '../../src/runtime/process-identity.js';

const HOST = os.hostname();

/**
 * The 22nd field of /proc/PID/stat (starttime), read another way: counted from the end, by the layout
 * of this process's own line, whose command name (node) holds no space.
 */
function startTimeOf(pid: number): string {
  const own = fs.readFileSync('/proc/self/stat', 'utf8').trim().split(' ');
  const afterStart = own.length - 22;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').trim().split(' ');
  return fields[fields.length - 1 - afterStart]!;
}

/** A process that sleeps until killed, its command name holding spaces and a parenthesis. */
async function sleeper(t: { after: (fn: () => void) => void }): Promise<ChildProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'process-identity-'));
  const program = path.join(dir, 'a) b (c');
  fs.copyFileSync(fs.realpathSync('/bin/sleep'), program);
  fs.chmodSync(program, 0o755);
  const child = spawn(program, ['600'], { stdio: 'ignore' });
  t.after(() => {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await once(child, 'spawn');
  return child;
}

test('the start of a process is read from /proc, whatever its command name holds', async (t) => {
  const start = processStart(process.pid);
  assert.match(start ?? '', /^[0-9]+$/);
  assert.equal(start, startTimeOf(process.pid));
  const child = await sleeper(t);
  assert.match(fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8'), /\(a\) b \(c\)/);
  assert.equal(processStart(child.pid!), startTimeOf(child.pid!));
  assert.ok(Number(processStart(child.pid!)) >= Number(start));
});

test('a process that does not exist has no start', () => {
  assert.equal(processStart(99_999_999), null);
});

test('this process is named host:pid/start', () => {
  assert.equal(THIS_PROCESS, `${HOST}:${process.pid}/${processStart(process.pid)}`);
});

test('this process runs under its own name; an older name with its pid but another start is gone', () => {
  assert.equal(processState(THIS_PROCESS), 'running');
  assert.equal(processState(`${HOST}:${process.pid}`), 'gone');
  assert.equal(processState(`${HOST}:${process.pid}/1`), 'gone');
});

test('another process of this host: running while it runs, under its start or none, gone once ended', async (t) => {
  const child = await sleeper(t);
  const start = processStart(child.pid!)!;
  assert.equal(processState(`${HOST}:${child.pid}`), 'running');
  assert.equal(processState(`${HOST}:${child.pid}/${start}`), 'running');
  // The same pid under another start is a later process that happens to have the id.
  assert.equal(processState(`${HOST}:${child.pid}/${Number(start) + 1}`), 'gone');
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.equal(processState(`${HOST}:${child.pid}`), 'gone');
  assert.equal(processState(`${HOST}:${child.pid}/${start}`), 'gone');
});

test('a process of another host, or a name that cannot be read, is unknown', () => {
  assert.equal(processState(`not-${HOST}:${process.pid}`), 'unknown');
  assert.equal(processState(`not-${HOST}:${process.pid}/${processStart(process.pid)}`), 'unknown');
  for (const name of [
    '',
    HOST,
    `${HOST}:`,
    `${HOST}:0`,
    `${HOST}:0${process.pid}`,
    `${HOST}:${process.pid}/`,
    `${HOST}:${process.pid}/x`,
    `${HOST}:${process.pid}x`,
    `${HOST}:-${process.pid}`,
    `${HOST}/${process.pid}`,
    `x${HOST}:${process.pid}`,
  ]) {
    assert.equal(processState(name), 'unknown', name);
  }
});

test('a process of another user (EPERM) is judged by its start like any other', async (t) => {
  const child = await sleeper(t);
  const start = processStart(child.pid!)!;
  const eperm = mock.method(process, 'kill', () => {
    throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
  });
  try {
    assert.equal(processState(`${HOST}:${child.pid}`), 'running');
    assert.equal(processState(`${HOST}:${child.pid}/${start}`), 'running');
    assert.equal(processState(`${HOST}:${child.pid}/${Number(start) + 1}`), 'gone');
    assert.equal(eperm.mock.callCount(), 3);
    assert.deepEqual(eperm.mock.calls[0]!.arguments, [child.pid, 0]);
  } finally {
    eperm.mock.restore();
  }
});

test('a process that answers but whose start cannot be read is taken to be the one named', () => {
  // As where /proc hides other users' processes: the signal reaches one, /proc says nothing of it.
  const answers = mock.method(process, 'kill', () => true);
  try {
    assert.equal(processState(`${HOST}:99999999/12345`), 'running');
    assert.equal(processState(`${HOST}:99999999`), 'running');
  } finally {
    answers.mock.restore();
  }
});
