import { sumMinor, type Minor } from './money.js';
import type { QuoteType, Ticket } from './order.js';

export interface TicketRefund {
  ticketNumber: string;
  amount: Minor;
  quoteType: QuoteType;
}

/**
 * An involuntary refund carries no penalty: the ticket's open coupons are refunded at their value.
 * FULL when nothing was flown, PARTIAL once any coupon was used.
 */
export function involuntaryRefund(ticket: Ticket): TicketRefund {
  const open = ticket.coupons.filter((coupon) => coupon.status === 'OPEN');
  return {
    ticketNumber: ticket.ticketNumber,
    amount: sumMinor(open.map((coupon) => coupon.value)),
    quoteType: ticket.coupons.some((coupon) => coupon.status === 'USED') ? 'PARTIAL' : 'FULL',
  };
}

export function refundTotal(refunds: readonly { amount: Minor }[]): Minor {
  return sumMinor(refunds.map((refund) => refund.amount));
}
