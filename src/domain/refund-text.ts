import { formatAmount } from './money.js';
import type { Refund } from './order.js';

type TextedRefund = Pick<Refund, 'ticketNumber' | 'quoteType' | 'amount'>;

/** `TicketNumber:<n> QuoteType:<FULL|PARTIAL|VOID> RefundAmount:<amount>` per ticket, joined by spaces. */
export function refundText(refunds: readonly TextedRefund[], currency: string): string {
  return refunds
    .map(
      (refund) =>
        `TicketNumber:${refund.ticketNumber} QuoteType:${refund.quoteType} RefundAmount:${formatAmount(refund.amount, currency)}`,
    )
    .join(' ');
}
