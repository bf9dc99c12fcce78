import { formatAmount } from '../../domain/money.js';
import type { Booking, Order } from '../../domain/order.js';
import type { RefundQuote } from '../../domain/refund-quote.js';
import { html } from '../html.js';
import { csrfField, page } from '../layout.js';
import type { ConsoleAction } from '../order-actions.js';
import type { ConsoleSession } from '../sessions.js';

/** What the operator is about to do for the agency, and why: the reason goes into the audit trail. */
export function confirmPage(input: {
  session: ConsoleSession;
  order: Order;
  booking: Booking;
  action: ConsoleAction;
  quote: RefundQuote;
  error: string | null;
  reason: string;
}): string {
  const { order, booking } = input;
  const money = (minor: number) => `${formatAmount(minor, order.currency)} ${order.currency}`;
  const accept = input.action === 'involuntaryAccept';
  const path = `/console/orders/${encodeURIComponent(order.orderId)}/bookings/${encodeURIComponent(booking.reference)}/${accept ? 'accept' : 'cancel'}`;
  const pending = booking.changes.filter((change) => change.status === 'PENDING');
  return page(
    {
      title: accept ? `Accept change on ${booking.reference}` : `Cancel ${booking.reference} with refund`,
      section: 'Orders',
      session: input.session,
      error: input.error,
    },
    html`
<p>Order <a href="/console/orders/${encodeURIComponent(order.orderId)}">${order.orderId}</a> of agency ${order.agencyId}. Pending: ${pending.map((change) => `${change.changeId} (${change.kind}${change.actionDeadline ? `, deadline ${change.actionDeadline}` : ''})`).join(', ') || 'none'}.</p>
${
  accept
    ? html`<p>The booking takes the airline's new itinerary; nothing is refunded.</p>`
    : html`
<p>Refund quote: <strong>${money(input.quote.amount)}</strong> (${input.quote.quoteType})</p>
<table><thead><tr><th scope="col">Ticket</th><th scope="col">Refund</th><th scope="col">Quote</th></tr></thead><tbody>
${input.quote.tickets.map((ticket) => html`<tr><td>${ticket.ticketNumber}</td><td>${money(ticket.amount)}</td><td>${ticket.quoteType}</td></tr>`)}
</tbody></table>`
}
<form method="post" action="${path}">
${csrfField(input.session)}
<label for="reason">Reason (kept in the audit trail)</label>
<textarea id="reason" name="reason" rows="3" required minlength="3" maxlength="500">${input.reason}</textarea>
<div><button type="submit"${accept ? '' : html` class="danger"`}>${accept ? 'Accept change' : 'Cancel with refund'}</button>
<a href="/console/orders/${encodeURIComponent(order.orderId)}">Back to the order</a></div>
</form>`,
  );
}
