import type { Agency } from '../../store/repositories/agencies-repository.js';
import type { AgencySummary, TokenSummary } from '../../store/repositories/console-queries-repository.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../store/repositories/webhook-repository.js';
import { html } from '../html.js';
import { csrfField, page } from '../layout.js';
import type { ConsoleSession } from '../sessions.js';

export function agenciesPage(input: {
  session: ConsoleSession;
  agencies: AgencySummary[];
  notice: string | null;
  error: string | null;
  form: Partial<Record<'agencyId' | 'name' | 'iata' | 'email', string>>;
}): string {
  return page(
    { title: 'Agencies', section: 'Agencies', session: input.session, notice: input.notice, error: input.error },
    html`
<table><thead><tr><th scope="col">Agency</th><th scope="col">Name</th><th scope="col">IATA number</th><th scope="col">Email</th></tr></thead><tbody>
${input.agencies.map((agency) => html`<tr><td><a href="/console/agencies/${encodeURIComponent(agency.agencyId)}">${agency.agencyId}</a></td><td>${agency.name}</td><td>${agency.iataNumber ?? ''}</td><td>${agency.email ?? ''}</td></tr>`)}
</tbody></table>
<section class="card" aria-labelledby="add"><h2 id="add">Add an agency</h2>
<form method="post" action="/console/agencies">${csrfField(input.session)}
<label for="agencyId">Agency id</label><input type="text" id="agencyId" name="agencyId" required maxlength="64" value="${input.form.agencyId ?? ''}">
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200" value="${input.form.name ?? ''}">
<label for="iata">IATA number (optional)</label><input type="text" id="iata" name="iata" inputmode="numeric" value="${input.form.iata ?? ''}">
<label for="agency-email">Contact email (optional)</label><input type="email" id="agency-email" name="email" value="${input.form.email ?? ''}">
<div><button type="submit">Add agency</button></div>
</form></section>`,
  );
}

export function agencyPage(input: {
  session: ConsoleSession;
  agency: Agency;
  tokens: TokenSummary[];
  endpoints: WebhookEndpoint[];
  deliveries: WebhookDelivery[];
  notice: string | null;
  error: string | null;
  issuedToken: string | null;
}): string {
  const { agency } = input;
  const base = `/console/agencies/${encodeURIComponent(agency.agencyId)}`;
  return page(
    {
      title: `Agency ${agency.agencyId}`,
      section: 'Agencies',
      session: input.session,
      notice: input.notice,
      error: input.error,
    },
    html`
<p>${agency.name}${agency.iataNumber ? ` · IATA ${agency.iataNumber}` : ''}${agency.email ? ` · ${agency.email}` : ''}</p>
${
  input.issuedToken
    ? html`<section class="card" aria-labelledby="issued"><h2 id="issued">New token</h2>
<p>Give it to the agency now: it is shown this once and cannot be shown again.</p><p class="secret" id="issued-token">${input.issuedToken}</p></section>`
    : ''
}
<section class="card" aria-labelledby="tokens"><h2 id="tokens">Access tokens</h2>
${
  input.tokens.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">Token</th><th scope="col">Issued</th><th scope="col">Expires</th><th scope="col">State</th></tr></thead><tbody>
${input.tokens.map(
  (token) =>
    html`<tr><td>${token.tokenId}</td><td>${token.createdAt}</td><td>${token.expiresAt ?? 'never'}</td><td>${
      token.revokedAt
        ? `revoked ${token.revokedAt}`
        : html`
<form class="inline" method="post" action="${base}/tokens/${encodeURIComponent(token.tokenId)}/revoke">${csrfField(input.session)}<button type="submit" class="danger" aria-label="Revoke token ${token.tokenId}">Revoke</button></form>`
    }</td></tr>`,
)}
</tbody></table>`
}
<form method="post" action="${base}/tokens">${csrfField(input.session)}
<label for="expiresInDays">Expires in days (empty: never)</label><input type="text" id="expiresInDays" name="expiresInDays" inputmode="numeric">
<div><button type="submit">Issue token</button></div></form></section>
<section class="card" aria-labelledby="endpoints"><h2 id="endpoints">Webhook endpoints</h2>
${
  input.endpoints.length === 0
    ? html`<p class="muted">None (added with <code>airorder webhook add</code>).</p>`
    : html`<table><thead><tr><th scope="col">Endpoint</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th></tr></thead><tbody>
${input.endpoints.map((endpoint) => html`<tr><td>${endpoint.endpointId}</td><td>${endpoint.url}</td><td>${endpoint.events.join(', ')}</td><td>${endpoint.status}${endpoint.statusReason ? ` (${endpoint.statusReason})` : ''}</td></tr>`)}</tbody></table>`
}
<h3>Deliveries (newest first)</h3>
${
  input.deliveries.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th scope="col">Event</th><th scope="col">Endpoint</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Action</th></tr></thead><tbody>
${input.deliveries.map(
  (
    delivery,
  ) => html`<tr><td>${delivery.eventId}</td><td>${delivery.endpointId}</td><td>${delivery.status}</td><td>${delivery.attempts}</td>
<td>${delivery.lastStatus ?? ''} ${delivery.lastError ?? ''}</td><td>${
    delivery.status === 'PENDING'
      ? ''
      : html`<form class="inline" method="post" action="${base}/redeliver">${csrfField(input.session)}
<input type="hidden" name="eventId" value="${delivery.eventId}"><input type="hidden" name="endpointId" value="${delivery.endpointId}">
<button type="submit" aria-label="Redeliver event ${delivery.eventId} to ${delivery.endpointId}">Redeliver</button></form>`
  }</td></tr>`,
)}
</tbody></table>`
}</section>`,
  );
}
