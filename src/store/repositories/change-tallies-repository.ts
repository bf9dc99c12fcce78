import type { Booking } from '../../domain/order.js';
import type { Executor } from '../executor.js';
import { runSql } from '../raw-sql.js';
import type { Statement } from '../statement.js';

/**
 * How many airline changes await an agency's decision, kept as a sum of a few rows
 * (`change_tallies`, migration 011) that writes add their difference to: the pending changes live
 * inside the order records, where counting them would mean reading every record. Each write picks
 * a row at random, so that concurrent writes on PostgreSQL seldom wait for one another; only the
 * sum means anything.
 */
export const TALLY_SHARDS = 16;

/** The pending changes among bookings, the domain's or as stored. */
export function pendingIn(
  bookings: readonly { changes: readonly Pick<Booking['changes'][number], 'status'>[] }[],
): number {
  let pending = 0;
  for (const booking of bookings) for (const change of booking.changes) if (change.status === 'PENDING') pending += 1;
  return pending;
}

/** The statement adding `difference` pending changes to the tally; null when there is none. */
export function tallyWrite(difference: number): Statement | null {
  if (difference === 0) return null;
  return {
    text: 'update change_tallies set pending = pending + ? where shard = ?',
    parameters: [difference, Math.floor(Math.random() * TALLY_SHARDS)],
  };
}

export async function addToTally(db: Executor, difference: number): Promise<void> {
  const write = tallyWrite(difference);
  if (write) await runSql(db, write.text, write.parameters);
}

/** How many airline changes, of every order, await an agency's action. */
export async function countPendingChanges(db: Executor): Promise<number> {
  const [row] = await runSql<{ pending: number | string | null }>(
    db,
    'select sum(pending) as pending from change_tallies',
    [],
  );
  // A sum answers one row, null when there is nothing to add up.
  return Number(row!.pending ?? 0);
}
