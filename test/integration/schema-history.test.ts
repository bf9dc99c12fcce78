import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { Migrator } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { migrateDown } from '../../src/store/migrator.js';
import { openStore } from '../../src/store/open-store.js';
import { dumpSchema, schemaStep, type SchemaDump, type SchemaStep } from '../helpers/schema-dump.js';
import { createTestDatabase, TEST_DATABASE_ENV, type TestDatabase, testStoreKind } from '../helpers/test-database.js';

/**
 * A database is upgraded in place from whichever release made it, so a migration, once released,
 * must build the same schema for ever, and its rollback must take exactly that away again
 * (docs/operations.md, "Upgrading"). What each migration does to the schema is kept in
 * test/fixtures/schema-history/<engine>.json; a change there is a change to released migrations.
 */
const engine = testStoreKind();
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/schema-history', `${engine}.json`);

let dir: string;
let database: TestDatabase;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-schema-'));
  database = await createTestDatabase(dir);
});
after(async () => {
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test(`each migration makes the schema it always made, and its rollback takes that away again, on ${engine}`, async () => {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: database.url }));
  try {
    const migrator = new Migrator({ db: store.db, provider: migrationProvider });
    const names = Object.keys(await migrationProvider.getMigrations());
    const schemas: SchemaDump[] = [await dumpSchema(store.db, engine)];
    assert.deepEqual(schemas[0], {}, 'an empty database to begin with');
    const history: Record<string, SchemaStep> = {};
    for (const name of names) {
      const { error, results } = await migrator.migrateUp();
      assert.equal(error, undefined, `${name} ran`);
      assert.deepEqual(
        results?.map((result) => result.migrationName),
        [name],
      );
      const schema = await dumpSchema(store.db, engine);
      history[name] = schemaStep(schemas.at(-1)!, schema);
      schemas.push(schema);
    }
    const kept = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Record<string, SchemaStep>;
    if (!isDeepStrictEqual(history, kept)) {
      const written = path.join(os.tmpdir(), `airorder-schema-history-${engine}.json`);
      fs.writeFileSync(written, `${JSON.stringify(history, null, 2)}\n`);
      assert.deepEqual(
        history,
        kept,
        `the migrations no longer make the schema they made; what they make now is in ${written}`,
      );
    }
    for (const name of [...names].reverse()) {
      assert.deepEqual(await migrateDown(store), [`Down ${name}`]);
      schemas.pop();
      assert.deepEqual(
        await dumpSchema(store.db, engine),
        schemas.at(-1),
        `rolling back ${name} restores the schema before it`,
      );
    }
  } finally {
    await store.close();
  }
});
