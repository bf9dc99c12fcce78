import type { Kysely, Migration } from 'kysely';

/**
 * `refund_quotes`: the quotes of AirOrderRefundQuote, which AirOrderRefund confirms. One row per
 * quote, its parts (one per booking: the passengers, each ticket's refund and breakdown, the
 * booking's fingerprint and when the part expires) together as JSON, found by its id alone: a quote
 * is only ever confirmed by naming it. Written once and never changed: whether a quote was confirmed
 * is in the order's record (the passengers it took out name it), written by the same change as the
 * refund, so that the two can never disagree. Kept after expiry: a confirmed quote answers its refund
 * again, however late the retry. No foreign key to the order: a quote outlives an order replaced by
 * `orders import --upsert`, and is then outdated by its fingerprint.
 */
export const refundQuotes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('refund_quotes')
      .addColumn('quote_id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('agency_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('order_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      // JSON: [{ reference, fingerprint, passengerIds, tickets, expiresAt }], in request order.
      .addColumn('parts', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('refund_quotes').execute();
  },
};
