/**
 * A second signal while `airorder serve` drains, through the real program on the store TEST_STORE
 * names: SIGTERM twice, SIGINT twice, SIGTERM then SIGINT, with one process and with `--workers 2`,
 * sent to the process the operator started or to every process of the service (Ctrl-C pressed twice
 * in a terminal), while a request is in flight. The second signal changes nothing: the request is
 * answered, the process exits 0, each serving process logs "shutting down" once, nothing is logged
 * at error level, and no worker is left running.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { childProcesses, isRunning, requestInFlight } from '../helpers/process-tree.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

/** Long enough that the drain outlasts both signals on a loaded machine; the request ends it well before. */
const GRACE_MS = 20_000;
/** Between the request's start and the first signal, and between the signals: each reaches the service by then. */
const PAUSE_MS = scaled(400);

const sandbox = new CliSandbox();
let database: TestDatabase | undefined;
before(async () => {
  // On the store TEST_STORE names: closing it is the drain's last step.
  database = await createTestDatabase(sandbox.dir);
  sandbox.useDatabase(database.url);
});
after(async () => {
  await sandbox.cleanup();
  await database?.drop();
});

interface LogLine {
  level: number;
  pid: number;
  msg: string;
}

function logLines(stdout: string): LogLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Sends `name` to `pid` unless it has ended: a worker that held no request may be gone by the second signal. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

type Target = 'the started process' | 'every process';
const cases: [workers: number, signals: [NodeJS.Signals, NodeJS.Signals], target: Target][] = [
  [1, ['SIGTERM', 'SIGTERM'], 'the started process'],
  [1, ['SIGINT', 'SIGINT'], 'the started process'],
  [1, ['SIGTERM', 'SIGINT'], 'the started process'],
  [2, ['SIGTERM', 'SIGTERM'], 'the started process'],
  [2, ['SIGINT', 'SIGINT'], 'the started process'],
  [2, ['SIGTERM', 'SIGINT'], 'the started process'],
  [2, ['SIGTERM', 'SIGTERM'], 'every process'],
  [2, ['SIGINT', 'SIGINT'], 'every process'],
];

describe('a second signal while the service drains', { concurrency: false }, () => {
  for (const [workers, [first, second], target] of cases) {
    const how = workers > 1 ? ` --workers ${workers}` : '';
    test(`serve${how}: ${first} then ${second} to ${target} with a request in flight: answered, exit 0, one drain per process, no error, no worker left`, async () => {
      const server = await sandbox.serve(workers > 1 ? ['--workers', String(workers)] : [], {
        env: { SHUTDOWN_GRACE_MS: String(GRACE_MS) },
      });
      const primary = server.child.pid!;
      // Every worker listens before the test goes on (the primary starts them after /healthz may answer).
      for (let round = 0; workers > 1 && childProcesses(primary).length < workers; round += 1) {
        assert.ok(round < 600, `${workers} workers never started: ${server.stdout()}`);
        await sleep(50);
      }
      for (let round = 0; logLines(server.stdout()).filter((line) => line.msg === 'listening').length < workers;) {
        assert.ok((round += 1) < 600, `not every process listens: ${server.stdout()}`);
        await sleep(50);
      }
      const workerPids = workers > 1 ? childProcesses(primary) : [];
      const signalled = target === 'every process' ? [primary, ...workerPids] : [primary];

      const inFlight = requestInFlight(server.baseUrl);
      await sleep(PAUSE_MS);
      for (const pid of signalled) signal(pid, first);
      await sleep(PAUSE_MS);
      for (const pid of signalled) signal(pid, second);
      await sleep(PAUSE_MS);
      // Still draining: the in-flight request holds it, and the second signal did not end it.
      assert.ok(isRunning(primary), `ended before the request was answered: ${server.stdout().slice(-3000)}`);

      const answer = await inFlight.finish();
      assert.equal(answer.status, 404, answer.body);
      assert.equal(JSON.parse(answer.body).Errors[0].Code, 'ROUTE_NOT_FOUND');
      assert.deepEqual(await server.exited, { code: 0, signal: null }, server.stdout().slice(-3000));

      const lines = logLines(server.stdout());
      const servingPids = workers > 1 ? workerPids : [primary];
      const drains = lines.filter((line) => line.msg === 'shutting down').map((line) => line.pid);
      assert.deepEqual(drains.sort(), [...servingPids].sort(), 'each serving process logs "shutting down" once');
      assert.deepEqual(
        lines.filter((line) => line.level >= 50),
        [],
        'nothing logged at error level',
      );
      for (let round = 0; workerPids.some(isRunning); round += 1) {
        // The primary exits once every worker has: a worker still there is an orphan.
        assert.ok(round < 40, `workers left running: ${workerPids.filter(isRunning).join(', ')}`);
        await sleep(50);
      }
    });
  }
});
