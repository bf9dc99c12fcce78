import type { OrderSummary } from '../../store/repositories/console-queries-repository.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import type { ConsoleSession } from '../sessions.js';

export const PAGE_SIZE = 25;

export function ordersPage(input: {
  session: ConsoleSession;
  q: string;
  page: number;
  orders: OrderSummary[];
  more: boolean;
}): string {
  const link = (number: number) => `/console/orders?q=${encodeURIComponent(input.q)}&page=${number}`;
  return page(
    { title: 'Orders', section: 'Orders', session: input.session },
    html`
<form method="get" action="/console/orders" role="search">
<label for="q">Order id, booking reference, ticket number or passenger surname</label>
<input type="search" id="q" name="q" value="${input.q}">
<button type="submit">Search</button>
</form>
${
  input.orders.length === 0
    ? html`<p>No orders found${input.q ? html` for <strong>${input.q}</strong>` : ''}.</p>`
    : html`
<table><caption class="muted">Page ${input.page}</caption><thead><tr><th scope="col">Order</th><th scope="col">Agency</th><th scope="col">Currency</th><th scope="col">Last changed</th></tr></thead><tbody>
${input.orders.map((order) => html`<tr><td><a href="/console/orders/${encodeURIComponent(order.orderId)}">${order.orderId}</a></td><td>${order.agencyId}</td><td>${order.currency}</td><td>${order.updatedAt}</td></tr>`)}
</tbody></table>`
}
<nav aria-label="Pages">${input.page > 1 ? html`<a href="${link(input.page - 1)}" rel="prev">Previous page</a> ` : ''}${input.more ? html`<a href="${link(input.page + 1)}" rel="next">Next page</a>` : ''}</nav>`,
  );
}
