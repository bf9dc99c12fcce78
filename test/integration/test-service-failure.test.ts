import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestService } from '../helpers/test-service.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * The test helper itself: a service that fails to start after its database, store and app were
 * opened fails at once and closes them, so the test file still ends (it hung before, kept alive by
 * what was left open).
 */
test(
  'a service that fails to start (its address cannot be listened on) closes what it opened and fails',
  { timeout: scaled(30_000) },
  async () => {
    const before = process
      .getActiveResourcesInfo()
      .filter((kind) => kind !== 'TTYWrap')
      .sort();
    // 192.0.2.1 (a documentation address) belongs to no interface here: listen fails after the store and the app are open.
    await assert.rejects(startTestService({ host: '192.0.2.1' }), /EADDRNOTAVAIL/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = process
      .getActiveResourcesInfo()
      .filter((kind) => kind !== 'TTYWrap')
      .sort();
    assert.deepEqual(after, before, 'nothing left open');
  },
);
