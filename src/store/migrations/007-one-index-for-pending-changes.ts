import type { Kysely, Migration } from 'kysely';

/**
 * `airline_changes_status_idx` (status) said nothing `airline_changes_deadline_idx` (status,
 * action_deadline) does not: every query by status alone reads the longer index's prefix. It cost
 * a write on every change of status, that is on every accepted, closed or cancelled change: one page
 * of the store more per request (docs/benchmarks.md).
 */
export const oneIndexForPendingChanges: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('airline_changes_status_idx').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.createIndex('airline_changes_status_idx').on('airline_changes').column('status').execute();
  },
};
