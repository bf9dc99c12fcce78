import { runSql } from '../raw-sql.js';
import { nextEventId } from '../sortable-id.js';
import type { Executor } from '../executor.js';
import type { Statement } from '../statement.js';

export interface OperatorAction {
  email: string;
  action: string;
  target: string;
  reason: string | null;
  occurredAt: string;
}

/** The statement that adds an act to the console's journal: alone, or with the change of an order it records (order-update.ts). */
export function operatorActionInsert(action: Omit<OperatorAction, 'occurredAt'>, now: string): Statement {
  return {
    text: 'insert into operator_actions (action_id, email, action, target, reason, occurred_at) values (?, ?, ?, ?, ?, ?)',
    parameters: [nextEventId(), action.email, action.action, action.target, action.reason, now],
  };
}

export async function insertOperatorAction(
  db: Executor,
  action: Omit<OperatorAction, 'occurredAt'>,
  now: string,
): Promise<void> {
  const { text, parameters } = operatorActionInsert(action, now);
  await runSql(db, text, parameters);
}

/** Newest first; only one operator's when `email` is given. */
export async function recentOperatorActions(
  db: Executor,
  limit: number,
  email: string | null = null,
): Promise<OperatorAction[]> {
  const columns = 'select email, action, target, reason, occurred_at from operator_actions';
  const order = 'order by occurred_at desc, action_id desc limit ?';
  const rows = await runSql<{
    email: string;
    action: string;
    target: string;
    reason: string | null;
    occurred_at: string;
  }>(
    db,
    email === null ? `${columns} ${order}` : `${columns} where email = ? ${order}`,
    email === null ? [limit] : [email, limit],
  );
  return rows.map((row) => ({
    email: row.email,
    action: row.action,
    target: row.target,
    reason: row.reason,
    occurredAt: row.occurred_at,
  }));
}
