import type { Booking, Order } from '../../../src/domain/order.js';
import { refundQuote } from '../../../src/domain/refund-quote.js';
import { agenciesPage, agencyPage } from '../../../src/console/pages/agency-pages.js';
import { confirmPage } from '../../../src/console/pages/confirm-page.js';
import { importPage, importsPage } from '../../../src/console/pages/imports-page.js';
import { loginPage } from '../../../src/console/pages/login-page.js';
import { orderPage } from '../../../src/console/pages/order-page.js';
import { ordersPage } from '../../../src/console/pages/orders-page.js';
import { overviewPage } from '../../../src/console/pages/overview-page.js';
import type { ConsoleSession } from '../../../src/console/sessions.js';
import type { ConsoleImport } from '../../../src/store/repositories/console-imports-repository.js';
import type { AuditRecord } from '../../../src/store/repositories/audit-repository.js';
import type { WebhookEndpoint } from '../../../src/store/repositories/webhook-repository.js';

/**
 * Fixed input for every console page, one scenario per state a page can show. Values that come from
 * the store carry `<`, `&`, `"` and `'` wherever a page prints them, so each golden file shows their
 * escaping. The golden files are test/fixtures/console-pages/<name>.html, written by
 * scripts/write-console-page-goldens.ts (never by the tests).
 */
const HOSTILE = `<b>&"'`;

const session: ConsoleSession = {
  sessionHash: 'hash-not-shown',
  email: `ops${HOSTILE}@example.test`,
  name: `Olga ${HOSTILE}`,
  csrfToken: `csrf-token-${HOSTILE}`,
};

const NOW = '2026-11-25T08:00:00.000Z';

function segment(segmentId: string, departure: string) {
  return {
    segmentId,
    carrier: 'LH',
    flightNumber: `4${segmentId}`,
    origin: 'FRA',
    destination: 'JFK',
    departure,
    arrival: departure.replace('T08', 'T16'),
  };
}

const confirmedBooking: Booking = {
  reference: `REF/1${HOSTILE}`,
  status: 'CONFIRMED',
  cancellation: null,
  segments: [segment('S1', '2026-12-01T08:00:00Z'), segment('S2', '2026-12-08T08:00:00Z')],
  passengers: [
    {
      passengerId: 'P1',
      type: 'ADT',
      givenName: `Ann${HOSTILE}`,
      surname: 'Lee',
      ticket: {
        ticketNumber: '2200000000001',
        baseFare: 50_000,
        taxes: 7_550,
        coupons: [
          { segmentId: 'S1', status: 'USED', value: 25_000 },
          { segmentId: 'S2', status: 'OPEN', value: 32_550 },
        ],
      },
    },
    { passengerId: 'P2', type: 'INF', givenName: 'Bo', surname: 'Lee', ticket: null },
    {
      passengerId: 'P3',
      type: 'CHD',
      givenName: 'Cy',
      surname: 'Lee',
      ticket: null,
      canceled: { at: '2026-11-20T10:00:00Z', quoteId: 'Q-9' },
    },
  ],
  changes: [
    {
      changeId: 'C-passed',
      kind: 'SCHEDULE_CHANGE',
      detectedAt: '2026-11-20T00:00:00Z',
      removedSegments: ['S1', 'S2'],
      addedSegments: [segment('S3', '2026-12-02T08:00:00Z'), segment('S4', '2026-12-09T08:00:00Z')],
      status: 'PENDING',
      actionDeadline: NOW,
      consequenceOfInaction: 'ACCEPT',
    },
    {
      changeId: 'C-open',
      kind: 'FLIGHT_CANCELLATION',
      detectedAt: '2026-11-20T00:00:00Z',
      removedSegments: [],
      addedSegments: [],
      status: 'PENDING',
      actionDeadline: '2026-11-25T08:00:00.001Z',
      consequenceOfInaction: 'CANCEL',
    },
    {
      changeId: 'C-none',
      kind: 'ROUTING_CHANGE',
      detectedAt: '2026-11-20T00:00:00Z',
      removedSegments: [],
      addedSegments: [],
      status: 'PENDING',
      actionDeadline: null,
      consequenceOfInaction: 'ACCEPT',
    },
    {
      changeId: 'C-done',
      kind: 'SCHEDULE_CHANGE',
      detectedAt: '2026-11-19T00:00:00Z',
      removedSegments: [],
      addedSegments: [],
      status: 'ACCEPTED',
      actionDeadline: '2026-11-21T00:00:00Z',
      consequenceOfInaction: 'ACCEPT',
    },
  ],
  refunds: [
    {
      ticketNumber: '2200000000009',
      amount: 12_345,
      quoteType: 'PARTIAL',
      createdAt: '2026-11-21T09:00:00Z',
      quoteId: 'Q-1',
      breakdown: {
        fare: 10_000,
        penalty: 500,
        taxes: 2_845,
        taxLines: [
          { code: 'DE', amount: 2_845, refundable: true },
          { code: 'YQ', amount: 1_000, refundable: false },
        ],
      },
    },
    {
      ticketNumber: '2200000000010',
      amount: 100,
      quoteType: 'FULL',
      createdAt: '2026-11-21T09:00:00Z',
      breakdown: { fare: 100, penalty: 0, taxes: 0, taxLines: [] },
    },
    { ticketNumber: '2200000000011', amount: 0, quoteType: 'VOID', createdAt: '2026-11-21T09:00:00Z' },
  ],
};

/** Cancelled, with a pending change that no longer offers anything: no links, no quote. */
const cancelledBooking: Booking = {
  reference: 'REF2',
  status: 'CANCELED',
  cancellation: 'INVOLUNTARY',
  segments: [],
  passengers: [],
  changes: [{ ...confirmedBooking.changes[1]!, changeId: 'C-late' }],
  refunds: [],
};

/** Confirmed with no pending change, no changes and no refunds at all. */
const quietBooking: Booking = {
  reference: 'REF3',
  status: 'CONFIRMED',
  cancellation: null,
  segments: [],
  passengers: [],
  changes: [],
  refunds: [],
};

/** Confirmed, its only change answered already: nothing to accept or cancel. */
const answeredBooking: Booking = {
  ...quietBooking,
  reference: 'REF4',
  changes: [confirmedBooking.changes[3]!],
};

const order: Order = {
  orderId: `ORD/1${HOSTILE}`,
  agencyId: `AG/1${HOSTILE}`,
  currency: 'EUR',
  bookings: [confirmedBooking, cancelledBooking, quietBooking, answeredBooking],
};

const actor = { agencyId: null, tokenId: null, requestId: null } as const;
const trail: AuditRecord[] = [
  {
    ...actor,
    eventId: 'E1',
    orderId: order.orderId,
    occurredAt: '2026-11-20T00:00:00Z',
    actor: 'operator',
    operation: 'console',
    operatorEmail: `ops${HOSTILE}@example.test`,
    reason: `Customer asked ${HOSTILE}`,
    reference: confirmedBooking.reference,
    event: 'CHANGE_ACCEPTED',
    detail: { changeId: 'C-done', note: HOSTILE },
  },
  {
    ...actor,
    eventId: 'E2',
    orderId: order.orderId,
    occurredAt: '2026-11-19T00:00:00Z',
    actor: 'agency',
    agencyId: order.agencyId,
    tokenId: 'tok-1',
    operation: 'AirOrderCancel',
    reference: null,
    event: 'ORDER_CREATED',
    detail: {},
  },
  {
    ...actor,
    eventId: 'E3',
    orderId: order.orderId,
    occurredAt: '2026-11-18T00:00:00Z',
    actor: 'agency',
    operation: 'AirOrderCreate',
    reference: null,
    event: 'ORDER_CREATED',
    detail: {},
  },
  {
    ...actor,
    eventId: 'E4',
    orderId: order.orderId,
    occurredAt: '2026-11-17T00:00:00Z',
    actor: 'system',
    operation: 'deadline',
    reason: null,
    operatorEmail: null,
    reference: 'REF2',
    event: 'CHANGE_CANCELED',
    detail: { n: 1 },
  },
];

function importEntry(overrides: Partial<ConsoleImport>): ConsoleImport {
  return {
    importId: 'imp-1',
    kind: 'orders',
    fileName: `orders${HOSTILE}.json`,
    operatorEmail: `ops${HOSTILE}@example.test`,
    runner: 'host:1/2',
    status: 'running',
    phase: 'reading',
    recordsRead: 1234,
    recordsStored: 0,
    recordsTotal: null,
    summary: null,
    error: null,
    startedAt: '2026-11-25T07:00:00Z',
    updatedAt: '2026-11-25T07:00:05Z',
    ...overrides,
  };
}

function endpoint(endpointId: string, statusReason: string | null): WebhookEndpoint {
  return {
    endpointId,
    agencyId: 'AG1',
    url: `https://hooks.example.test/${endpointId}?a=1&b=${HOSTILE}`,
    events: ['order.changed', 'order.cancelled'],
    status: statusReason ? 'DISABLED' : 'ENABLED',
    statusReason,
    secret: 'never-shown-secret',
    previousSecret: null,
    previousSecretUntil: null,
    createdAt: '2026-11-01T00:00:00Z',
  };
}

function delivery(eventId: string, status: 'PENDING' | 'DELIVERED' | 'FAILED', last: [number | null, string | null]) {
  return {
    eventId,
    endpointId: `EP${HOSTILE}`,
    agencyId: 'AG1',
    status,
    attempts: 3,
    nextAttemptAt: '2026-11-25T09:00:00Z',
    lastAttemptAt: null,
    lastStatus: last[0],
    lastError: last[1],
    createdAt: '2026-11-25T07:00:00Z',
    finishedAt: null,
  };
}

const agency = { agencyId: `AG/1${HOSTILE}`, name: `Agency ${HOSTILE}`, iataNumber: '12345678', email: 'a@b.test' };

const pendingSummary = (changeId: string, actionDeadline: string | null) => ({
  changeId,
  orderId: `ORD/${changeId}${HOSTILE}`,
  reference: `R${HOSTILE}`,
  kind: 'SCHEDULE_CHANGE',
  actionDeadline,
  consequence: 'CANCEL',
});

/** Every scenario's name (its golden file's) and the page it renders. */
export const SCENARIOS: Record<string, () => string> = {
  'login-fresh': () => loginPage({ csrfToken: `login-${HOSTILE}`, email: '', error: null }),
  'login-refused': () =>
    loginPage({ csrfToken: 'login-token', email: `who${HOSTILE}@example.test`, error: `Wrong ${HOSTILE}` }),
  'overview-empty': () =>
    overviewPage({
      session,
      notice: null,
      now: NOW,
      changes: [],
      endpoints: [],
      refunds: [],
      requests: [],
      actions: [],
    }),
  'overview-full': () =>
    overviewPage({
      session,
      notice: `Done ${HOSTILE}`,
      now: NOW,
      changes: [
        pendingSummary('overdue-early', '2026-11-24T08:00:00.000Z'),
        pendingSummary('overdue-at-now', NOW),
        pendingSummary('soon-just-after', '2026-11-25T08:00:00.001Z'),
        pendingSummary('soon-at-24h', '2026-11-26T08:00:00.000Z'),
        pendingSummary('later-just-after-24h', '2026-11-26T08:00:00.001Z'),
        pendingSummary('later-none', null),
      ],
      endpoints: [
        {
          endpointId: 'EP1',
          agencyId: `AG/1${HOSTILE}`,
          url: `https://x.test/?a=1&b=2`,
          failed: 4,
          lastError: HOSTILE,
        },
        { endpointId: 'EP2', agencyId: 'AG2', url: 'https://y.test/', failed: 1, lastError: null },
      ],
      refunds: [
        { currency: 'EUR', count: 2, amountMinor: 123_456 },
        { currency: 'JPY', count: 1, amountMinor: 5_000 },
      ],
      requests: [
        { code: 'OK', count: 10 },
        { code: `E${HOSTILE}`, count: 1 },
      ],
      actions: [
        { email: 'a@b.test', action: 'token-revoke', target: `AG1${HOSTILE}`, reason: null, occurredAt: NOW },
        { email: 'a@b.test', action: 'accept', target: 'ORD1', reason: `why ${HOSTILE}`, occurredAt: NOW },
      ],
    }),
  'orders-empty': () => ordersPage({ session, q: '', page: 1, orders: [], more: false }),
  'orders-empty-search': () => ordersPage({ session, q: `Lee ${HOSTILE}`, page: 1, orders: [], more: false }),
  'orders-first-of-more': () =>
    ordersPage({
      session,
      q: '',
      page: 1,
      orders: [
        { orderId: `ORD/1${HOSTILE}`, agencyId: `AG${HOSTILE}`, currency: 'EUR', updatedAt: NOW },
        { orderId: 'ORD2', agencyId: 'AG2', currency: 'USD', updatedAt: NOW },
      ],
      more: true,
    }),
  'orders-middle': () =>
    ordersPage({
      session,
      q: `a&b ${HOSTILE}`,
      page: 2,
      orders: [{ orderId: 'ORD3', agencyId: 'AG3', currency: 'EUR', updatedAt: NOW }],
      more: true,
    }),
  'orders-last': () =>
    ordersPage({
      session,
      q: 'x',
      page: 3,
      orders: [{ orderId: 'ORD4', agencyId: 'AG4', currency: 'EUR', updatedAt: NOW }],
      more: false,
    }),
  order: () => orderPage({ session, notice: `Booking ${HOSTILE}: done`, order, trail, now: NOW }),
  'order-no-trail': () =>
    orderPage({ session, notice: null, order: { ...order, bookings: [quietBooking] }, trail: [], now: NOW }),
  'confirm-accept': () =>
    confirmPage({
      session,
      order,
      booking: confirmedBooking,
      action: 'involuntaryAccept',
      quote: refundQuote(confirmedBooking),
      error: null,
      reason: '',
    }),
  'confirm-cancel': () =>
    confirmPage({
      session,
      order,
      booking: confirmedBooking,
      action: 'involuntaryCancel',
      quote: refundQuote(confirmedBooking),
      error: `Too short ${HOSTILE}`,
      reason: `a ${HOSTILE}`,
    }),
  'confirm-none-pending': () =>
    confirmPage({
      session,
      order,
      booking: quietBooking,
      action: 'involuntaryCancel',
      quote: { amount: 0, quoteType: 'FULL', tickets: [] },
      error: null,
      reason: '',
    }),
  'agencies-empty': () => agenciesPage({ session, agencies: [], notice: null, error: null, form: {} }),
  'agencies-full': () =>
    agenciesPage({
      session,
      agencies: [agency, { agencyId: 'AG2', name: 'Two', iataNumber: null, email: null }],
      notice: 'Agency added.',
      error: `Taken ${HOSTILE}`,
      form: { agencyId: `id${HOSTILE}`, name: `n${HOSTILE}`, iata: `i${HOSTILE}`, email: `e${HOSTILE}` },
    }),
  'agency-empty': () =>
    agencyPage({
      session,
      agency: { agencyId: 'AG2', name: 'Two', iataNumber: null, email: null },
      tokens: [],
      endpoints: [],
      deliveries: [],
      notice: null,
      error: null,
      issuedToken: null,
    }),
  'agency-full': () =>
    agencyPage({
      session,
      agency,
      tokens: [
        { tokenId: `tok/1${HOSTILE}`, createdAt: NOW, expiresAt: null, revokedAt: null },
        { tokenId: 'tok2', createdAt: NOW, expiresAt: '2027-01-01T00:00:00Z', revokedAt: '2026-11-24T00:00:00Z' },
      ],
      endpoints: [endpoint('EP1', null), endpoint('EP2', `too many failures ${HOSTILE}`)],
      deliveries: [
        delivery(`ev${HOSTILE}`, 'FAILED', [500, `boom ${HOSTILE}`]),
        delivery('ev2', 'PENDING', [null, null]),
        delivery('ev3', 'DELIVERED', [200, null]),
      ],
      notice: 'Token revoked.',
      error: `No ${HOSTILE}`,
      issuedToken: `secret${HOSTILE}`,
    }),
  'imports-empty': () => importsPage({ session, imports: [], error: null }),
  'imports-list': () =>
    importsPage({
      session,
      error: `Refused ${HOSTILE}`,
      imports: [
        importEntry({}),
        importEntry({
          importId: 'imp-2',
          kind: 'changes',
          status: 'running',
          phase: 'storing',
          recordsTotal: 5000,
          recordsStored: 2500,
        }),
        importEntry({ importId: 'imp-3', status: 'done', recordsStored: 10, recordsTotal: 10, summary: 'ok' }),
        importEntry({ importId: 'imp-4', kind: 'changes', status: 'failed', error: 'error: bad' }),
      ],
    }),
  'import-reading': () => importPage({ session, entry: importEntry({}) }),
  'import-storing': () =>
    importPage({
      session,
      entry: importEntry({ kind: 'changes', phase: 'storing', recordsStored: 2500, recordsTotal: 5000 }),
    }),
  'import-storing-total-unknown': () =>
    importPage({ session, entry: importEntry({ phase: 'storing', recordsStored: 3, recordsTotal: null }) }),
  'import-done': () =>
    importPage({
      session,
      entry: importEntry({
        status: 'done',
        phase: 'storing',
        recordsStored: 0,
        recordsTotal: 0,
        summary: `0 ${HOSTILE}`,
      }),
    }),
  'import-done-total-unknown': () =>
    importPage({
      session,
      entry: importEntry({ status: 'done', recordsStored: 4, recordsTotal: null, summary: 'ok' }),
    }),
  'import-done-no-summary': () =>
    importPage({
      session,
      entry: importEntry({ kind: 'changes', status: 'done', phase: 'storing', recordsStored: 7, recordsTotal: 7 }),
    }),
  'import-failed-cli-words': () =>
    importPage({
      session,
      entry: importEntry({ kind: 'changes', status: 'failed', error: `error: line 3 ${HOSTILE}` }),
    }),
  'import-failed-other': () =>
    importPage({ session, entry: importEntry({ status: 'failed', error: 'the process stopped (error: x)' }) }),
  'import-failed-no-words': () => importPage({ session, entry: importEntry({ status: 'failed', error: null }) }),
};

export const GOLDEN_FOLDER = new URL('../../fixtures/console-pages/', import.meta.url);
