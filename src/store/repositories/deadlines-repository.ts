import type { AgencyEvent } from '../../events/event-types.js';
import { placeholders, runSql, runStatements } from '../raw-sql.js';
import type { Statement } from '../statement.js';
import { eventWrites } from './events-repository.js';
import type { Executor } from '../executor.js';

export interface ChangeRef {
  changeId: string;
  orderId: string;
  reference: string;
}

interface ChangeRefRow {
  change_id: string;
  order_id: string;
  reference: string;
}

const toRef = (row: ChangeRefRow): ChangeRef => ({
  changeId: row.change_id,
  orderId: row.order_id,
  reference: row.reference,
});

// Deadlines are timers (`airline_change_timers`, migration 011): written when a change is recorded,
// left alone when an agency resolves it, and checked against the order when they fall due. So an
// accept or a cancel moves no index; the scheduler settles the timers it finds resolved.

/**
 * Timers that fell due at `now`, earliest first: their changes may have been resolved since (the
 * caller checks the order). Instants are stored as ISO-8601 UTC text, which sorts as time.
 */
export async function passedDeadlines(db: Executor, now: string, limit: number): Promise<ChangeRef[]> {
  const rows = await runSql<ChangeRefRow>(
    db,
    `select change_id, order_id, reference from airline_change_timers
    where due_at <= ? order by due_at limit ?`,
    [now, limit],
  );
  return rows.map(toRef);
}

/** Timers due after `now` and at or before `until`, not yet announced as approaching. */
export async function approachingDeadlines(
  db: Executor,
  now: string,
  until: string,
  limit: number,
): Promise<ChangeRef[]> {
  const rows = await runSql<ChangeRefRow>(
    db,
    `select change_id, order_id, reference from airline_change_timers
    where due_at > ? and due_at <= ? and warned_at is null order by due_at limit ?`,
    [now, until, limit],
  );
  return rows.map(toRef);
}

/** Of these changes, the ones whose timer still runs and was not yet announced (read under the order's lock). */
export async function stillToWarn(db: Executor, changeIds: readonly string[]): Promise<Set<string>> {
  if (changeIds.length === 0) return new Set();
  const rows = await runSql<{ change_id: string }>(
    db,
    `select change_id from airline_change_timers
    where change_id in (${placeholders(changeIds.length)}) and due_at is not null and warned_at is null`,
    changeIds,
  );
  return new Set(rows.map((row) => row.change_id));
}

/** Marks the changes as announced and stores the announcements, as one step (one round trip where the engine can). */
export async function recordWarnings(
  db: Executor,
  changeIds: readonly string[],
  announced: readonly AgencyEvent[],
  now: string,
): Promise<void> {
  if (changeIds.length === 0) return;
  const marked: Statement = {
    text: `update airline_change_timers set warned_at = ? where change_id in (${placeholders(changeIds.length)})`,
    parameters: [now, ...changeIds],
  };
  await runStatements(db, [marked, ...eventWrites(announced, now)]);
}

/** Stops the timers of changes that are no longer pending: nothing is left for them to do. */
export async function settleTimers(db: Executor, changeIds: readonly string[]): Promise<void> {
  if (changeIds.length === 0) return;
  await runSql(
    db,
    `update airline_change_timers set due_at = null where change_id in (${placeholders(changeIds.length)})`,
    changeIds,
  );
}
