import { runSql } from '../raw-sql.js';
import { nextEventId } from '../sortable-id.js';
import type { Executor } from '../store.js';

export interface OperatorAction {
  email: string;
  action: string;
  target: string;
  reason: string | null;
  occurredAt: string;
}

export async function insertOperatorAction(db: Executor, action: Omit<OperatorAction, 'occurredAt'>, now: string): Promise<void> {
  await runSql(db, 'insert into operator_actions (action_id, email, action, target, reason, occurred_at) values (?, ?, ?, ?, ?, ?)',
    [nextEventId(), action.email, action.action, action.target, action.reason, now]);
}

/** Newest first. */
export async function recentOperatorActions(db: Executor, limit: number): Promise<OperatorAction[]> {
  const rows = await runSql<{ email: string; action: string; target: string; reason: string | null; occurred_at: string }>(db,
    'select email, action, target, reason, occurred_at from operator_actions order by occurred_at desc, action_id desc limit ?', [limit]);
  return rows.map((row) => ({ email: row.email, action: row.action, target: row.target, reason: row.reason, occurredAt: row.occurred_at }));
}
