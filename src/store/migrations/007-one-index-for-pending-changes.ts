import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Pending changes are found by one index, of the pending ones only. Before, two indexes held every
 * change: by status, and by (status, deadline). Every query by status asks for the pending ones
 * (deadlines, the pending gauge, the console's overview), and a change leaves that state once: so
 * an index of the pending changes by deadline answers them all, and resolving a change removes one
 * entry instead of moving entries in two indexes. Each index entry moved is a page written per
 * request (docs/benchmarks.md, docs/decisions.md "Indexes and pages cost every request").
 */
export const oneIndexForPendingChanges: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('airline_changes_status_idx').execute();
    await db.schema.dropIndex('airline_changes_deadline_idx').execute();
    // The predicate is written as a literal: queries name 'PENDING' as a literal too, which is what
    // lets both engines see that the index covers them.
    await db.schema
      .createIndex('airline_changes_pending_idx')
      .on('airline_changes')
      .column('action_deadline')
      .where(sql.ref('status'), '=', sql.lit('PENDING'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('airline_changes_pending_idx').execute();
    await db.schema
      .createIndex('airline_changes_deadline_idx')
      .on('airline_changes')
      .columns(['status', 'action_deadline'])
      .execute();
    await db.schema.createIndex('airline_changes_status_idx').on('airline_changes').column('status').execute();
  },
};
