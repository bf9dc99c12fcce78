import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';

/**
 * Takes or renews the lease `name` for `holder` until `until`, unless another holder's lease is
 * still running at `now`. True when `holder` holds it. One statement, so two processes asking at
 * once cannot both win.
 */
export async function claimLease(
  db: Executor,
  name: string,
  holder: string,
  now: string,
  until: string,
): Promise<boolean> {
  const rows = await runSql<{ holder: string }>(
    db,
    `insert into background_leases (name, holder, expires_at) values (?, ?, ?)
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
    where background_leases.holder = excluded.holder or background_leases.expires_at <= ?
    returning holder`,
    [name, holder, until, now],
  );
  return rows.length > 0;
}

/** Gives the lease up (at shutdown), so another process takes over at once rather than when it expires. */
export async function releaseLease(db: Executor, name: string, holder: string): Promise<void> {
  await runSql(db, 'delete from background_leases where name = ? and holder = ?', [name, holder]);
}
