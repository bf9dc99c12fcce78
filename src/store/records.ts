import { findAgency, insertAgency } from './repositories/agencies-repository.js';
import { countPendingChanges } from './repositories/change-tallies-repository.js';
import { appendAuditEvents, auditTrail } from './repositories/audit-repository.js';
import {
  failRunningConsoleImport,
  findConsoleImport,
  insertConsoleImport,
  recentConsoleImports,
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
import { purgeExpiredResponses } from './repositories/idempotency-repository.js';
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
  countSignInAttempts,
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
 * Everything the service keeps, named as the service speaks of it: each group's functions are the
 * repositories' own, which take the connection or transaction first. The rest of the code gets
 * them bound, to one transaction (`store.write`) or to committed data (`store.read`), and so never
 * holds a database handle, writes SQL or asks which engine runs (docs/decisions.md, "Layers").
 */
const RECORDS = {
  agencies: { add: insertAgency, find: findAgency, list: listAgencies },
  tokens: {
    add: insertToken,
    findActive: findActiveToken,
    ofAgency: agencyTokens,
    revoke: revokeTokenById,
    revokeByHash: revokeTokenByHash,
    revokeById: revokeTokenWithId,
    listing: listAgencyTokens,
    recordUses: recordTokenUses,
  },
  orders: {
    load: loadOrder,
    row: loadOrderRow,
    lockedRow: lockOrderRow,
    bookings: loadOrderBookings,
    bookingsByKey: loadBookings,
    lock: lockOrders,
    versions: storedOrderVersions,
    withRefunds: refundedOrders,
    add: insertOrders,
    remove: deleteOrders,
    search: searchOrders,
    refundsSince,
  },
  changes: {
    add: insertChanges,
    stored: storedChanges,
    countPending: countPendingChanges,
    pending: pendingChanges,
    passedDeadlines,
    approachingDeadlines,
    stillToWarn,
    recordWarnings,
    settleTimers,
  },
  audit: { append: appendAuditEvents, trail: auditTrail },
  refundQuotes: { find: findRefundQuote },
  events: { append: appendEvents, load: loadEvent, feed: listEvents, purge: purgeEvents },
  keptResponses: { purgeExpired: purgeExpiredResponses },
  leases: { claim: claimLease, release: releaseLease },
  webhooks: {
    add: insertEndpoint,
    find: findEndpoint,
    list: listEndpoints,
    setStatus: setEndpointStatus,
    replaceSecret,
    remove: deleteEndpoint,
    failing: failingEndpoints,
  },
  deliveries: {
    list: listDeliveries,
    queueRedelivery,
    dueByEndpoint: endpointsWithDueDeliveries,
    claim: claimDeliveries,
    recordAttempt,
    oldestUndelivered,
  },
  operators: {
    add: insertOperator,
    find: findOperator,
    list: listOperators,
    disable: disableOperator,
    replacePassword,
  },
  sessions: {
    add: insertSession,
    find: findSession,
    touch: touchSession,
    remove: deleteSession,
    removeAllOf: deleteSessionsOf,
    removeIdle: deleteIdleSessions,
  },
  signInAttempts: { count: countSignInAttempts, takeBack: takeBackSignInAttempts, purge: purgeSignInAttempts },
  operatorActions: { record: insertOperatorAction, recent: recentOperatorActions },
  consoleImports: {
    start: insertConsoleImport,
    update: updateConsoleImport,
    fail: failRunningConsoleImport,
    find: findConsoleImport,
    recent: recentConsoleImports,
  },
  requestCounts: { add: addRequestCounts, dropBefore: dropRequestCountsBefore, since: requestCountsSince },
  demo: { removeActivity: removeDemoActivity },
};

type Recipes = typeof RECORDS;
type Bound<F> = F extends (db: Executor, ...rest: infer A) => infer R ? (...rest: A) => R : never;
type BoundGroup<G> = { readonly [K in keyof G]: Bound<G[K]> };

/** The records, each group's functions bound to one connection or transaction. */
export type Records = { readonly [G in keyof Recipes]: BoundGroup<Recipes[G]> };

type Recipe = (db: Executor, ...rest: never[]) => unknown;

function bindGroup(db: Executor, group: Record<string, Recipe>): Record<string, unknown> {
  const bound: Record<string, unknown> = {};
  for (const [name, recipe] of Object.entries(group)) bound[name] = (...rest: never[]) => recipe(db, ...rest);
  return bound;
}

/** Groups are bound when first used: a transaction touches two or three of them. */
export function recordsOn(db: Executor): Records {
  const records: Record<string, unknown> = {};
  for (const [name, group] of Object.entries(RECORDS as unknown as Record<string, Record<string, Recipe>>)) {
    let bound: Record<string, unknown> | undefined;
    Object.defineProperty(records, name, { enumerable: true, get: () => (bound ??= bindGroup(db, group)) });
  }
  return records as unknown as Records;
}
