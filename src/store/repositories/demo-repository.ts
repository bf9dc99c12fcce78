import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';

/**
 * Removes everything the demo agency's use left behind: its orders (their records and timers), their audit trail, its events and their deliveries, and its kept
 * responses. Only for the demo agency: the operator's own data is never removed by the service.
 */
export async function removeDemoActivity(db: Executor, agencyId: string): Promise<void> {
  await runSql(db, 'delete from audit_events where order_id in (select order_id from order_records where agency_id = ?)', [agencyId]);
  await runSql(db, 'delete from airline_change_timers where order_id in (select order_id from order_records where agency_id = ?)', [agencyId]);
  await runSql(db, 'delete from webhook_deliveries where agency_id = ?', [agencyId]);
  await runSql(db, 'delete from events where agency_id = ?', [agencyId]);
  await runSql(db, 'delete from idempotency_keys where agency_id = ?', [agencyId]);
  await runSql(db, 'delete from order_records where agency_id = ?', [agencyId]);
}
