import type { Kysely, Migration } from 'kysely';

/**
 * What every process serving one store must see alike (docs/console.md): the progress of the
 * console's imports, whichever process runs them, and the API's requests counted per minute.
 */
export const consoleProgressAndCounts: Migration = {
  async up(db: Kysely<unknown>) {
    // One row per upload, written outside the import's own transaction so that it is read while the import runs.
    await db.schema
      .createTable('console_imports')
      .addColumn('import_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('file_name', 'varchar(300)', (c) => c.notNull())
      .addColumn('operator_email', 'varchar(254)', (c) => c.notNull())
      // host:pid of the process running it: an import whose process is gone is marked failed (console-imports.ts)
      .addColumn('runner', 'varchar(300)', (c) => c.notNull())
      // running, done or failed; while running, the phase is reading (checking every record) or storing
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('phase', 'varchar(16)', (c) => c.notNull())
      .addColumn('records_read', 'integer', (c) => c.notNull())
      .addColumn('records_stored', 'integer', (c) => c.notNull())
      // Known once every record has been read
      .addColumn('records_total', 'integer')
      .addColumn('summary', 'text')
      .addColumn('error', 'text')
      .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_imports_started_idx').on('console_imports').column('started_at').execute();

    // Each process adds what it counted to its minute's row every few seconds; the overview sums an hour of them.
    await db.schema
      .createTable('request_counts')
      .addColumn('minute', 'integer', (c) => c.notNull())
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('requests', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('request_counts_pk', ['minute', 'code'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('request_counts').execute();
    await db.schema.dropTable('console_imports').execute();
  },
};
