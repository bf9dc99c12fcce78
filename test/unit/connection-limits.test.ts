import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { Server } from 'node:http';
import { mock, test } from 'node:test';
import { limitConnections, openFilesLimit, type RefusedBy } from '../../src/http/connection-limits.js';

/** docs/security.md, "Connections": the caps a server's accepted connections meet, before a byte is read. */

/** A connection as the server hands it over: its peer's address, closed by `destroy` or by `end`. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string | undefined) {
    super();
  }
  destroy(): void {
    this.destroyed = true;
  }
  end(): void {
    this.emit('close');
  }
}

function capped(maxConnections: number, maxConnectionsPerAddress: number, filesLimit: number | null = null) {
  const server = new EventEmitter();
  const refusals: RefusedBy[] = [];
  const counts = limitConnections(
    server as unknown as Server,
    { maxConnections, maxConnectionsPerAddress },
    (by) => refusals.push(by),
    filesLimit,
  );
  const connect = (address: string | undefined) => {
    const socket = new FakeSocket(address);
    server.emit('connection', socket);
    return socket;
  };
  return { counts, refusals, connect };
}

test('the total cap: up to MAX_CONNECTIONS held, the next closed at once and counted as "total"', () => {
  const { counts, refusals, connect } = capped(2, 0);
  assert.equal(counts.open(), 0);
  const first = connect('10.0.0.1');
  connect('10.0.0.2');
  assert.equal(counts.open(), 2);
  assert.deepEqual(refusals, []);
  const third = connect('10.0.0.3');
  assert.equal(third.destroyed, true);
  assert.deepEqual(refusals, ['total']);
  assert.equal(counts.open(), 2);
  assert.equal(first.destroyed, false);
  first.end();
  assert.equal(counts.open(), 1);
  assert.equal(connect('10.0.0.3').destroyed, false);
  assert.equal(counts.open(), 2);
  assert.deepEqual(refusals, ['total']);
});

test('the per-address cap: up to MAX_CONNECTIONS_PER_ADDRESS from one address, the next counted as "address"', () => {
  const { counts, refusals, connect } = capped(100, 2);
  const first = connect('10.0.0.1');
  const second = connect('10.0.0.1');
  assert.deepEqual(refusals, []);
  // The same IPv4 address, arrived on a socket bound to "::".
  const third = connect('::ffff:10.0.0.1');
  assert.equal(third.destroyed, true);
  assert.deepEqual(refusals, ['address']);
  // Another address is not held back by the first.
  assert.equal(connect('10.0.0.2').destroyed, false);
  assert.equal(counts.open(), 3);
  // One of the first two gone: one more from that address, and not two.
  first.end();
  assert.equal(connect('10.0.0.1').destroyed, false);
  assert.equal(connect('10.0.0.1').destroyed, true);
  assert.deepEqual(refusals, ['address', 'address']);
  // Both gone: two more again.
  second.end();
  assert.equal(counts.open(), 2);
  assert.equal(connect('10.0.0.1').destroyed, false);
  assert.equal(connect('10.0.0.1').destroyed, true);
});

test('every connection of an address closed: the address starts again from none', () => {
  const { counts, refusals, connect } = capped(100, 1);
  const held = connect('10.0.0.1');
  held.end();
  assert.equal(counts.open(), 0);
  const again = connect('10.0.0.1');
  assert.equal(again.destroyed, false);
  assert.equal(connect('10.0.0.1').destroyed, true);
  again.end();
  assert.equal(connect('10.0.0.1').destroyed, false);
  assert.deepEqual(refusals, ['address']);
});

test('a connection past both caps is counted as refused by the total', () => {
  const { refusals, connect } = capped(1, 1);
  connect('10.0.0.1');
  assert.equal(connect('10.0.0.1').destroyed, true);
  assert.deepEqual(refusals, ['total']);
});

test('MAX_CONNECTIONS_PER_ADDRESS 0: no per-address cap, only the total', () => {
  const { counts, refusals, connect } = capped(5, 0);
  for (let index = 0; index < 5; index++) assert.equal(connect('10.0.0.1').destroyed, false);
  assert.equal(counts.open(), 5);
  assert.equal(connect('10.0.0.1').destroyed, true);
  assert.deepEqual(refusals, ['total']);
});

test('a socket already gone (no address) is neither counted nor refused', () => {
  const { counts, refusals, connect } = capped(1, 1);
  const gone = connect(undefined);
  assert.equal(gone.destroyed, false);
  assert.equal(counts.open(), 0);
  assert.deepEqual(refusals, []);
  assert.equal(connect('10.0.0.1').destroyed, false);
});

test('the total cap is lowered to three quarters of the open-files limit when that is lower, and never below 1', () => {
  assert.equal(capped(1000, 0, 100).counts.maxConnections, 75);
  assert.equal(capped(1000, 0, 101).counts.maxConnections, 75);
  assert.equal(capped(1000, 0, 103).counts.maxConnections, 77);
  assert.equal(capped(50, 0, 100).counts.maxConnections, 50);
  assert.equal(capped(1000, 0, 1).counts.maxConnections, 1);
  assert.equal(capped(1000, 0, null).counts.maxConnections, 1000);
  const lowered = capped(1000, 0, 4);
  assert.equal(lowered.counts.maxConnections, 3);
  for (let index = 0; index < 3; index++) lowered.connect(`10.0.0.${index}`);
  assert.equal(lowered.connect('10.0.0.9').destroyed, true);
  assert.deepEqual(lowered.refusals, ['total']);
});

test("the open-files limit is this process's soft limit as /proc/self/limits gives it", (t) => {
  const text = fs.readFileSync('/proc/self/limits', 'utf8');
  const line = text.split('\n').find((row) => row.startsWith('Max open files'));
  assert.ok(line, text);
  const soft = line.slice('Max open files'.length).trim().split(/\s+/)[0];
  assert.equal(openFilesLimit(), soft === 'unlimited' ? null : Number(soft));

  const limits = (rows: string) => t.mock.method(fs, 'readFileSync', (() => rows) as unknown as typeof fs.readFileSync);
  limits(
    'Limit                     Soft Limit           Hard Limit           Units     \n' +
      'Max processes             63811                63811                processes \n' +
      'Max open files            4096                 524288               files     \n',
  );
  assert.equal(openFilesLimit(), 4096);
  mock.restoreAll();
  limits('Max open files            unlimited            unlimited            files     \n');
  assert.equal(openFilesLimit(), null);
  mock.restoreAll();
  limits('Max processes             63811                63811                processes \n');
  assert.equal(openFilesLimit(), null);
  mock.restoreAll();
  t.mock.method(fs, 'readFileSync', () => {
    throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
  });
  assert.equal(openFilesLimit(), null);
});
