/**
 * The watch on the launcher (src/lifecycle/parent-watch.ts): `onGone` once when the parent the process
 * started with is no longer its parent, never for a process started by init; setInterval on a mocked clock.
 */
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { watchParent } from '../../src/lifecycle/parent-watch.js';

/** process.ppid answered by `read`, counted; `restore` puts Node's own back. */
function fakeParent(read: () => number) {
  const own = Object.getOwnPropertyDescriptor(process, 'ppid')!;
  let reads = 0;
  Object.defineProperty(process, 'ppid', {
    configurable: true,
    get: () => {
      reads += 1;
      return read();
    },
  });
  return { reads: () => reads, restore: () => Object.defineProperty(process, 'ppid', own) };
}

test('a parent that is still there is looked at every 250 ms and never reported gone', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const onGone = mock.fn();
  const ppid = fakeParent(() => 4242);
  try {
    watchParent(4242, onGone);
    assert.equal(ppid.reads(), 1);
    t.mock.timers.tick(249);
    assert.equal(ppid.reads(), 1);
    t.mock.timers.tick(1);
    assert.equal(ppid.reads(), 2);
    t.mock.timers.tick(10_000);
    assert.equal(ppid.reads(), 42);
    assert.equal(onGone.mock.callCount(), 0);
  } finally {
    ppid.restore();
  }
});

test('a parent gone at once is reported at once, and once only', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const onGone = mock.fn();
  const ppid = fakeParent(() => 1);
  try {
    watchParent(4242, onGone);
    assert.equal(onGone.mock.callCount(), 1);
    t.mock.timers.tick(10_000);
    assert.equal(onGone.mock.callCount(), 1);
    assert.equal(ppid.reads(), 1);
  } finally {
    ppid.restore();
  }
});

test('a parent that goes later is reported at the next look, and the looking stops', (t) => {
  // Node's mocked timers run an interval on even when its callback clears it: the timer is caught here instead.
  let look: (() => void) | undefined;
  const timer = { unref: mock.fn() };
  const setIntervalSpy = t.mock.method(globalThis, 'setInterval', (callback: () => void, ms: number) => {
    look = callback;
    assert.equal(ms, 250);
    return timer;
  });
  const clearIntervalSpy = t.mock.method(globalThis, 'clearInterval', () => {});
  const onGone = mock.fn();
  let parent = 4242;
  const ppid = fakeParent(() => parent);
  try {
    watchParent(4242, onGone);
    assert.equal(setIntervalSpy.mock.callCount(), 1);
    assert.equal(timer.unref.mock.callCount(), 1);
    look!();
    look!();
    assert.equal(onGone.mock.callCount(), 0);
    assert.equal(clearIntervalSpy.mock.callCount(), 0);
    parent = 1;
    look!();
    assert.equal(onGone.mock.callCount(), 1);
    assert.equal(clearIntervalSpy.mock.callCount(), 1);
    assert.equal(clearIntervalSpy.mock.calls[0]!.arguments[0], timer);
  } finally {
    ppid.restore();
  }
});

test('a process started by init (parent 1) or without a parent (0) is not watched', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const onGone = mock.fn();
  const ppid = fakeParent(() => 4242);
  try {
    watchParent(1, onGone);
    watchParent(0, onGone);
    t.mock.timers.tick(10_000);
    assert.equal(ppid.reads(), 0);
    assert.equal(onGone.mock.callCount(), 0);
  } finally {
    ppid.restore();
  }
});

test('the watch does not keep the process alive', () => {
  const onGone = mock.fn();
  const timers: NodeJS.Timeout[] = [];
  const original = globalThis.setInterval;
  const setIntervalSpy = mock.method(globalThis, 'setInterval', (...args: Parameters<typeof setInterval>) => {
    const timer = original(...args);
    timers.push(timer);
    return timer;
  });
  try {
    watchParent(process.ppid, onGone);
    assert.equal(timers.length, 1);
    assert.equal(timers[0]!.hasRef(), false);
    assert.equal(setIntervalSpy.mock.calls[0]!.arguments[1], 250);
  } finally {
    setIntervalSpy.mock.restore();
    for (const timer of timers) clearInterval(timer);
  }
  assert.equal(onGone.mock.callCount(), 0);
});
