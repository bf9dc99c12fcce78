import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `kept_response_counts`: how many kept responses (rows of `idempotency_keys`) each agency has, so
 * that the cap on them (KEPT_RESPONSES_PER_AGENCY, docs/security.md) is checked by reading one row
 * rather than counting thousands. Every statement that inserts or deletes kept responses moves the
 * count by as many (kept-responses-repository.ts, the engines' order-update.ts). The count includes
 * responses past their expiry that the purge has not removed yet: an agency at the cap has its own
 * removed first, then the cap is checked again.
 *
 * No index is added for an agency's expired responses and its oldest live one (the Retry-After of a
 * refusal), looked for only at the cap: the key's index (agency first) and the expiry's serve them. An
 * index on agency and expiry was tried, and PostgreSQL then took it, planned while the table was
 * nearly empty, for the lookup of a request's own key, reading every response of the agency for each
 * request (docs/decisions.md, "Kept responses per agency"). The counts start from the rows there are.
 */
export const keptResponseCounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('kept_response_counts')
      .addColumn('agency_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('kept', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into kept_response_counts (agency_id, kept)
      select agency_id, count(*) from idempotency_keys group by agency_id`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('kept_response_counts').execute();
  },
};
