import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { OPERATIONS } from '../http/operations.js';
import type { Clock } from '../runtime/clock.js';
import { runOperation } from '../service/order-operations.js';
import type { Store } from '../store/store.js';
import type { ConsoleSession } from './sessions.js';

export type ConsoleAction = 'involuntaryAccept' | 'involuntaryCancel';

export type ActionResult = { ok: true } | { ok: false; message: string };

/** What the console's journal calls each act. */
const JOURNAL_ACTION: Record<ConsoleAction, string> = {
  involuntaryAccept: 'change accepted',
  involuntaryCancel: 'cancelled with refund',
};

/**
 * Acts for the order's agency through the very code its API calls run: the same rules, writes,
 * audit events and agency events (announced as the operator's). The audit trail names the operator
 * by email, with the reason they gave, and the console's journal records the act: both in the
 * order's change itself, so that nothing is stored without them, nor they without it.
 */
export async function actForAgency(
  store: Store,
  clock: Clock,
  metrics: ServiceMetrics,
  input: {
    session: ConsoleSession;
    agencyId: string;
    orderId: string;
    reference: string;
    action: ConsoleAction;
    reason: string;
    requestId: string;
  },
): Promise<ActionResult> {
  const outcome = await runOperation(store, clock, {
    operation: input.action,
    actor: {
      actor: 'operator',
      agencyId: input.agencyId,
      tokenId: null,
      requestId: input.requestId,
      operation: OPERATIONS[input.action].title,
      operatorEmail: input.session.email,
      reason: input.reason,
    },
    orderId: input.orderId,
    references: [input.reference],
    keptResponse: null,
    operatorRecord: { action: JOURNAL_ACTION[input.action], target: `${input.orderId} ${input.reference}` },
  });
  if (outcome.kind !== 'processed') return { ok: false, message: `No order ${input.orderId}.` };
  const [item] = outcome.result.items;
  if (!item?.outcome.ok)
    return {
      ok: false,
      message: item && !item.outcome.ok ? `${item.outcome.code}: ${item.outcome.message}` : 'Nothing was done.',
    };
  metrics.countRefunds(outcome.result);
  return { ok: true };
}
