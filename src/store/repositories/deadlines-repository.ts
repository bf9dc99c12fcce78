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

interface ChangeRefRow { change_id: string; order_id: string; reference: string }

const toRef = (row: ChangeRefRow): ChangeRef => ({ changeId: row.change_id, orderId: row.order_id, reference: row.reference });

/** Pending changes whose deadline has passed at `now`, earliest deadline first. Instants are stored as ISO-8601 UTC text, which sorts as time. */
export async function passedDeadlines(db: Executor, now: string, limit: number): Promise<ChangeRef[]> {
  const rows = await runSql<ChangeRefRow>(db, `select change_id, order_id, reference from airline_changes
    where status = 'PENDING' and action_deadline <= ? order by action_deadline limit ?`, [now, limit]);
  return rows.map(toRef);
}

/** Pending changes whose deadline is after `now` and at or before `until`, not yet announced as approaching. */
export async function approachingDeadlines(db: Executor, now: string, until: string, limit: number): Promise<ChangeRef[]> {
  const rows = await runSql<ChangeRefRow>(db, `select change_id, order_id, reference from airline_changes
    where status = 'PENDING' and action_deadline > ? and action_deadline <= ? and warned_at is null
    order by action_deadline limit ?`, [now, until, limit]);
  return rows.map(toRef);
}

/** Of these changes, the ones still pending and not yet announced (read under the order's lock). */
export async function stillToWarn(db: Executor, changeIds: readonly string[]): Promise<Set<string>> {
  if (changeIds.length === 0) return new Set();
  const rows = await runSql<{ change_id: string }>(db, `select change_id from airline_changes
    where change_id in (${placeholders(changeIds.length)}) and status = 'PENDING' and warned_at is null`, changeIds);
  return new Set(rows.map((row) => row.change_id));
}

/** Marks the changes as announced and stores the announcements, as one step (one round trip where the engine can). */
export async function recordWarnings(db: Executor, changeIds: readonly string[], announced: readonly AgencyEvent[], now: string): Promise<void> {
  if (changeIds.length === 0) return;
  const marked: Statement = {
    text: `update airline_changes set warned_at = ? where change_id in (${placeholders(changeIds.length)})`, parameters: [now, ...changeIds],
  };
  await runStatements(db, [marked, ...eventWrites(announced, now)]);
}
