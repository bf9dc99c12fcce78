import { runSql } from '../raw-sql.js';
import type { Executor } from '../store.js';

export async function recordLoginFailures(db: Executor, keys: readonly string[], now: string): Promise<void> {
  for (const key of keys) await runSql(db, 'insert into operator_login_failures (failure_key, failed_at) values (?, ?)', [key, now]);
}

export async function countLoginFailures(db: Executor, key: string, since: string): Promise<number> {
  const [row] = await runSql<{ count: number | string }>(db,
    'select count(*) as count from operator_login_failures where failure_key = ? and failed_at >= ?', [key, since]);
  return Number(row?.count ?? 0);
}

export async function clearLoginFailures(db: Executor, key: string): Promise<void> {
  await runSql(db, 'delete from operator_login_failures where failure_key = ?', [key]);
}

export async function purgeLoginFailures(db: Executor, before: string): Promise<void> {
  await runSql(db, 'delete from operator_login_failures where failed_at < ?', [before]);
}
