/**
 * The audit trail (table audit_events): every state change made through the API is recorded in the
 * change's own transaction, with actor 'agency', the agency, the token's id (never the token), the
 * request id (the response's ShoppingResponseId), the operation and the time; imports are recorded
 * with actor 'operator'. Retries, failed items and refused requests record nothing. Runs on the
 * store named by TEST_STORE, with an injected clock so that every time is known.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hashToken } from '../../src/http/access-token.js';
import { auditTrail } from '../../src/store/repositories/audit-repository.js';
import { runSql } from '../../src/store/raw-sql.js';
import { refundRows } from '../helpers/booking-state.js';
import { bearer, booking, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import { OPERATION_CASES, assertRequestId, type OperationCase } from '../helpers/wire-checks.js';

const [CANCEL, ACCEPT, INVOLUNTARY_CANCEL] = OPERATION_CASES as [OperationCase, OperationCase, OperationCase];

let service: TestService;
let token: string;
let tokenId: string;
let otherToken: string;
let nowMs = Date.parse('2026-11-21T09:00:00.000Z');
const now = () => new Date(nowMs).toISOString();
/** Every step happens at its own, known time. */
function tick(): string {
  nowMs += 60_000;
  return now();
}

before(async () => {
  service = await startTestService({ clock: now });
  token = await service.tokenFor('AUD1');
  await service.tokenFor('AUD1'); // a second token of the agency, unused: the events name the one that acted
  otherToken = await service.tokenFor('AUD2');
  const row = await service.store.db
    .selectFrom('access_tokens')
    .select('token_id')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirstOrThrow();
  tokenId = row.token_id;
});
after(() => service.close());

interface EventRow {
  order_id: string;
  reference: string | null;
  sequence: number;
  event: string;
  detail: unknown;
  actor: string;
  agency_id: string | null;
  token_id: string | null;
  request_id: string | null;
  operation: string;
  occurred_at: string;
}

/** The order's audit rows, read with SQL, in the order they were written. */
async function eventRows(orderId: string): Promise<EventRow[]> {
  const rows = await service.store.db
    .selectFrom('audit_events')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('occurred_at')
    .orderBy('request_id')
    .orderBy('sequence')
    .execute();
  return rows.map((row) => ({
    order_id: row.order_id,
    reference: row.reference,
    sequence: Number(row.sequence),
    event: row.event,
    detail: JSON.parse(row.detail),
    actor: row.actor,
    agency_id: row.agency_id,
    token_id: row.token_id,
    request_id: row.request_id,
    operation: row.operation,
    occurred_at: row.occurred_at,
  }));
}

async function allRows() {
  return service.store.db.selectFrom('audit_events').selectAll().orderBy('event_id').execute();
}

/** What an agency's request through `operation` records: who, which request, when. */
function byAgency(response: HttpResponse, operation: OperationCase, at: string) {
  return {
    actor: 'agency',
    agency_id: 'AUD1',
    token_id: tokenId,
    request_id: assertRequestId(response),
    operation: operation.path.slice(1),
    occurred_at: at,
  };
}

const OPERATOR_FIELDS = { actor: 'operator', agency_id: null, token_id: null, request_id: null };

async function post(
  operation: OperationCase,
  orderId: string,
  references: string[],
  headers: Record<string, string> = bearer(token),
) {
  const response = await service.post(operation.path, operation.build(orderId, references), headers);
  assert.equal(response.status, 200, response.text);
  return response;
}

test('imports record ORDER_IMPORTED, CHANGE_RECORDED and ORDER_REPLACED by the operator; a resent change or a refused import records nothing', async () => {
  const importedAt = tick();
  await service.importOrders([
    order('AU-IMP', 'AUD1', 'EUR', [
      booking('AUI001', [segment('S1')], [passenger('P1', null)]),
      booking('AUI002', [segment('S1')], [passenger('P1', null)], 'CANCELED'),
    ]),
  ]);
  const changedAt = tick();
  // Two changes of one booking in one file, and one for a booking already cancelled (kept as CLOSED).
  const changes = [
    change('AU-IMP-C1', 'AU-IMP', 'AUI001', ['S1'], [segment('S1B', 1, 14)], 'SCHEDULE_CHANGE', '2026-11-20T08:00:00Z'),
    change(
      'AU-IMP-C2',
      'AU-IMP',
      'AUI001',
      ['S1B'],
      [segment('S1C', 1, 16)],
      'SCHEDULE_CHANGE',
      '2026-11-20T09:00:00Z',
    ),
    change('AU-IMP-C3', 'AU-IMP', 'AUI002', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ];
  await service.importChanges(changes);
  tick();
  await service.importChanges([changes[0]!]);
  await assert.rejects(service.importOrders([simpleOrder('AU-IMP-NEW', 'AUD1', 'AUN001'), { orderId: 'AU-IMP-BAD' }]));
  await assert.rejects(service.importOrders([simpleOrder('AU-IMP', 'AUD1', 'AUI003')]), /exists already/);
  const replacedAt = tick();
  await service.importOrders([simpleOrder('AU-IMP', 'AUD1', 'AUI009', '2201234530009')], true);

  assert.deepEqual(await eventRows('AU-IMP'), [
    {
      order_id: 'AU-IMP',
      reference: null,
      sequence: 0,
      event: 'ORDER_IMPORTED',
      detail: { agencyId: 'AUD1', currency: 'EUR', bookings: ['AUI001', 'AUI002'] },
      ...OPERATOR_FIELDS,
      operation: 'orders import',
      occurred_at: importedAt,
    },
    {
      order_id: 'AU-IMP',
      reference: 'AUI001',
      sequence: 0,
      event: 'CHANGE_RECORDED',
      detail: { changeId: 'AU-IMP-C1', kind: 'SCHEDULE_CHANGE', status: 'PENDING' },
      ...OPERATOR_FIELDS,
      operation: 'changes import',
      occurred_at: changedAt,
    },
    {
      order_id: 'AU-IMP',
      reference: 'AUI001',
      sequence: 1,
      event: 'CHANGE_RECORDED',
      detail: { changeId: 'AU-IMP-C2', kind: 'SCHEDULE_CHANGE', status: 'PENDING' },
      ...OPERATOR_FIELDS,
      operation: 'changes import',
      occurred_at: changedAt,
    },
    {
      order_id: 'AU-IMP',
      reference: 'AUI002',
      sequence: 2,
      event: 'CHANGE_RECORDED',
      detail: { changeId: 'AU-IMP-C3', kind: 'FLIGHT_CANCELLATION', status: 'CLOSED' },
      ...OPERATOR_FIELDS,
      operation: 'changes import',
      occurred_at: changedAt,
    },
    // Replacing the order deletes its bookings and changes, never its trail.
    {
      order_id: 'AU-IMP',
      reference: null,
      sequence: 0,
      event: 'ORDER_REPLACED',
      detail: { agencyId: 'AUD1', currency: 'EUR', bookings: ['AUI009'] },
      ...OPERATOR_FIELDS,
      operation: 'orders import',
      occurred_at: replacedAt,
    },
  ]);
  assert.deepEqual(await eventRows('AU-IMP-NEW'), [], 'a refused import records nothing');
});

test('AirOrderCancel: BOOKING_STATUS and the pending change CLOSED, by the agency, its token id, the request, at the time', async () => {
  tick();
  await service.importOrders([simpleOrder('AU-VOL', 'AUD1', 'AUV001', '2201234530001')]);
  await service.importChanges([change('AU-VOL-C', 'AU-VOL', 'AUV001', ['S1'], [segment('S1B', 1, 14)])]);
  const at = tick();
  const response = await post(CANCEL, 'AU-VOL', ['auv001']);
  const who = byAgency(response, CANCEL, at);
  const rows = (await eventRows('AU-VOL')).filter((row) => row.actor === 'agency');
  assert.deepEqual(rows, [
    {
      order_id: 'AU-VOL',
      reference: 'AUV001',
      sequence: 0,
      event: 'BOOKING_STATUS',
      detail: { from: 'CONFIRMED', to: 'CANCELED', cancellation: 'VOLUNTARY' },
      ...who,
    },
    {
      order_id: 'AU-VOL',
      reference: 'AUV001',
      sequence: 1,
      event: 'CHANGE_STATUS',
      detail: { changeId: 'AU-VOL-C', from: 'PENDING', to: 'CLOSED' },
      ...who,
    },
  ]);
  // The token itself, or its hash, is never recorded.
  const everything = JSON.stringify(await allRows());
  assert.equal(everything.includes(token), false);
  assert.equal(everything.includes(hashToken(token)), false);
});

test('AirOrderInvoluntaryAccept: each pending change ACCEPTED in detection order, and ITINERARY_CHANGED', async () => {
  tick();
  await service.importOrders([
    order('AU-ACC', 'AUD1', 'EUR', [
      booking(
        'AUA001',
        [segment('S1', 1), segment('S2', 8, 10, ['JFK', 'FRA'])],
        [
          passenger('P1', {
            ticketNumber: '2201234530002',
            baseFare: '400.00',
            taxes: '100.00',
            coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
          }),
        ],
      ),
    ]),
  ]);
  // Imported out of detection order: the later change first.
  await service.importChanges([
    change(
      'AU-ACC-LATE',
      'AU-ACC',
      'AUA001',
      ['S2'],
      [segment('S2B', 8, 15, ['JFK', 'FRA'])],
      'SCHEDULE_CHANGE',
      '2026-11-20T10:00:00Z',
    ),
    change(
      'AU-ACC-EARLY',
      'AU-ACC',
      'AUA001',
      ['S1'],
      [segment('S1B', 1, 14)],
      'SCHEDULE_CHANGE',
      '2026-11-19T10:00:00Z',
    ),
  ]);
  const at = tick();
  const response = await post(ACCEPT, 'AU-ACC', ['AUA001']);
  assert.equal(response.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'SUCCESS');
  const who = byAgency(response, ACCEPT, at);
  assert.deepEqual(
    (await eventRows('AU-ACC')).filter((row) => row.actor === 'agency'),
    [
      {
        order_id: 'AU-ACC',
        reference: 'AUA001',
        sequence: 0,
        event: 'CHANGE_STATUS',
        detail: { changeId: 'AU-ACC-EARLY', from: 'PENDING', to: 'ACCEPTED' },
        ...who,
      },
      {
        order_id: 'AU-ACC',
        reference: 'AUA001',
        sequence: 1,
        event: 'CHANGE_STATUS',
        detail: { changeId: 'AU-ACC-LATE', from: 'PENDING', to: 'ACCEPTED' },
        ...who,
      },
      {
        order_id: 'AU-ACC',
        reference: 'AUA001',
        sequence: 2,
        event: 'ITINERARY_CHANGED',
        detail: { from: ['S1', 'S2'], to: ['S1B', 'S2B'] },
        ...who,
      },
    ],
  );
  // A later cancel records what it changed only: not the changes accepted before, nor the itinerary.
  const later = tick();
  const cancel = await post(CANCEL, 'AU-ACC', ['AUA001']);
  assert.equal(cancel.body.OrderViewRS.Response[0].Status, 'SUCCESS');
  assert.deepEqual((await eventRows('AU-ACC')).filter((row) => row.actor === 'agency').slice(3), [
    {
      order_id: 'AU-ACC',
      reference: 'AUA001',
      sequence: 0,
      event: 'BOOKING_STATUS',
      detail: { from: 'CONFIRMED', to: 'CANCELED', cancellation: 'VOLUNTARY' },
      ...byAgency(cancel, CANCEL, later),
    },
  ]);
});

test('AirOrderInvoluntaryCancel: who cancelled, when, and what was refunded per ticket (amountMinor, currency, quoteType)', async () => {
  tick();
  const coupon = (segmentId: string, status: string, value: string) => ({ segmentId, status, value });
  await service.importOrders([
    order('AU-INV', 'AUD1', 'KWD', [
      booking(
        'AUR001',
        [segment('S1', 1), segment('S2', 8, 10, ['JFK', 'FRA'])],
        [
          passenger('P1', {
            ticketNumber: '2201234530003',
            baseFare: '100.000',
            taxes: '20.500',
            coupons: [coupon('S1', 'USED', '60.250'), coupon('S2', 'OPEN', '60.250')],
          }),
          passenger(
            'P2',
            {
              ticketNumber: '2201234530004',
              baseFare: '50.000',
              taxes: '0.001',
              coupons: [coupon('S1', 'OPEN', '25.000'), coupon('S2', 'OPEN', '25.001')],
            },
            'CHD',
          ),
          passenger('P3', null, 'INF'),
        ],
      ),
    ]),
  ]);
  await service.importChanges([change('AU-INV-C', 'AU-INV', 'AUR001', ['S2'], [], 'FLIGHT_CANCELLATION')]);
  const at = tick();
  const response = await post(INVOLUNTARY_CANCEL, 'AU-INV', ['AUR001']);
  assert.equal(response.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 110.251);
  const who = byAgency(response, INVOLUNTARY_CANCEL, at);
  assert.deepEqual(
    (await eventRows('AU-INV')).filter((row) => row.actor === 'agency'),
    [
      {
        order_id: 'AU-INV',
        reference: 'AUR001',
        sequence: 0,
        event: 'BOOKING_STATUS',
        detail: { from: 'CONFIRMED', to: 'CANCELED', cancellation: 'INVOLUNTARY' },
        ...who,
      },
      {
        order_id: 'AU-INV',
        reference: 'AUR001',
        sequence: 1,
        event: 'CHANGE_STATUS',
        detail: { changeId: 'AU-INV-C', from: 'PENDING', to: 'CANCELED' },
        ...who,
      },
      {
        order_id: 'AU-INV',
        reference: 'AUR001',
        sequence: 2,
        event: 'TICKET_REFUNDED',
        detail: { ticketNumber: '2201234530003', amountMinor: 60250, currency: 'KWD', quoteType: 'PARTIAL' },
        ...who,
      },
      {
        order_id: 'AU-INV',
        reference: 'AUR001',
        sequence: 3,
        event: 'TICKET_REFUNDED',
        detail: { ticketNumber: '2201234530004', amountMinor: 50001, currency: 'KWD', quoteType: 'FULL' },
        ...who,
      },
    ],
  );
  // The refunds in the trail are the refunds stored.
  assert.deepEqual(
    (await refundRows(service, 'AU-INV')).map((row) => [
      row.ticket_number,
      row.amount_minor,
      row.currency,
      row.quote_type,
    ]),
    [
      ['2201234530003', 60250, 'KWD', 'PARTIAL'],
      ['2201234530004', 50001, 'KWD', 'FULL'],
    ],
  );

  // The trail the CLI prints answers the question from the records alone.
  const trail = await auditTrail(service.store.db, 'AU-INV');
  const cancellation = trail.find((event) => event.event === 'BOOKING_STATUS');
  assert.deepEqual(
    cancellation && {
      actor: cancellation.actor,
      agencyId: cancellation.agencyId,
      tokenId: cancellation.tokenId,
      requestId: cancellation.requestId,
      operation: cancellation.operation,
      occurredAt: cancellation.occurredAt,
    },
    {
      actor: 'agency',
      agencyId: 'AUD1',
      tokenId,
      requestId: who.request_id,
      operation: 'AirOrderInvoluntaryCancel',
      occurredAt: at,
    },
  );
  assert.deepEqual(
    trail.filter((event) => event.event === 'TICKET_REFUNDED').map((event) => event.detail),
    [
      { ticketNumber: '2201234530003', amountMinor: 60250, currency: 'KWD', quoteType: 'PARTIAL' },
      { ticketNumber: '2201234530004', amountMinor: 50001, currency: 'KWD', quoteType: 'FULL' },
    ],
  );
});

test('a request on several bookings records each booking in request order, one sequence across the request; failed items record nothing', async () => {
  tick();
  const ticket = (ticketNumber: string) => ({
    ticketNumber,
    baseFare: '10.00',
    taxes: '0.00',
    coupons: [{ segmentId: 'S1' }],
  });
  await service.importOrders([
    order('AU-MUL', 'AUD1', 'EUR', [
      booking('AUM001', [segment('S1')], [passenger('P1', ticket('2201234530005'))]),
      booking('AUM002', [segment('S1')], [passenger('P1', ticket('2201234530006'))]),
      booking('AUM003', [segment('S1')], [passenger('P1', ticket('2201234530007'))]),
    ]),
  ]);
  await service.importChanges([
    change('AU-MUL-C1', 'AU-MUL', 'AUM001', ['S1'], [], 'FLIGHT_CANCELLATION'),
    change('AU-MUL-C2', 'AU-MUL', 'AUM002', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ]);
  const at = tick();
  // AUM003 has no pending change and NOPE01 is not in the order: both fail, and record nothing.
  const response = await post(INVOLUNTARY_CANCEL, 'AU-MUL', ['AUM002', 'NOPE01', 'AUM003', 'AUM001']);
  assert.deepEqual(
    response.body.OrderInvoluntaryCancelRS.Result.map((item: { Status: string }) => item.Status),
    ['SUCCESS', 'FAILED', 'FAILED', 'SUCCESS'],
  );
  const who = byAgency(response, INVOLUNTARY_CANCEL, at);
  const events = (reference: string, changeId: string, ticketNumber: string) => [
    { event: 'BOOKING_STATUS', reference, detail: { from: 'CONFIRMED', to: 'CANCELED', cancellation: 'INVOLUNTARY' } },
    { event: 'CHANGE_STATUS', reference, detail: { changeId, from: 'PENDING', to: 'CANCELED' } },
    {
      event: 'TICKET_REFUNDED',
      reference,
      detail: { ticketNumber, amountMinor: 1000, currency: 'EUR', quoteType: 'FULL' },
    },
  ];
  const expected = [
    ...events('AUM002', 'AU-MUL-C2', '2201234530006'),
    ...events('AUM001', 'AU-MUL-C1', '2201234530005'),
  ].map((event, sequence) => ({ order_id: 'AU-MUL', ...event, sequence, ...who }));
  const rows = (await eventRows('AU-MUL')).filter((row) => row.actor === 'agency');
  assert.deepEqual(
    rows,
    expected.map((row) => ({
      order_id: row.order_id,
      reference: row.reference,
      sequence: row.sequence,
      event: row.event,
      detail: row.detail,
      actor: row.actor,
      agency_id: row.agency_id,
      token_id: row.token_id,
      request_id: row.request_id,
      operation: row.operation,
      occurred_at: row.occurred_at,
    })),
  );
  const trail = (await auditTrail(service.store.db, 'AU-MUL')).filter((event) => event.actor === 'agency');
  assert.deepEqual(
    trail.map((event) => [event.reference, event.event]),
    expected.map((event) => [event.reference, event.event]),
  );
});

test('retries, failed items, replays and refused requests record nothing', async () => {
  tick();
  await service.importOrders([
    order('AU-NOP', 'AUD1', 'EUR', [
      booking(
        'AUP001',
        [segment('S1')],
        [
          passenger('P1', {
            ticketNumber: '2201234530008',
            baseFare: '10.00',
            taxes: '0.00',
            coupons: [{ segmentId: 'S1' }],
          }),
        ],
      ),
      booking('AUP002', [segment('S1')], [passenger('P1', null)]),
      booking('AUP003', [segment('S1')], [passenger('P1', null)]),
      booking('AUP004', [segment('S1')], [passenger('P1', null)]),
    ]),
  ]);
  await service.importChanges([
    change('AU-NOP-C1', 'AU-NOP', 'AUP001', ['S1'], [], 'FLIGHT_CANCELLATION'),
    change('AU-NOP-C3', 'AU-NOP', 'AUP003', ['S1'], [segment('S1B', 1, 14)]),
    change('AU-NOP-C4', 'AU-NOP', 'AUP004', ['S1'], [], 'FLIGHT_CANCELLATION'),
  ]);
  tick();
  await post(INVOLUNTARY_CANCEL, 'AU-NOP', ['AUP001'], { ...bearer(token), 'idempotency-key': 'audit-replay' });
  await post(CANCEL, 'AU-NOP', ['AUP002']);
  await post(ACCEPT, 'AU-NOP', ['AUP003']);
  const before = await allRows();

  tick();
  // Retries: the same outcome again, nothing changes.
  await post(INVOLUNTARY_CANCEL, 'AU-NOP', ['AUP001']);
  await post(CANCEL, 'AU-NOP', ['AUP002']);
  await post(ACCEPT, 'AU-NOP', ['AUP003']);
  // A replay.
  const replay = await post(INVOLUNTARY_CANCEL, 'AU-NOP', ['AUP001'], {
    ...bearer(token),
    'idempotency-key': 'audit-replay',
  });
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  // Failed items: BOOKING_CANCELED, NO_PENDING_CHANGE, NO_REPLACEMENT_OFFERED, BOOKING_NOT_FOUND.
  const failures = [
    await post(INVOLUNTARY_CANCEL, 'AU-NOP', ['AUP002']),
    await post(ACCEPT, 'AU-NOP', ['AUP002']),
    await post(INVOLUNTARY_CANCEL, 'AU-NOP', ['AUP003']),
    await post(ACCEPT, 'AU-NOP', ['AUP004']),
    await post(CANCEL, 'AU-NOP', ['NOPE01']),
  ];
  assert.deepEqual(
    failures.map((response) => (Object.values(response.body)[0] as { Errors: { Code: string }[] }).Errors[0]!.Code),
    ['BOOKING_CANCELED', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE', 'NO_REPLACEMENT_OFFERED', 'BOOKING_NOT_FOUND'],
  );
  // Refused requests: another agency (404), a sender mismatch (403), an invalid body (400), no token (401), a reused key (422).
  const refused = [
    await service.post(INVOLUNTARY_CANCEL.path, INVOLUNTARY_CANCEL.build('AU-NOP', ['AUP004']), bearer(otherToken)),
    await service.post(
      INVOLUNTARY_CANCEL.path,
      INVOLUNTARY_CANCEL.build('AU-NOP', ['AUP004'], {
        Party: { Sender: { TravelAgencySender: { AgencyID: 'AUD2' } } },
      }),
      bearer(token),
    ),
    await service.post(INVOLUNTARY_CANCEL.path, INVOLUNTARY_CANCEL.build('AU-NOP', ['AUP004', 'X']), bearer(token)),
    await service.post(INVOLUNTARY_CANCEL.path, INVOLUNTARY_CANCEL.build('AU-NOP', ['AUP004']), {}),
    await service.post(INVOLUNTARY_CANCEL.path, INVOLUNTARY_CANCEL.build('AU-NOP', ['AUP004']), {
      ...bearer(token),
      'idempotency-key': 'audit-replay',
    }),
  ];
  assert.deepEqual(
    refused.map((response) => response.status),
    [404, 403, 400, 401, 422],
  );
  assert.deepEqual(await allRows(), before, 'nothing was recorded');
});

// An order stored by a version before the audit log (migration 012) keeps its rows in
// audit_events_before_012: its trail shows them first, oldest first, then the log's entries.
test("a trail begins with the rows a former version wrote, oldest first, each with its actor's fields, then the log's", async () => {
  const importedAt = tick();
  await service.importOrders([simpleOrder('AU-OLD', 'AUD1', 'OLD001', '2201234599001')]);
  const former = (row: unknown[]) =>
    runSql(
      service.store.db,
      `insert into audit_events_before_012 (event_id, order_id, reference, sequence, event, detail, actor,
         agency_id, token_id, request_id, operation, occurred_at, operator_email, reason)
       values (?, 'AU-OLD', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row,
    );
  // Written in the other order than they happened: the trail orders them by time.
  await former([
    'evt_old_2',
    'OLD001',
    0,
    'CHANGE_ACCEPTED',
    '{"changeId":"CHG-OLD"}',
    'operator',
    null,
    null,
    null,
    'AirOrderInvoluntaryAccept',
    '2026-01-02T00:00:00.000Z',
    'desk@airline.example',
    'the agency asked by phone',
  ]);
  await former([
    'evt_old_1',
    'OLD001',
    0,
    'BOOKING_STATUS',
    '{"from":"CONFIRMED","to":"CANCELED"}',
    'agency',
    'AUD1',
    'tok_old',
    'req_old',
    'AirOrderCancel',
    '2026-01-01T00:00:00.000Z',
    null,
    null,
  ]);
  const trail = await auditTrail(service.store.db, 'AU-OLD');
  assert.deepEqual(trail.slice(0, 2), [
    {
      eventId: 'evt_old_1',
      orderId: 'AU-OLD',
      reference: 'OLD001',
      event: 'BOOKING_STATUS',
      detail: { from: 'CONFIRMED', to: 'CANCELED' },
      actor: 'agency',
      agencyId: 'AUD1',
      tokenId: 'tok_old',
      requestId: 'req_old',
      operation: 'AirOrderCancel',
      occurredAt: '2026-01-01T00:00:00.000Z',
    },
    {
      eventId: 'evt_old_2',
      orderId: 'AU-OLD',
      reference: 'OLD001',
      event: 'CHANGE_ACCEPTED',
      detail: { changeId: 'CHG-OLD' },
      actor: 'operator',
      agencyId: null,
      tokenId: null,
      requestId: null,
      operation: 'AirOrderInvoluntaryAccept',
      operatorEmail: 'desk@airline.example',
      reason: 'the agency asked by phone',
      occurredAt: '2026-01-02T00:00:00.000Z',
    },
  ]);
  assert.deepEqual(
    trail.slice(2).map((event) => [event.event, event.occurredAt]),
    [['ORDER_IMPORTED', importedAt]],
  );
});
