import { sql, type Kysely, type Migration } from 'kysely';

// The most rows a key gets back on rollback: enough to reach either limit (docs/console.md).
const FAILURES_KEPT_ON_ROLLBACK = 20;

/**
 * Sign-in attempts are counted before the password is checked (docs/decisions.md, "Limits on wrong
 * passwords"): one row per key (`email:…`, `address:…`) holding its window's start and its attempts,
 * moved on by one `insert … on conflict … do update … returning`, which concurrent attempts on a key
 * wait for in turn. The table of failures, one row each, counted after the check, goes.
 */
export const signInAttemptCounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_sign_in_attempts')
      .addColumn('attempt_key', 'varchar(300)', (c) => c.primaryKey())
      .addColumn('window_started_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('operator_sign_in_attempts_window_idx')
      .on('operator_sign_in_attempts')
      .column('window_started_at')
      .execute();
    // Failures of the last minutes stay counted; their window runs from the latest, so no limit ends early.
    await sql`insert into operator_sign_in_attempts (attempt_key, window_started_at, attempts)
      select failure_key, max(failed_at), count(*) from operator_login_failures group by failure_key`.execute(db);
    await db.schema.dropTable('operator_login_failures').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_login_failures')
      .addColumn('failure_key', 'varchar(300)', (c) => c.notNull())
      .addColumn('failed_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('operator_login_failures_key_idx')
      .on('operator_login_failures')
      .columns(['failure_key', 'failed_at'])
      .execute();
    // Each attempt becomes a failure at its window's start, so the limits reached still hold after the rollback.
    await sql`with recursive n (i) as (select 1 union all select i + 1 from n where i < ${sql.lit(FAILURES_KEPT_ON_ROLLBACK)})
      insert into operator_login_failures (failure_key, failed_at)
      select a.attempt_key, a.window_started_at from operator_sign_in_attempts a join n on n.i <= a.attempts`.execute(
      db,
    );
    await db.schema.dropTable('operator_sign_in_attempts').execute();
  },
};
