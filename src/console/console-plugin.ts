import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STORE_RETRY_AFTER_SECONDS } from '../http/error-mapping.js';
import { agencyRoutes } from './routes/agency-routes.js';
import { authRoutes, logoutRoute } from './routes/auth-routes.js';
import { importRoutes, importUploadRoute } from './routes/import-routes.js';
import { orderRoutes } from './routes/order-routes.js';
import { overviewRoutes } from './routes/overview-routes.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { closeIfBodyUnread, refuseCompressedBody, requireCsrf, requireSession } from './console-gate.js';
import { sendPage, type ConsoleDeps } from './console-context.js';
import { ImportRunner, recoverAbandonedImports } from './console-imports.js';
import { RememberedRefusals } from './remembered-refusals.js';
import { SignInPurge } from './sign-in-purge.js';
import { CsrfRefusal } from './csrf-check.js';
import { FORM_LIMIT_BYTES, readUrlEncodedForm } from './form-body.js';
import { html } from './html.js';
import { csrfRefused, page } from './layout.js';
import { installRequestTally, RequestTally } from './request-tally.js';
import { UPLOAD_LIMITS } from './upload-reader.js';

/**
 * Pages, their style sheet and script from this origin only (the script reads an import's progress
 * from it); no inline code, no frames, forms only to the console.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The words of the console's error page for a status the client caused. */
function clientErrorWords(status: number): string {
  if (status === 413) return 'The form or file is too large.';
  if (status === 415)
    return 'The console reads its own forms only (URL-encoded, or a file upload on the Imports page); this body is not one of them.';
  return 'The request could not be read.';
}

function errorHandler(deps: ConsoleDeps) {
  return async (error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
    // Whatever stopped the request, the rest of its body is not read: the connection closes after the answer.
    closeIfBodyUnread(request, reply);
    if (error instanceof CsrfRefusal) return csrfRefused(reply);
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : deps.store.isUnavailable(error)
          ? 503
          : 500;
    // As the API answers it (src/http/error-handler.ts): a store held or away is a warning and a
    // Retry-After, not an error of the service's.
    if (status === 503) {
      request.log.warn({ cause: error.message }, 'store unavailable');
      void reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    } else if (status >= 500) request.log.error({ err: error }, 'console request failed');
    const message =
      status === 503
        ? 'The store is not reachable at the moment; try again shortly.'
        : status >= 500
          ? `Something went wrong (request ${request.id}); the service log has the details.`
          : clientErrorWords(status);
    return sendPage(
      reply,
      page({ title: 'Error', error: message }, html`<p><a href="/console">Back to the overview</a></p>`),
      status,
    );
  };
}

/** The operator's console under /console (docs/console.md). */
export async function registerConsole(app: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  const tally = new RequestTally(deps.store, (error) =>
    app.log.warn({ err: error }, 'request counts not yet added to the store; kept for the next try'),
  );
  installRequestTally(app, tally);
  const imports = new ImportRunner(deps, app.log);
  // As the process starts: imports whose process died are marked failed, and their upload files removed.
  app.addHook('onReady', async () => recoverAbandonedImports(deps, app.log));
  // Before the store closes: an import under way is finished, and its outcome recorded.
  app.addHook('onClose', async () => imports.settle());
  // Sign-in counts are dropped once their window ends, by a timer, not only as sign-ins come (sign-in-purge.ts).
  const refusals = new RememberedRefusals();
  const purge = new SignInPurge(deps.store, deps.clock, refusals, app.log);
  purge.start();
  app.addHook('onClose', async () => purge.stop());
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        // Not part of the agency API: left out of its OpenAPI document.
        route.schema = { ...route.schema, hide: true };
        // A form is a few short fields; routes that read more (sign-in reads less) say so themselves.
        route.bodyLimit ??= FORM_LIMIT_BYTES;
      });
      scope.addHook('onRequest', async (_request, reply) => {
        void reply.header('content-security-policy', CONSOLE_CSP);
      });
      scope.addHook('onRequest', refuseCompressedBody);
      // The API's JSON and text parsers are not the console's: any body but a form is refused (415) unread.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('application/x-www-form-urlencoded', (request, payload, done) => {
        readUrlEncodedForm(request, payload).then(
          (form) => done(null, form),
          (error: Error) => done(error),
        );
      });
      scope.setErrorHandler(errorHandler(deps));
      scope.setNotFoundHandler(async (request, reply) => {
        closeIfBodyUnread(request, reply);
        return sendPage(
          reply,
          page(
            { title: 'Not found', error: 'There is no such page.' },
            html`<p><a href="/console">Back to the overview</a></p>`,
          ),
          404,
        );
      });
      scope.get('/assets/console.css', async (_request, reply) =>
        reply.type('text/css; charset=utf-8').header('cache-control', 'max-age=300').send(CONSOLE_CSS),
      );
      scope.get('/assets/console.js', async (_request, reply) =>
        reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=300').send(CONSOLE_JS),
      );
      authRoutes(scope, deps, refusals);
      await scope.register(async (secured) => {
        secured.addHook('onRequest', requireSession(deps));
        await secured.register(async (forms) => {
          forms.addHook('preHandler', requireCsrf);
          logoutRoute(forms, deps);
          overviewRoutes(forms, deps, tally);
          orderRoutes(forms, deps);
          agencyRoutes(forms, deps);
          importRoutes(forms, deps);
        });
        await secured.register(async (uploads) => {
          // The one route that reads multipart, part by part, the token first (upload-reader.ts); nothing else.
          uploads.removeAllContentTypeParsers();
          await uploads.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
          importUploadRoute(uploads, deps, imports);
        });
      });
    },
    { prefix: '/console' },
  );
}
