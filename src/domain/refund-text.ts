import { formatAmount } from './money.js';
import type { Refund } from './order.js';

/** `TicketNumber:<n> QuoteType:<FULL|PARTIAL> RefundAmount:<amount>` per ticket, joined by spaces. */
export function refundText(refunds: readonly Refund[], currency: string): string {
  return refunds
    .map((refund) => `TicketNumber:${refund.ticketNumber} QuoteType:${refund.quoteType} RefundAmount:${formatAmount(refund.amount, currency)}`)
    .join(' ');
}
