import type { Executor } from '../executor.js';

export interface MinuteCount {
  /** Minutes since the epoch. */
  minute: number;
  code: string;
  requests: number;
}

/** Adds one process's counts to what every process has counted for the same minutes and codes. */
export async function addRequestCounts(db: Executor, counts: readonly MinuteCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db
    .insertInto('request_counts')
    .values(counts.map((count) => ({ minute: count.minute, code: count.code, requests: count.requests })))
    .onConflict((conflict) =>
      conflict
        .columns(['minute', 'code'])
        .doUpdateSet((eb) => ({ requests: eb('request_counts.requests', '+', eb.ref('excluded.requests')) })),
    )
    .execute();
}

/** Minutes before `minute` are no longer shown: dropped, so the table stays an hour or two long. */
export async function dropRequestCountsBefore(db: Executor, minute: number): Promise<void> {
  await db.deleteFrom('request_counts').where('minute', '<', minute).execute();
}

/** Requests per code from `sinceMinute` on, as every process counted them. */
export async function requestCountsSince(
  db: Executor,
  sinceMinute: number,
): Promise<{ code: string; count: number }[]> {
  const rows = await db
    .selectFrom('request_counts')
    .select((eb) => ['code', eb.fn.sum<number | string>('requests').as('total')])
    .where('minute', '>=', sinceMinute)
    .groupBy('code')
    .execute();
  return rows.map((row) => ({ code: row.code, count: Number(row.total) }));
}
