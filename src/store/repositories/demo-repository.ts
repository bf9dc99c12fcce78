import { runSql } from '../raw-sql.js';
import { addToTally } from './change-tallies-repository.js';
import type { Executor } from '../executor.js';

/**
 * Removes everything the demo agency's use left behind: its orders (their records and timers), their audit trail, its events and their deliveries, and its kept
 * responses. Only for the demo agency: the operator's own data is never removed by the service.
 */
export async function removeDemoActivity(db: Executor, agencyId: string): Promise<void> {
  await runSql(db, 'delete from audit_log where order_id in (select order_id from order_records where agency_id = ?)', [
    agencyId,
  ]);
  await runSql(
    db,
    'delete from audit_events_before_012 where order_id in (select order_id from order_records where agency_id = ?)',
    [agencyId],
  );
  await runSql(
    db,
    'delete from airline_change_timers where order_id in (select order_id from order_records where agency_id = ?)',
    [agencyId],
  );
  await runSql(db, 'delete from webhook_deliveries where agency_id = ?', [agencyId]);
  await runSql(db, 'delete from event_log where agency_id = ?', [agencyId]);
  await runSql(db, 'delete from events_before_013 where agency_id = ?', [agencyId]);
  await runSql(db, 'delete from idempotency_keys where agency_id = ?', [agencyId]);
  await runSql(db, 'delete from kept_response_counts where agency_id = ?', [agencyId]);
  const [pending] = await runSql<{ n: number | string }>(
    db,
    `select count(*) as n from airline_changes c join order_records r on r.order_id = c.order_id
    where r.agency_id = ? and c.status = 'PENDING'`,
    [agencyId],
  );
  // A count answers one row, always.
  await addToTally(db, -Number(pending!.n));
  await runSql(db, 'delete from order_records where agency_id = ?', [agencyId]);
}
