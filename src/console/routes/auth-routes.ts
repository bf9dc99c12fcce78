import type { FastifyInstance } from 'fastify';
import { field, sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { cookieHeader, LOGIN_COOKIE, readCookie, SESSION_COOKIE } from '../cookies.js';
import { loginPage } from '../pages/login-page.js';
import { requireCsrf, requireLoginCookie } from '../console-gate.js';
import { LOGIN_FORM_LIMIT_BYTES } from '../form-body.js';
import { closeSession, openSession, randomSecret } from '../sessions.js';
import type { RememberedRefusals } from '../remembered-refusals.js';
import { signIn } from '../sign-in.js';

/** Sign-in: a form with `email` and `password`, guarded by a double-submit token until there is a session. */
export function authRoutes(app: FastifyInstance, deps: ConsoleDeps, refusals: RememberedRefusals): void {
  app.get('/login', async (request, reply) => {
    const token = randomSecret();
    void reply.header('set-cookie', cookieHeader(request, LOGIN_COOKIE, token, '/console/login'));
    return sendPage(reply, loginPage({ csrfToken: token, email: '', error: null }));
  });

  // The cookie is looked at before the body is read, the token compared before the rest of the form is (console-gate.ts).
  app.post(
    '/login',
    { bodyLimit: LOGIN_FORM_LIMIT_BYTES, onRequest: requireLoginCookie, preHandler: requireCsrf },
    async (request, reply) => {
      const expected = readCookie(request, LOGIN_COOKIE)!;
      const email = field(request, 'email');
      const result = await signIn(deps.store, deps.clock, refusals, {
        email,
        password: field(request, 'password'),
        address: request.ip,
      });
      if (!result.ok) {
        const error = result.limited
          ? 'Too many failed sign-ins for this email or from this address; try again in 15 minutes.'
          : 'The email or the password is wrong.';
        return sendPage(reply, loginPage({ csrfToken: expected, email, error }), result.limited ? 429 : 401);
      }
      const { sessionId } = await openSession(deps.store, deps.clock, result.email, (tx) =>
        tx.insertOperatorAction(
          { email: result.email, action: 'sign in', target: request.ip, reason: null },
          deps.clock(),
        ),
      );
      void reply.header('set-cookie', [
        cookieHeader(request, SESSION_COOKIE, sessionId),
        cookieHeader(request, LOGIN_COOKIE, '', '/console/login', 0),
      ]);
      return reply.redirect('/console', 303);
    },
  );
}

/** Sign-out ends the session in the store, not only in the browser. */
export function logoutRoute(app: FastifyInstance, deps: ConsoleDeps): void {
  app.post('/logout', async (request, reply) => {
    const session = sessionOf(request);
    await closeSession(deps.store, session.sessionHash, (tx) =>
      tx.insertOperatorAction(
        { email: session.email, action: 'sign out', target: request.ip, reason: null },
        deps.clock(),
      ),
    );
    void reply.header('set-cookie', cookieHeader(request, SESSION_COOKIE, '', '/console', 0));
    return reply.redirect('/console/login', 303);
  });
}
