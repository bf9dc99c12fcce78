import type { Kysely, Migration } from 'kysely';
import { engineSql } from '../engine-sql.js';

/**
 * Every change of an order updates its row (`updated_at`, `version`) and the booking's (status,
 * cancellation, passengers' coupons); neither touches an indexed column. On PostgreSQL such an update
 * stays on the row's page without a new entry in any index (a heap-only update), if the page has
 * room: so pages of these tables are left partly free. Applies to pages written from now on (a
 * database migrated with its data keeps its full pages until they are rewritten, e.g. by VACUUM FULL).
 * The figures per table follow the rows' sizes: an order row is small, a booking row about 1.2 kB.
 */
const ROOM: Record<string, number> = { orders: 10, bookings: 20 };

export const roomForUpdatesInPlace: Migration = {
  async up(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    for (const [table, percent] of Object.entries(ROOM)) await schema.roomForUpdates(db, table, percent);
  },
  async down(db: Kysely<unknown>) {
    const { schema } = engineSql(db);
    for (const table of Object.keys(ROOM)) await schema.roomForUpdates(db, table, null);
  },
};
