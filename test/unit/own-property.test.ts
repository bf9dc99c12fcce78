/** Lookups by a name from outside (src/own-property.ts): what an object holds itself, never what it inherits. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownProperty } from '../../src/own-property.js';

test('an own property is read, whatever its value', () => {
  const record = { EUR: 2, zero: 0, none: null, list: [1] };
  assert.equal(ownProperty(record, 'EUR'), 2);
  assert.equal(ownProperty(record, 'zero'), 0);
  assert.equal(ownProperty(record, 'none'), null);
  assert.deepEqual(ownProperty(record, 'list'), [1]);
});

test('an inherited or absent name reads as undefined', () => {
  const record = { EUR: 2 };
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'USD', '']) {
    assert.equal(ownProperty(record, name), undefined, name);
  }
  assert.equal(ownProperty(Object.create({ EUR: 2 }) as object, 'EUR'), undefined);
  assert.equal(ownProperty(Object.create(null) as object, 'EUR'), undefined);
});
