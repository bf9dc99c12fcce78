import { findAgency, insertAgency } from './repositories/agencies-repository.js';
import { countPendingChanges } from './repositories/change-tallies-repository.js';
import { appendAuditEvents, auditTrail } from './repositories/audit-repository.js';
import {
  failRunningConsoleImport,
  findConsoleImport,
  insertConsoleImport,
  recentConsoleImports,
  runningConsoleImports,
  updateConsoleImport,
} from './repositories/console-imports-repository.js';
import {
  agencyTokens,
  failingEndpoints,
  listAgencies,
  pendingChanges,
  refundsSince,
  revokeTokenById,
  searchOrders,
} from './repositories/console-queries-repository.js';
import {
  approachingDeadlines,
  passedDeadlines,
  recordWarnings,
  settleTimers,
  stillToWarn,
} from './repositories/deadlines-repository.js';
import { removeDemoActivity } from './repositories/demo-repository.js';
import { appendEvents, listEvents, loadEvent, purgeEvents } from './repositories/events-repository.js';
import { purgeExpiredKeptResponses } from './repositories/kept-responses-repository.js';
import { claimLease, releaseLease } from './repositories/leases-repository.js';
import { insertOperatorAction, recentOperatorActions } from './repositories/operator-actions-repository.js';
import {
  deleteIdleSessions,
  deleteSession,
  deleteSessionsOf,
  findSession,
  insertSession,
  touchSession,
} from './repositories/operator-sessions-repository.js';
import {
  disableOperator,
  findOperator,
  insertOperator,
  listOperators,
  replacePassword,
} from './repositories/operators-repository.js';
import {
  deleteOrders,
  insertChanges,
  insertOrders,
  loadBookings,
  loadOrder,
  loadOrderBookings,
  loadOrderRow,
  lockOrderRow,
  lockOrders,
  refundedOrders,
  storedChanges,
  storedOrderVersions,
} from './repositories/orders-repository.js';
import { findRefundQuote } from './repositories/refund-quotes-repository.js';
import {
  addRequestCounts,
  dropRequestCountsBefore,
  requestCountsSince,
} from './repositories/request-counts-repository.js';
import {
  countSignInAttempt,
  purgeSignInAttempts,
  takeBackSignInAttempts,
} from './repositories/sign-in-attempts-repository.js';
import {
  findActiveToken,
  insertToken,
  listAgencyTokens,
  recordTokenUses,
  revokeTokenByHash,
  revokeTokenWithId,
} from './repositories/tokens-repository.js';
import {
  claimDeliveries,
  deleteEndpoint,
  endpointsWithDueDeliveries,
  findEndpoint,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  oldestUndelivered,
  queueRedelivery,
  recordAttempt,
  replaceSecret,
  setEndpointStatus,
} from './repositories/webhook-repository.js';
import type { Executor } from './executor.js';

/**
 * Everything the service keeps: the repositories' functions under their own names, so that a search
 * for `lockOrderRow` finds its definition and every call. Each takes the connection or transaction
 * first; the rest of the code gets them bound, to one transaction (`store.write((tx) => tx.lockOrders(ids))`)
 * or to committed data (`store.read.listEvents(...)`), and so never holds a database handle, writes
 * SQL or asks which engine runs (docs/decisions.md, "Layers").
 */
const REPOSITORY_FUNCTIONS = {
  // Agencies and their tokens
  insertAgency,
  findAgency,
  listAgencies,
  insertToken,
  findActiveToken,
  agencyTokens,
  revokeTokenById,
  revokeTokenByHash,
  revokeTokenWithId,
  listAgencyTokens,
  recordTokenUses,
  // Orders
  loadOrder,
  loadOrderRow,
  lockOrderRow,
  loadOrderBookings,
  loadBookings,
  lockOrders,
  storedOrderVersions,
  refundedOrders,
  insertOrders,
  deleteOrders,
  searchOrders,
  refundsSince,
  // The airline's changes and their action deadlines
  insertChanges,
  storedChanges,
  countPendingChanges,
  pendingChanges,
  passedDeadlines,
  approachingDeadlines,
  stillToWarn,
  recordWarnings,
  settleTimers,
  // Audit trail, refund quotes, event feed, kept responses, leases
  appendAuditEvents,
  auditTrail,
  findRefundQuote,
  appendEvents,
  loadEvent,
  listEvents,
  purgeEvents,
  purgeExpiredKeptResponses,
  claimLease,
  releaseLease,
  // Webhook endpoints and deliveries
  insertEndpoint,
  findEndpoint,
  listEndpoints,
  setEndpointStatus,
  replaceSecret,
  deleteEndpoint,
  failingEndpoints,
  listDeliveries,
  queueRedelivery,
  endpointsWithDueDeliveries,
  claimDeliveries,
  recordAttempt,
  oldestUndelivered,
  // The console: operators, sessions, sign-in attempts, actions, imports, request counts
  insertOperator,
  findOperator,
  listOperators,
  disableOperator,
  replacePassword,
  insertSession,
  findSession,
  touchSession,
  deleteSession,
  deleteSessionsOf,
  deleteIdleSessions,
  countSignInAttempt,
  takeBackSignInAttempts,
  purgeSignInAttempts,
  insertOperatorAction,
  recentOperatorActions,
  insertConsoleImport,
  updateConsoleImport,
  failRunningConsoleImport,
  findConsoleImport,
  recentConsoleImports,
  runningConsoleImports,
  addRequestCounts,
  dropRequestCountsBefore,
  requestCountsSince,
  removeDemoActivity,
};

type Functions = typeof REPOSITORY_FUNCTIONS;
type Bound<F> = F extends (db: Executor, ...rest: infer A) => infer R ? (...rest: A) => R : never;

/**
 * The repositories' functions, each bound to one connection or transaction (not an import file's
 * records, which are documents: src/documents/).
 */
export type Repositories = { readonly [K in keyof Functions]: Bound<Functions[K]> };

type RepositoryFunction = (db: Executor, ...rest: never[]) => unknown;

const CONNECTION = Symbol('connection');

/**
 * One prototype for every binding: a function is bound the first time it is used on a connection or
 * transaction (a transaction uses a few of them), and kept on it, so that it may be passed around.
 */
const BINDINGS: object = Object.create(null);
for (const [name, unbound] of Object.entries(REPOSITORY_FUNCTIONS as unknown as Record<string, RepositoryFunction>)) {
  Object.defineProperty(BINDINGS, name, {
    get(this: { [CONNECTION]: Executor }) {
      const db = this[CONNECTION];
      const bound = (...rest: never[]) => unbound(db, ...rest);
      Object.defineProperty(this, name, { value: bound, enumerable: true });
      return bound;
    },
  });
}

export function repositoriesOn(db: Executor): Repositories {
  return Object.create(BINDINGS, { [CONNECTION]: { value: db } }) as Repositories;
}
