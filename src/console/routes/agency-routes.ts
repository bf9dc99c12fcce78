import type { FastifyInstance } from 'fastify';
import { AdminError, addAgency, issueToken } from '../../service/agency-admin.js';
import { deliveries, endpoints, redeliver } from '../../service/webhook-endpoints.js';
import type { Repositories } from '../../store/store.js';
import { field, redirectTo, sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { noticeOf } from '../notices.js';
import { agenciesPage, agencyPage } from '../pages/agency-pages.js';

const AGENCY_ID = /^[^\s](.{0,62}[^\s])?$/;

export function agencyRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  /** The console's journal, written in the action's own transaction. */
  const journal = (tx: Repositories, email: string, action: string, target: string) =>
    tx.insertOperatorAction({ email, action, target, reason: null }, deps.clock());

  const showAgency = async (
    agencyId: string,
    extra: { notice?: string | null; error?: string | null; issuedToken?: string | null },
  ) => {
    const agency = await deps.store.read.findAgency(agencyId);
    if (!agency) return null;
    const [tokens, hooks, recent] = await Promise.all([
      deps.store.read.agencyTokens(agencyId),
      endpoints(deps.store, agencyId),
      deliveries(deps.store, { agencyId, limit: 50 }),
    ]);
    return {
      agency,
      tokens,
      endpoints: hooks,
      deliveries: recent,
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      issuedToken: extra.issuedToken ?? null,
    };
  };

  app.get('/agencies', async (request, reply) =>
    sendPage(
      reply,
      agenciesPage({
        session: sessionOf(request),
        agencies: await deps.store.read.listAgencies(),
        notice: noticeOf(request),
        error: null,
        form: {},
      }),
    ),
  );

  app.post('/agencies', async (request, reply) => {
    const form = {
      agencyId: field(request, 'agencyId').trim(),
      name: field(request, 'name').trim(),
      iata: field(request, 'iata').trim(),
      email: field(request, 'email').trim(),
    };
    const problem = !AGENCY_ID.test(form.agencyId)
      ? 'The agency id must be 1 to 64 characters.'
      : form.name.length < 1 || form.name.length > 200
        ? 'The name must be 1 to 200 characters.'
        : form.iata !== '' && !/^[0-9]{7,8}$/.test(form.iata)
          ? 'The IATA number must be 7 or 8 digits.'
          : form.email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email)
            ? 'The email must be an e-mail address.'
            : null;
    const session = sessionOf(request);
    try {
      if (problem) throw new AdminError(problem);
      await addAgency(
        deps.store,
        deps.clock,
        { agencyId: form.agencyId, name: form.name, iataNumber: form.iata || null, email: form.email || null },
        (tx) => journal(tx, session.email, 'agency add', form.agencyId),
      );
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      return sendPage(
        reply,
        agenciesPage({
          session,
          agencies: await deps.store.read.listAgencies(),
          notice: null,
          error: error.message,
          form,
        }),
        400,
      );
    }
    return redirectTo(reply, `/console/agencies/${encodeURIComponent(form.agencyId)}`, 'agency-added');
  });

  app.get('/agencies/:agencyId', async (request, reply) => {
    const shown = await showAgency((request.params as { agencyId: string }).agencyId, { notice: noticeOf(request) });
    return shown ? sendPage(reply, agencyPage({ session: sessionOf(request), ...shown })) : reply.callNotFound();
  });

  app.post('/agencies/:agencyId/tokens', async (request, reply) => {
    const { agencyId } = request.params as { agencyId: string };
    if (!(await deps.store.read.findAgency(agencyId))) return reply.callNotFound();
    const days = field(request, 'expiresInDays');
    const expiresInMs = days === '' ? null : Number(days) * 86_400_000;
    if (expiresInMs !== null && !(Number.isInteger(Number(days)) && Number(days) >= 1 && Number(days) <= 3650)) {
      const shown = await showAgency(agencyId, {
        error: 'Expiry must be a whole number of days from 1 to 3650, or empty for none.',
      });
      return shown ? sendPage(reply, agencyPage({ session: sessionOf(request), ...shown }), 400) : reply.callNotFound();
    }
    const issued = await issueToken(deps.store, deps.clock, agencyId, expiresInMs, (tx, token) =>
      journal(tx, sessionOf(request).email, 'token issue', `${agencyId} ${token.tokenId}`),
    );
    // Shown in this answer only: the store keeps its hash, and the page is not cached (Cache-Control: no-store).
    const shown = await showAgency(agencyId, { notice: `Token ${issued.tokenId} issued.`, issuedToken: issued.token });
    return sendPage(reply, agencyPage({ session: sessionOf(request), ...shown! }));
  });

  app.post('/agencies/:agencyId/tokens/:tokenId/revoke', async (request, reply) => {
    const { agencyId, tokenId } = request.params as { agencyId: string; tokenId: string };
    if (!(await deps.store.read.findAgency(agencyId))) return reply.callNotFound();
    const revoked = await deps.store.write(async (tx) => {
      const done = await tx.revokeTokenById(agencyId, tokenId, deps.clock());
      if (done) await journal(tx, sessionOf(request).email, 'token revoke', `${agencyId} ${tokenId}`);
      return done;
    });
    return redirectTo(
      reply,
      `/console/agencies/${encodeURIComponent(agencyId)}`,
      revoked ? 'token-revoked' : 'token-already-revoked',
    );
  });

  app.post('/agencies/:agencyId/redeliver', async (request, reply) => {
    const { agencyId } = request.params as { agencyId: string };
    const eventId = field(request, 'eventId');
    const endpointId = field(request, 'endpointId');
    try {
      await redeliver(deps.store, deps.clock, eventId, endpointId, (tx) =>
        journal(tx, sessionOf(request).email, 'webhook redeliver', `${eventId} ${endpointId}`),
      );
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      const shown = await showAgency(agencyId, { error: error.message });
      return shown ? sendPage(reply, agencyPage({ session: sessionOf(request), ...shown }), 400) : reply.callNotFound();
    }
    return redirectTo(reply, `/console/agencies/${encodeURIComponent(agencyId)}`, 'redelivery-queued');
  });
}
