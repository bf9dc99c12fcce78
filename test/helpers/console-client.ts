/**
 * A browser's part in the console, over plain HTTP: the cookies it keeps and the forms it sends,
 * CSRF token included. For tests of sign-in, sessions and forms without a browser.
 */
import assert from 'node:assert/strict';

export interface ConsoleResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** The hidden `_csrf` value of the first form on a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  assert.ok(match, 'the page carries a CSRF token');
  return match[1]!;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(
    path: string,
    init: {
      method?: string;
      form?: Record<string, string>;
      body?: string | FormData;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ConsoleResponse> {
    const headers: Record<string, string> = { ...this.extraHeaders, ...init.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    let body = init.body;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(this.baseUrl + path, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  async signIn(email: string, password: string): Promise<ConsoleResponse> {
    const form = await this.request('/console/login');
    return this.request('/console/login', { form: { _csrf: csrfOf(form.text), email, password } });
  }

  /** Sends a form found on `pagePath`, with that page's CSRF token. */
  async submit(pagePath: string, action: string, fields: Record<string, string>): Promise<ConsoleResponse> {
    const page = await this.request(pagePath);
    assert.equal(page.status, 200, `${pagePath}: ${page.text.slice(0, 300)}`);
    return this.request(action, { form: { _csrf: csrfOf(page.text), ...fields } });
  }
}
