import type { Kysely, Migration } from 'kysely';

/**
 * `token_last_use`: when each access token was last used, as the serving processes note it at most
 * once per token every few minutes (docs/decisions.md, "Tokens"). A table of its own rather than a
 * column of `access_tokens`: migration 004's triggers drop every process's token cache on any change
 * of that table, and noting a use must not. No foreign key: tokens are never deleted, and a use noted
 * must not take a lock on the token's row or fail a batch of others.
 */
export const tokenLastUse: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('token_last_use')
      .addColumn('token_id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('token_last_use').execute();
  },
};
