import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Executor } from '../../src/store/executor.js';
import { repositoriesOn } from '../../src/store/repositories.js';

const REPOSITORIES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/store/repositories');

/** The bound functions' names: the prototype's, since each is bound on first use. */
function boundNames(): string[] {
  return Object.getOwnPropertyNames(Object.getPrototypeOf(repositoriesOn({} as Executor)));
}

test('every function of the Store is called by the name it is defined with in src/store/repositories/', async () => {
  const defined = new Set<string>();
  for (const file of fs.readdirSync(REPOSITORIES).filter((name) => name.endsWith('.ts'))) {
    const module = (await import(path.join(REPOSITORIES, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (typeof value === 'function') defined.add(name);
  }
  const names = boundNames();
  assert.ok(names.length > 70, `${names.length} functions bound`);
  assert.deepEqual(
    names.filter((name) => !defined.has(name)),
    [],
    'bound under a name no repository defines',
  );
});

test('a function is bound once per connection, and stays bound when passed around', () => {
  const one = repositoriesOn({} as Executor);
  const other = repositoriesOn({} as Executor);
  const find = one.findAgency;
  assert.equal(typeof find, 'function');
  assert.equal(one.findAgency, find, 'the same binding the second time');
  assert.notEqual(other.findAgency, find, 'another connection, another binding');
  assert.ok(Object.keys(one).includes('findAgency'), 'kept on the binding once used');
});
