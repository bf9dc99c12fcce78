import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { agencyRoutes } from './routes/agency-routes.js';
import { authRoutes, logoutRoute } from './routes/auth-routes.js';
import { importRoutes } from './routes/import-routes.js';
import { orderRoutes } from './routes/order-routes.js';
import { overviewRoutes } from './routes/overview-routes.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { rememberSession, sendPage, type ConsoleDeps } from './console-context.js';
import { ImportRunner } from './console-imports.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import { html } from './html.js';
import { csrfRefused, page } from './layout.js';
import { installRequestTally, RequestTally } from './request-tally.js';
import { resumeSession, sameSecret } from './sessions.js';

/** Pages, their style sheet and script from this origin only (the script reads an import's progress from it); no inline code, no frames, forms only to the console. */
export const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/** An uploaded orders or changes file may be far larger than an API request. */
export const UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;

async function readForm(request: FastifyRequest, body: Buffer): Promise<FormData> {
  return new Request('http://console.invalid/', { method: 'POST', headers: { 'content-type': request.headers['content-type'] ?? '' }, body }).formData();
}

function guard(deps: ConsoleDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const sessionId = readCookie(request, SESSION_COOKIE);
    const session = sessionId ? await resumeSession(deps.store, deps.clock, sessionId) : null;
    // An agency's bearer token is not looked at: only a console session opens the console.
    if (!session) return reply.redirect('/console/login', 303);
    if (request.method === 'POST') {
      const body = request.body as URLSearchParams | FormData | undefined;
      const token = body?.get('_csrf');
      if (typeof token !== 'string' || !sameSecret(token, session.csrfToken)) return csrfRefused(reply);
    }
    rememberSession(request, session);
  };
}

/** The operator's console under /console (docs/console.md). */
export async function registerConsole(app: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  const tally = new RequestTally(deps.store, (error) => app.log.warn({ err: error }, 'request counts not yet added to the store; kept for the next try'));
  installRequestTally(app, tally);
  const imports = new ImportRunner(deps, app.log);
  // Before the store closes: an import under way is finished, and its outcome recorded.
  app.addHook('onClose', async () => imports.settle());
  await app.register(async (scope) => {
    // Not part of the agency API: left out of its OpenAPI document.
    scope.addHook('onRoute', (route) => { route.schema = { ...route.schema, hide: true }; });
    scope.addHook('onRequest', async (_request, reply) => { void reply.header('content-security-policy', CONSOLE_CSP); });
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, new URLSearchParams(body as string));
    });
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT_BYTES }, async (request: FastifyRequest, body: Buffer) => readForm(request, body));
    scope.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : deps.store.isUnavailable(error) ? 503 : 500;
      if (status >= 500) request.log.error({ err: error }, 'console request failed');
      const message = status === 503 ? 'The store is not reachable at the moment; try again shortly.'
        : status >= 500 ? `Something went wrong (request ${request.id}); the service log has the details.`
          : error.statusCode === 413 ? 'The file is too large.' : 'The request could not be read.';
      return sendPage(reply, page({ title: 'Error', error: message }, html`<p><a href="/console">Back to the overview</a></p>`), status);
    });
    scope.setNotFoundHandler(async (_request, reply) => sendPage(reply, page({ title: 'Not found', error: 'There is no such page.' }, html`<p><a href="/console">Back to the overview</a></p>`), 404));
    scope.get('/assets/console.css', async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'max-age=300').send(CONSOLE_CSS));
    scope.get('/assets/console.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=300').send(CONSOLE_JS));
    authRoutes(scope, deps);
    await scope.register(async (secured) => {
      secured.addHook('preHandler', guard(deps));
      logoutRoute(secured, deps);
      overviewRoutes(secured, deps, tally);
      orderRoutes(secured, deps);
      agencyRoutes(secured, deps);
      importRoutes(secured, deps, imports);
    });
  }, { prefix: '/console' });
}
