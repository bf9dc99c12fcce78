import type { Booking, QuoteType } from './order.js';
import { involuntaryRefund, refundTotal, type TicketRefund } from './refund-calculator.js';
import type { Minor } from './money.js';

export interface RefundQuote {
  amount: Minor;
  /** PARTIAL when any ticket's refund is PARTIAL (a coupon was flown), else FULL. */
  quoteType: QuoteType;
  /** One per ticket, in passenger order. */
  tickets: TicketRefund[];
}

/**
 * What AirOrderInvoluntaryCancel would refund on this booking now: every ticket's open coupons at
 * their value, no penalty. The cancel itself refunds exactly these amounts, so a quote is a promise.
 */
export function refundQuote(booking: Booking): RefundQuote {
  // A passenger who left by a voluntary refund has had theirs already.
  const tickets = booking.passengers.flatMap((passenger) =>
    passenger.ticket && !passenger.canceled ? [involuntaryRefund(passenger.ticket)] : [],
  );
  return {
    amount: refundTotal(tickets),
    quoteType: tickets.some((ticket) => ticket.quoteType === 'PARTIAL') ? 'PARTIAL' : 'FULL',
    tickets,
  };
}
