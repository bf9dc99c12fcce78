import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refundQuote } from '../../domain/refund-quote.js';
import { field, redirectTo, sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { noticeOf } from '../notices.js';
import { actForAgency, type ConsoleAction } from '../order-actions.js';
import { confirmPage } from '../pages/confirm-page.js';
import { orderPage } from '../pages/order-page.js';
import { ordersPage, PAGE_SIZE } from '../pages/orders-page.js';

/** The acts a URL may name; any other name (`constructor`, `__proto__` among them) is not found. */
const ACTIONS = new Map<string, ConsoleAction>([
  ['accept', 'involuntaryAccept'],
  ['cancel', 'involuntaryCancel'],
]);

interface BookingParams {
  orderId: string;
  reference: string;
  action: string;
}

function pageNumber(request: FastifyRequest): number {
  const value = Number((request.query as Record<string, string>).page ?? '1');
  return Number.isInteger(value) && value >= 1 && value <= 100_000 ? value : 1;
}

export function orderRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/orders', async (request, reply) => {
    const q = String((request.query as Record<string, unknown>).q ?? '')
      .trim()
      .slice(0, 100);
    const number = pageNumber(request);
    // One more than a page: whether there is a next page, without counting every match.
    const found = await deps.store.read.searchOrders(q, PAGE_SIZE + 1, (number - 1) * PAGE_SIZE);
    return sendPage(
      reply,
      ordersPage({
        session: sessionOf(request),
        q,
        page: number,
        orders: found.slice(0, PAGE_SIZE),
        more: found.length > PAGE_SIZE,
      }),
    );
  });

  app.get('/orders/:orderId', async (request, reply) => {
    const { orderId } = request.params as { orderId: string };
    const order = await deps.store.read.loadOrder(orderId);
    if (!order)
      return sendPage(
        reply,
        ordersPage({ session: sessionOf(request), q: orderId, page: 1, orders: [], more: false }),
        404,
      );
    const trail = await deps.store.read.auditTrail(orderId);
    return sendPage(
      reply,
      orderPage({
        session: sessionOf(request),
        notice: noticeOf(
          request,
          order.bookings.map((booking) => booking.reference),
        ),
        order,
        trail,
        now: deps.clock(),
      }),
    );
  });

  const confirmation = async (request: FastifyRequest, error: string | null, reason: string) => {
    const { orderId, reference, action } = request.params as BookingParams;
    const order = await deps.store.read.loadOrder(orderId);
    const booking = order?.bookings.find((candidate) => candidate.reference === reference);
    const operation = ACTIONS.get(action);
    if (!order || !booking || !operation) return null;
    return confirmPage({
      session: sessionOf(request),
      order,
      booking,
      action: operation,
      quote: refundQuote(booking),
      error,
      reason,
    });
  };

  app.get('/orders/:orderId/bookings/:reference/:action', async (request, reply) => {
    const markup = await confirmation(request, null, '');
    return markup ? sendPage(reply, markup) : reply.callNotFound();
  });

  app.post('/orders/:orderId/bookings/:reference/:action', async (request, reply) => {
    const { orderId, reference, action } = request.params as BookingParams;
    const operation = ACTIONS.get(action);
    const order = await deps.store.read.loadOrder(orderId);
    if (!operation || !order) return reply.callNotFound();
    const reason = field(request, 'reason').trim();
    if (reason.length < 3 || reason.length > 500) {
      return sendPage(
        reply,
        (await confirmation(request, 'Give a reason of 3 to 500 characters: it is kept in the audit trail.', reason))!,
        400,
      );
    }
    const session = sessionOf(request);
    const result = await actForAgency(deps.store, deps.clock, deps.metrics, {
      session,
      agencyId: order.agencyId,
      orderId,
      reference,
      action: operation,
      reason,
      requestId: request.id,
    });
    if (!result.ok) return sendPage(reply, (await confirmation(request, result.message, reason)) ?? '', 409);
    // The journal's row was stored with the change (order-actions.ts).
    const accepted = operation === 'involuntaryAccept';
    return redirectTo(
      reply,
      `/console/orders/${encodeURIComponent(orderId)}`,
      accepted ? 'change-accepted' : 'cancelled-with-refund',
      reference,
    );
  });
}
