import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSystemError } from '../../src/errors/system-error.js';

/** The CLI and the store's opening tell the operating system's errors about a file from the rest by their code. */
test("the operating system's error codes are system errors", () => {
  for (const code of ['ENOENT', 'EISDIR', 'EACCES', 'EADDRINUSE']) {
    assert.equal(isSystemError(Object.assign(new Error(code), { code })), true, code);
  }
});

test('other codes, and errors without one, are not', () => {
  for (const code of ['SQLITE_CANTOPEN', 'ERR_INVALID_URL', 'EPERM2', 'E', 'XENOENT', 'enoent', 42]) {
    assert.equal(isSystemError(Object.assign(new Error('x'), { code })), false, String(code));
  }
  assert.equal(isSystemError(new Error('no code')), false);
  assert.equal(isSystemError(null), false);
  assert.equal(isSystemError(undefined), false);
});
