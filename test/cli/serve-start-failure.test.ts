import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import net from 'node:net';
import { CliSandbox, freePort } from '../helpers/cli.js';

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

/**
 * A loopback port with a listener on it that accepts connections and never answers (the worst a
 * process holding the port can do to a health check), and how to let it go.
 */
async function takenPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const holder = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  const release = () =>
    new Promise<void>((resolve) => {
      holder.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return { port, release };
}

test('a port taken between its choice and the bind: serve is started again on another port', async () => {
  const taken = await takenPort();
  try {
    const chosen: number[] = [];
    const service = await sandbox.serve([], {
      choosePort: async () => {
        const port = chosen.length === 0 ? taken.port : await freePort();
        chosen.push(port);
        return port;
      },
    });
    assert.equal(chosen.length, 2);
    assert.equal(service.port, chosen[1]);
    assert.notEqual(service.port, taken.port);
    assert.equal((await service.get('/healthz')).status, 200);
  } finally {
    await taken.release();
  }
});

test('a PORT the test set itself and found taken: no other port is tried, the error says why', async () => {
  const taken = await takenPort();
  try {
    let chosen = 0;
    const choosePort = () => {
      chosen += 1;
      return freePort();
    };
    await assert.rejects(sandbox.serve([], { env: { PORT: String(taken.port) }, choosePort }), (error: Error) => {
      assert.match(error.message, /^airorder serve ended before it became healthy: exited with code 1; /);
      assert.match(error.message, new RegExp(`EADDRINUSE: address already in use 127\\.0\\.0\\.1:${taken.port}`));
      return true;
    });
    assert.equal(chosen, 1, 'serve was started once');
  } finally {
    await taken.release();
  }
});
