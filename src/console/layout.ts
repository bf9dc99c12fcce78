import { html, type Html } from './html.js';
import type { ConsoleSession } from './sessions.js';

const SECTIONS = [
  { path: '/console', label: 'Overview' },
  { path: '/console/orders', label: 'Orders' },
  { path: '/console/agencies', label: 'Agencies' },
  { path: '/console/imports', label: 'Imports' },
];

export interface PageOptions {
  title: string;
  /** Which section the page belongs to, for the navigation. */
  section?: string;
  session?: ConsoleSession | null;
  notice?: string | null;
  error?: string | null;
}

/** Hidden field every state-changing form carries. */
export function csrfField(session: ConsoleSession): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}">`;
}

export function page(options: PageOptions, body: Html): string {
  const session = options.session ?? null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · airorder console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<strong>airorder console</strong>
${
  session
    ? html`<nav aria-label="Sections"><ul>${SECTIONS.map((item) => html`<li><a href="${item.path}"${item.label === options.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`)}</ul></nav>
<div class="who"><span>${session.name} (${session.email})</span>
<form class="inline" method="post" action="/console/logout">${csrfField(session)}<button type="submit">Sign out</button></form></div>`
    : ''
}
</header>
<main id="main">
<h1>${options.title}</h1>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${body}
</main>
</body>
</html>
`.text;
}

/** A state-changing form without the session's CSRF token: refused, nothing done. */
export function csrfRefused(reply: import('fastify').FastifyReply) {
  return reply
    .code(403)
    .type('text/html; charset=utf-8')
    .send(
      page(
        {
          title: 'Refused',
          error:
            'This form did not come from the console (its security token is missing or wrong); nothing was changed. Reload the page and try again.',
        },
        html`<p><a href="/console">Back to the overview</a></p>`,
      ),
    );
}
