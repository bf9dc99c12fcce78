import assert from 'node:assert/strict';
import type { Executor } from '../../src/store/executor.js';
import { runSql } from '../../src/store/raw-sql.js';
import { bearer } from './documents.js';
import type { TestService } from './test-service.js';
import { scaled } from './time-scale.js';

/** An event as AirOrderEventList lists it. */
export interface FeedEvent {
  EventID: string;
  Type: string;
  Timestamp: string;
  Data: any;
}

/** How many events the store holds for the agency, listed or not yet. */
export async function storedEventCount(db: Executor, agencyId: string): Promise<number> {
  const [row] = await runSql<{ n: number | string }>(db, 'select count(*) as n from events where agency_id = ?', [
    agencyId,
  ]);
  return Number(row!.n);
}

/** Every event the feed lists for the token's agency, paged with NextAfter. */
export async function feedOf(service: TestService, token: string): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for (let after = ''; ;) {
    const response = await service.post(
      '/AirOrderEventList',
      { OrderEventListRQ: { Query: after === '' ? { Limit: 500 } : { After: after, Limit: 500 } } },
      bearer(token),
    );
    assert.equal(response.status, 200, response.text);
    const rs = response.body.OrderEventListRS as { Events: FeedEvent[]; NextAfter: string };
    if (rs.Events.length === 0) return events;
    events.push(...rs.Events);
    after = rs.NextAfter;
  }
}

/**
 * What `read` returns once the feed it reads lists as many events as `storedCount` says the store
 * holds. On
 * PostgreSQL an event is listed only once every older transaction of the server has ended
 * (docs/decisions.md, "The feed's order is commit order"), and other test files run transactions
 * on the same server: a test that needs "everything so far" waits for it, at most 15 s, instead
 * of reading a moment too early.
 */
export async function untilFeedSettled<T extends { events: unknown[] }>(
  storedCount: () => Promise<number>,
  read: () => Promise<T>,
): Promise<T> {
  const give = Date.now() + scaled(15_000);
  for (;;) {
    const stored = await storedCount();
    const listed = await read();
    if (listed.events.length === stored) return listed;
    assert.ok(Date.now() < give, `the feed lists ${listed.events.length} of the ${stored} stored events after 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every event of the token's agency, once the feed lists all the store holds. */
export async function settledFeed(service: TestService, token: string, agencyId: string): Promise<FeedEvent[]> {
  const listed = await untilFeedSettled(
    () => storedEventCount(service.store.reader, agencyId),
    async () => ({ events: await feedOf(service, token) }),
  );
  return listed.events;
}
