import { formatAmount } from '../../domain/money.js';
import type { Booking, Order } from '../../domain/order.js';
import { refundQuote } from '../../domain/refund-quote.js';
import type { AuditRecord } from '../../store/repositories/audit-repository.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import type { ConsoleSession } from '../sessions.js';

function bookingSection(order: Order, booking: Booking, now: string): Html {
  const money = (minor: number) => `${formatAmount(minor, order.currency)} ${order.currency}`;
  const pending = booking.changes.some((change) => change.status === 'PENDING') && booking.status === 'CONFIRMED';
  const base = `/console/orders/${encodeURIComponent(order.orderId)}/bookings/${encodeURIComponent(booking.reference)}`;
  const quote = refundQuote(booking);
  return html`<section class="card" aria-labelledby="booking-${booking.reference}">
<h2 id="booking-${booking.reference}">Booking ${booking.reference} · ${booking.status}${booking.cancellation ? ` (${booking.cancellation})` : ''}</h2>
${pending ? html`<p><a href="${base}/accept">Accept change</a> · <a href="${base}/cancel">Cancel with refund</a> <span class="muted">(refund quote ${money(quote.amount)}, ${quote.quoteType})</span></p>` : ''}
<h3>Itinerary</h3>
<table><thead><tr><th scope="col">Segment</th><th scope="col">Flight</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Departure</th><th scope="col">Arrival</th></tr></thead><tbody>
${booking.segments.map((segment) => html`<tr><td>${segment.segmentId}</td><td>${segment.carrier}${segment.flightNumber}</td><td>${segment.origin}</td><td>${segment.destination}</td><td>${segment.departure}</td><td>${segment.arrival}</td></tr>`)}
</tbody></table>
<h3>Passengers, tickets and coupons</h3>
<table><thead><tr><th scope="col">Passenger</th><th scope="col">Type</th><th scope="col">Ticket</th><th scope="col">Fare and taxes</th><th scope="col">Coupons</th></tr></thead><tbody>
${booking.passengers.map(
  (
    passenger,
  ) => html`<tr><td>${passenger.givenName} ${passenger.surname} (${passenger.passengerId})${passenger.canceled ? ` · left ${passenger.canceled.at}` : ''}</td><td>${passenger.type}</td>
<td>${passenger.ticket?.ticketNumber ?? 'none'}</td><td>${passenger.ticket ? `${money(passenger.ticket.baseFare)} + ${money(passenger.ticket.taxes)}` : ''}</td>
<td>${passenger.ticket ? passenger.ticket.coupons.map((coupon) => html`${coupon.segmentId}: ${coupon.status} ${money(coupon.value)}<br>`) : ''}</td></tr>`,
)}
</tbody></table>
<h3>Airline changes</h3>
${
  booking.changes.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">Change</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Deadline</th><th scope="col">Consequence</th><th scope="col">Removed</th><th scope="col">Added</th></tr></thead><tbody>
${booking.changes.map(
  (change) => html`<tr><td>${change.changeId}</td><td>${change.kind}</td><td>${change.status}</td>
<td>${change.actionDeadline ?? 'none'}${change.status === 'PENDING' && change.actionDeadline && change.actionDeadline <= now ? ' (passed)' : ''}</td><td>${change.consequenceOfInaction}</td>
<td>${change.removedSegments.join(', ')}</td><td>${change.addedSegments.map((segment) => `${segment.segmentId} ${segment.carrier}${segment.flightNumber} ${segment.departure}`).join(', ')}</td></tr>`,
)}
</tbody></table>`
}
${pending ? html`<p>Refund quote if cancelled now: <strong>${money(quote.amount)}</strong> (${quote.quoteType})</p>` : ''}
<h3>Refunds</h3>
${
  booking.refunds.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">Ticket</th><th scope="col">Amount</th><th scope="col">Quote</th><th scope="col">When</th><th scope="col">Fare − penalty + taxes</th><th scope="col">Taxes given back</th></tr></thead><tbody>
${booking.refunds.map(
  (
    refund,
  ) => html`<tr><td>${refund.ticketNumber}</td><td>${money(refund.amount)}</td><td>${refund.quoteType}${refund.quoteId ? ` (${refund.quoteId})` : ''}</td><td>${refund.createdAt}</td>
<td>${refund.breakdown ? `${money(refund.breakdown.fare)} − ${money(refund.breakdown.penalty)} + ${money(refund.breakdown.taxes)}` : 'coupons at their value, no penalty'}</td>
<td>${refund.breakdown ? refund.breakdown.taxLines.map((line) => `${line.code} ${money(line.amount)}${line.refundable ? '' : ' (kept)'}`).join(', ') || 'all' : ''}</td></tr>`,
)}</tbody></table>`
}
</section>`;
}

function who(record: AuditRecord): string {
  if (record.operatorEmail) return `operator ${record.operatorEmail}`;
  if (record.actor === 'agency')
    return `agency ${record.agencyId ?? ''}${record.tokenId ? ` (token ${record.tokenId})` : ''}`;
  return record.actor;
}

export function orderPage(input: {
  session: ConsoleSession;
  notice: string | null;
  order: Order;
  trail: AuditRecord[];
  now: string;
}): string {
  const { order } = input;
  return page(
    { title: `Order ${order.orderId}`, section: 'Orders', session: input.session, notice: input.notice },
    html`
<p>Agency <a href="/console/agencies/${encodeURIComponent(order.agencyId)}">${order.agencyId}</a> · currency ${order.currency}</p>
${order.bookings.map((booking) => bookingSection(order, booking, input.now))}
<section class="card" aria-labelledby="timeline"><h2 id="timeline">Audit trail</h2>
<ol class="timeline">
${input.trail.map(
  (
    record,
  ) => html`<li><strong>${record.occurredAt}</strong> · ${record.event}${record.reference ? ` · ${record.reference}` : ''} · by ${who(record)} via ${record.operation}
${record.reason ? html`<br>Reason: ${record.reason}` : ''}<br><code>${JSON.stringify(record.detail)}</code></li>`,
)}
</ol></section>`,
  );
}
