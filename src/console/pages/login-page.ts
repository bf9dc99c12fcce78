import { html } from '../html.js';
import { page } from '../layout.js';

export function loginPage(input: { csrfToken: string; email: string; error: string | null }): string {
  return page(
    { title: 'Sign in', error: input.error },
    html`
<form method="post" action="/console/login">
<input type="hidden" name="_csrf" value="${input.csrfToken}">
<label for="email">Email</label>
<input type="email" id="email" name="email" autocomplete="username" required value="${input.email}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div><button type="submit">Sign in</button></div>
</form>
<p class="muted">Operators are created with <code>airorder operator add</code> (see docs/console.md).</p>`,
  );
}
