/** `airorder serve`'s flags read into what it is to do (src/cli/serve-flags.ts), without a process. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEMO_ORDERS, serveRequest } from '../../src/cli/serve-flags.js';

test('no flags: the environment decides the address, one worker, no demo', () => {
  assert.deepEqual(serveRequest({}), { settings: {}, workers: 1, demoOrders: null });
});

test('--port and --host become PORT and HOST, each on its own', () => {
  assert.deepEqual(serveRequest({ port: '9090' }).settings, { PORT: '9090' });
  assert.deepEqual(serveRequest({ host: '0.0.0.0' }).settings, { HOST: '0.0.0.0' });
  assert.deepEqual(serveRequest({ port: '9090', host: '::1' }).settings, { PORT: '9090', HOST: '::1' });
});

test('an empty --port or --host is no flag: the setting of the environment stands', () => {
  const { settings } = serveRequest({ port: '', host: '' });
  assert.deepEqual(settings, {});
  // Not a key holding undefined either: the settings are spread over the environment's.
  assert.deepEqual(Object.keys(settings), []);
});

test('--workers N is N workers', () => {
  assert.equal(serveRequest({ workers: 4 }).workers, 4);
});

test('--demo alone loads 50 orders; --demo N loads N', () => {
  assert.equal(DEMO_ORDERS, 50);
  assert.equal(serveRequest({ demo: true }).demoOrders, 50);
  assert.equal(serveRequest({ demo: 7 }).demoOrders, 7);
  assert.equal(serveRequest({ demo: 1 }).demoOrders, 1);
});
