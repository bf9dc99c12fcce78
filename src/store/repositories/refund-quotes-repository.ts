import { runSql } from '../raw-sql.js';
import type { Executor } from '../executor.js';
import type { Statement } from '../statement.js';
import type { StoredRefundQuote } from '../stored-shapes.js';

/** The statement that stores a new quote: alone, or with the change of the order it was made on (order-update.ts). */
export function refundQuoteInsert(quote: StoredRefundQuote): Statement {
  return {
    text: 'insert into refund_quotes (quote_id, agency_id, order_id, created_at, expires_at, parts) values (?, ?, ?, ?, ?, ?)',
    parameters: [
      quote.quoteId,
      quote.agencyId,
      quote.orderId,
      quote.createdAt,
      quote.expiresAt,
      JSON.stringify(quote.parts),
    ],
  };
}

interface QuoteRow {
  quote_id: string;
  agency_id: string;
  order_id: string;
  created_at: string;
  expires_at: string;
  parts: string;
}

/** A quote of this agency's; another agency's is answered exactly like an unknown one. */
export async function findRefundQuote(
  db: Executor,
  quoteId: string,
  agencyId: string,
): Promise<StoredRefundQuote | null> {
  const [row] = await runSql<QuoteRow>(
    db,
    'select quote_id, agency_id, order_id, created_at, expires_at, parts from refund_quotes where quote_id = ? and agency_id = ?',
    [quoteId, agencyId],
  );
  return row
    ? {
        quoteId: row.quote_id,
        agencyId: row.agency_id,
        orderId: row.order_id,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        parts: JSON.parse(row.parts) as StoredRefundQuote['parts'],
      }
    : null;
}
