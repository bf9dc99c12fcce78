import { formatAmount } from '../../domain/money.js';
import type {
  FailingEndpoint,
  PendingChangeSummary,
  RefundTotal,
} from '../../store/repositories/console-queries-repository.js';
import type { OperatorAction } from '../../store/repositories/operator-actions-repository.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import type { ConsoleSession } from '../sessions.js';

function changesTable(caption: string, changes: PendingChangeSummary[]): Html {
  if (changes.length === 0) return html`<h3>${caption}</h3><p class="muted">None.</p>`;
  return html`<h3>${caption}</h3><table><thead><tr><th scope="col">Deadline</th><th scope="col">Order</th><th scope="col">Booking</th><th scope="col">Change</th><th scope="col">Consequence</th></tr></thead><tbody>
${changes.map((change) => html`<tr><td>${change.actionDeadline ?? 'none'}</td><td><a href="/console/orders/${encodeURIComponent(change.orderId)}">${change.orderId}</a></td><td>${change.reference}</td><td>${change.changeId} (${change.kind})</td><td>${change.consequence}</td></tr>`)}
</tbody></table>`;
}

export function overviewPage(input: {
  session: ConsoleSession;
  notice: string | null;
  now: string;
  changes: PendingChangeSummary[];
  endpoints: FailingEndpoint[];
  refunds: RefundTotal[];
  requests: { code: string; count: number }[];
  actions: OperatorAction[];
}): string {
  const now = Date.parse(input.now);
  const overdue = input.changes.filter(
    (change) => change.actionDeadline !== null && Date.parse(change.actionDeadline) <= now,
  );
  const soon = input.changes.filter(
    (change) =>
      change.actionDeadline !== null &&
      Date.parse(change.actionDeadline) > now &&
      Date.parse(change.actionDeadline) <= now + 86_400_000,
  );
  const later = input.changes.filter((change) => !overdue.includes(change) && !soon.includes(change));
  return page(
    { title: 'Overview', section: 'Overview', session: input.session, notice: input.notice },
    html`
<section class="card" aria-labelledby="pending"><h2 id="pending">Pending airline changes (${input.changes.length})</h2>
${changesTable('Overdue', overdue)}${changesTable('Next 24 hours', soon)}${changesTable('Later', later)}</section>
<section class="card" aria-labelledby="failing"><h2 id="failing">Webhook endpoints failing</h2>
${
  input.endpoints.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">Agency</th><th scope="col">Endpoint</th><th scope="col">Failed deliveries</th><th scope="col">Last error</th></tr></thead><tbody>
${input.endpoints.map((endpoint) => html`<tr><td><a href="/console/agencies/${encodeURIComponent(endpoint.agencyId)}">${endpoint.agencyId}</a></td><td>${endpoint.url}</td><td>${endpoint.failed}</td><td>${endpoint.lastError ?? ''}</td></tr>`)}</tbody></table>`
}</section>
<section class="card" aria-labelledby="refunds"><h2 id="refunds">Refunds of the last 24 hours</h2>
${
  input.refunds.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">Currency</th><th scope="col">Refunds</th><th scope="col">Amount</th></tr></thead><tbody>
${input.refunds.map((refund) => html`<tr><td>${refund.currency}</td><td>${refund.count}</td><td>${formatAmount(refund.amountMinor, refund.currency)} ${refund.currency}</td></tr>`)}</tbody></table>`
}</section>
<section class="card" aria-labelledby="requests"><h2 id="requests">API requests of the last hour</h2>
<p class="muted">Counted by every process serving this store; those of another process show within seconds.</p>
${
  input.requests.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">Outcome code</th><th scope="col">Requests</th></tr></thead><tbody>
${input.requests.map((row) => html`<tr><td>${row.code}</td><td>${row.count}</td></tr>`)}</tbody></table>`
}</section>
<section class="card" aria-labelledby="actions"><h2 id="actions">Recent console actions</h2>
${
  input.actions.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">When</th><th scope="col">Operator</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">Reason</th></tr></thead><tbody>
${input.actions.map((action) => html`<tr><td>${action.occurredAt}</td><td>${action.email}</td><td>${action.action}</td><td>${action.target}</td><td>${action.reason ?? ''}</td></tr>`)}</tbody></table>`
}</section>`,
  );
}
