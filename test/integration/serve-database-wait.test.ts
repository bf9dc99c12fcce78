import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { CliSandbox, freePort } from '../helpers/cli.js';
import { createTestDatabase, testStoreKind } from '../helpers/test-database.js';

/**
 * docs/operations.md, "Starting before the database": `serve` keeps trying a database that does not
 * answer yet, for DATABASE_START_WAIT_MS, saying so on stderr, and then starts as usual; once the
 * wait runs out it stops with one line naming the setting and the cause.
 */
const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

const WAITING = /^waiting for the database \((.+)\): trying again in (\d+(?:\.\d+)?) s$/;

function waitingLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => WAITING.test(line));
}

test('a database that refuses connections: serve tries again, pausing longer each time, and stops once DATABASE_START_WAIT_MS has passed', async () => {
  const port = await freePort();
  const result = await sandbox.run(['serve'], {
    env: { DATABASE_URL: `postgres://airorder:secret@127.0.0.1:${port}/airorder`, DATABASE_START_WAIT_MS: '4000' },
  });
  assert.equal(result.code, 1, result.stderr);
  const lines = waitingLines(result.stderr);
  // 1.75 s of pauses leave the tries more than 2 s, however busy the machine.
  assert.ok(lines.length >= 3, `at least three pauses within 4 s: ${result.stderr}`);
  const pauses = lines.map((line) => Number(WAITING.exec(line)![2]));
  assert.deepEqual(pauses.slice(0, 3), [0.25, 0.5, 1], 'a quarter second, then twice as long each time');
  assert.ok(
    pauses.reduce((sum, pause) => sum + pause, 0) <= 4,
    `the pauses stay within the limit: ${pauses.join(', ')}`,
  );
  for (const line of lines) assert.match(line, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
  assert.match(
    result.stderr,
    new RegExp(
      `\\nerror: the database did not answer within DATABASE_START_WAIT_MS \\(4000 ms\\): connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\n$`,
    ),
  );
});

test('a database that takes the connection but never answers: each try ends at DATABASE_CONNECT_TIMEOUT_MS, and serve waits as for a refusal', async () => {
  // Accepts and stays silent: what a server too busy to start a session looks like from here.
  const held = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as net.AddressInfo).port;
  try {
    const result = await sandbox.run(['serve'], {
      env: {
        DATABASE_URL: `postgres://airorder:secret@127.0.0.1:${port}/airorder`,
        DATABASE_CONNECT_TIMEOUT_MS: '100',
        DATABASE_START_WAIT_MS: '1500',
      },
    });
    assert.equal(result.code, 1, result.stderr);
    const lines = waitingLines(result.stderr);
    assert.ok(lines.length >= 1, `at least one pause: ${result.stderr}`);
    for (const line of lines)
      assert.equal(WAITING.exec(line)![1], 'no connection opened within DATABASE_CONNECT_TIMEOUT_MS (100 ms)');
    assert.match(
      result.stderr,
      /\nerror: the database did not answer within DATABASE_START_WAIT_MS \(1500 ms\): no connection opened within DATABASE_CONNECT_TIMEOUT_MS \(100 ms\)\n$/,
    );
  } finally {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('DATABASE_START_WAIT_MS=0: one try, no pause, the same one-line error', async () => {
  const port = await freePort();
  const result = await sandbox.run(['serve'], {
    env: { DATABASE_URL: `postgres://airorder:secret@127.0.0.1:${port}/airorder`, DATABASE_START_WAIT_MS: '0' },
  });
  assert.equal(result.code, 1, result.stderr);
  assert.deepEqual(waitingLines(result.stderr), []);
  assert.match(
    result.stderr,
    /^error: the database did not answer within DATABASE_START_WAIT_MS \(0 ms\): connect ECONNREFUSED/m,
  );
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} while serve waits for the database: it stops at once, with status 0, saying so`, async () => {
    const port = await freePort();
    let signalled = false;
    const result = await sandbox.run(['serve'], {
      env: {
        DATABASE_URL: `postgres://airorder:secret@127.0.0.1:${port}/airorder`,
        DATABASE_START_WAIT_MS: '600000',
      },
      onStderr: (text, child) => {
        if (!signalled && /trying again in 0\.5 s/.test(text)) {
          signalled = true;
          child.kill(signal);
        }
      },
    });
    assert.ok(signalled, result.stderr);
    assert.deepEqual({ code: result.code, signal: result.signal }, { code: 0, signal: null }, result.stderr);
    assert.ok(result.stderr.endsWith(`\nstopped before the service started (${signal})\n`), result.stderr);
  });
}

const POSTGRES_ONLY = testStoreKind() === 'postgres' ? {} : { skip: 'PostgreSQL only: runs in the postgres group' };

test(
  'a failure that is no outage (a role the database does not know) is reported at once, without waiting',
  POSTGRES_ONLY,
  async () => {
    const database = await createTestDatabase(sandbox.dir);
    try {
      const url = new URL(database.url);
      url.username = 'no_such_role';
      const result = await sandbox.run(['serve'], {
        env: { DATABASE_URL: url.toString(), DATABASE_START_WAIT_MS: '60000' },
      });
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual(waitingLines(result.stderr), []);
      assert.match(result.stderr, /^error: role "no_such_role" does not exist/m);
    } finally {
      await database.drop();
    }
  },
);

test(
  'a database that drops connections at first: serve waits, then migrates and serves once it answers',
  POSTGRES_ONLY,
  async () => {
    const database = await createTestDatabase(sandbox.dir);
    const target = new URL(database.url);
    // In front of the database: closes the first connections at once, then passes them through.
    let dropped = 0;
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      if (dropped < 2) {
        dropped += 1;
        client.destroy();
        return;
      }
      const upstream = net.connect(Number(target.port), target.hostname);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = new URL(database.url);
    proxied.port = String((proxy.address() as net.AddressInfo).port);
    try {
      const server = await sandbox.serve([], { env: { DATABASE_URL: proxied.toString() } });
      try {
        assert.equal(dropped, 2);
        assert.equal(waitingLines(server.stderr()).length, 2, server.stderr());
        assert.equal((await server.get('/readyz')).status, 200);
      } finally {
        server.child.kill('SIGTERM');
        assert.deepEqual(await server.exited, { code: 0, signal: null });
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
      await database.drop();
    }
  },
);
