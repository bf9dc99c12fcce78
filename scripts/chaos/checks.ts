/**
 * What must hold after a chaos run, read from the store (SQL), the answers the clients kept, the feed
 * as the readers saw it and the deliveries as the receivers saw them. Each check adds a line to
 * `failures` naming what broke; nothing here retries or waits.
 */
import type { SqlStore } from '../../src/store/sql-store.js';
import type { Acknowledged } from './integrator.js';
import type { AgencyEndpoint } from './receivers.js';
import { expectedRefund, OPERATIONS, type ChaosBooking, type Workload } from './workload.js';

export interface Figures {
  acknowledged: number;
  retriedKeys: number;
  outcomesChecked: number;
  bookingsChecked: number;
  deadlinesApplied: number;
  events: number;
  deliveries: number;
  duplicateDeliveries: number;
  lost: number;
}

interface Booked {
  status: string;
  cancellation: string | null;
  change: string;
  segments: string[];
  coupons: string[][];
  refunds: [string, number, string][];
}

const key = (orderId: string, reference: string | null) => `${orderId}/${reference}`;

function group<T>(rows: T[], by: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) map.set(by(row), [...(map.get(by(row)) ?? []), row]);
  return map;
}

const count = <T>(rows: T[], test: (row: T) => boolean) => rows.filter(test).length;

export async function checkRun(
  store: SqlStore,
  workload: Workload,
  acknowledged: Acknowledged[],
  feeds: Map<string, { reader: string[]; full: string[] }>,
  endpoints: AgencyEndpoint[],
  failures: string[],
): Promise<Figures> {
  const fail = (line: string) => failures.push(line);
  const db = store.db;
  const orderIds = workload.orders.map((o) => (o as { orderId: string }).orderId);
  const inChunks = async <T>(query: (ids: string[]) => Promise<T[]>) => {
    const rows: T[] = [];
    for (let start = 0; start < orderIds.length; start += 500)
      rows.push(...(await query(orderIds.slice(start, start + 500))));
    return rows;
  };
  const bookingRows = await inChunks((ids) =>
    db.selectFrom('bookings').selectAll().where('order_id', 'in', ids).execute(),
  );
  const changeRows = await inChunks((ids) =>
    db
      .selectFrom('airline_changes')
      .select(['order_id', 'reference', 'change_id', 'status'])
      .where('order_id', 'in', ids)
      .execute(),
  );
  const refundRows = await inChunks((ids) =>
    db.selectFrom('refunds').selectAll().where('order_id', 'in', ids).orderBy('position').execute(),
  );
  const auditRows = await inChunks((ids) =>
    db.selectFrom('audit_events').selectAll().where('order_id', 'in', ids).where('actor', '!=', 'operator').execute(),
  );
  const eventRows = await db
    .selectFrom('events')
    .select(['event_id', 'agency_id', 'type', 'occurred_at', 'data'])
    .execute();

  // No ticket refunded twice, anywhere in the store.
  for (const [ticket, rows] of group(refundRows, (row) => row.ticket_number))
    if (rows.length > 1) fail(`ticket ${ticket} has ${rows.length} refunds`);

  const state = new Map<string, Booked>();
  const changesOf = group(changeRows, (row) => key(row.order_id, row.reference));
  const refundsOf = group(refundRows, (row) => key(row.order_id, row.reference));
  for (const row of bookingRows) {
    const passengers = JSON.parse(row.passengers) as { ticket?: { coupons: { status: string }[] } }[];
    state.set(key(row.order_id, row.reference), {
      status: row.status,
      cancellation: row.cancellation,
      change: (changesOf.get(key(row.order_id, row.reference)) ?? []).map((c) => c.status).join(','),
      segments: (JSON.parse(row.segments) as { segmentId: string }[]).map((s) => s.segmentId),
      coupons: passengers.flatMap((p) => (p.ticket ? [p.ticket.coupons.map((c) => c.status)] : [])),
      refunds: (refundsOf.get(key(row.order_id, row.reference)) ?? []).map((r) => [
        r.ticket_number,
        Number(r.amount_minor),
        r.quote_type,
      ]),
    });
  }
  const auditOf = group(auditRows, (row) => key(row.order_id, row.reference));
  const eventsByBooking = group(eventRows, (row) => {
    const data = JSON.parse(row.data) as { OrderID?: string; GdsBookingReference?: string };
    return key(data.OrderID ?? '', data.GdsBookingReference ?? null);
  });

  // What was sent to each booking, and what each acknowledged answer said of it.
  const sent = new Map<string, Set<string>>();
  const items = new Map<string, { operation: string; item: any; answer: Acknowledged }[]>();
  for (const answer of acknowledged) {
    const operation = OPERATIONS[answer.operation];
    for (const reference of answer.job.references)
      sent.set(
        key(answer.job.orderId, reference),
        (sent.get(key(answer.job.orderId, reference)) ?? new Set()).add(answer.operation),
      );
    const listed = answer.body?.[operation.root]?.[operation.items] as any[] | undefined;
    if (!listed || listed.length !== answer.job.references.length) {
      fail(
        `${answer.operation} ${answer.job.orderId} key ${answer.key}: answer without one item per reference: ${answer.text.slice(0, 300)}`,
      );
      continue;
    }
    for (const item of listed) {
      const reference = Array.isArray(item.GdsBookingReference)
        ? item.GdsBookingReference[0]
        : item.GdsBookingReference;
      const at = key(answer.job.orderId, reference);
      items.set(at, [...(items.get(at) ?? []), { operation: answer.operation, item, answer }]);
    }
  }

  let outcomesChecked = 0;
  let deadlinesApplied = 0;
  for (const target of workload.bookings) {
    const where = `${target.orderId}/${target.reference} (${target.role}${target.deadline ? ` ${target.deadline.consequence} at ${target.deadline.at}` : ''})`;
    const booked = state.get(key(target.orderId, target.reference));
    if (!booked) {
      fail(`${where}: not in the store`);
      continue;
    }
    checkConsistent(target, booked, where, fail);
    const trail = auditOf.get(key(target.orderId, target.reference)) ?? [];
    checkTrail(target, booked, trail, where, fail);
    checkEvents(target, booked, eventsByBooking.get(key(target.orderId, target.reference)) ?? [], where, fail);
    const requested = sent.get(key(target.orderId, target.reference)) ?? new Set();
    if (target.role !== 'client' && requested.size > 0) fail(`${where}: was sent requests`);
    if (target.role === 'untouched' && (booked.status !== 'CONFIRMED' || booked.change !== 'PENDING'))
      fail(`${where}: changed without a request: ${JSON.stringify(booked)}`);
    if (target.role === 'deadline') {
      deadlinesApplied += checkDeadline(target, booked, trail, where, fail);
    }
    if (target.role === 'client') {
      if (booked.cancellation === 'INVOLUNTARY' && !requested.has('involuntaryCancel'))
        fail(`${where}: refunded without an involuntary cancel`);
      if (booked.cancellation === 'VOLUNTARY' && !requested.has('cancel')) fail(`${where}: cancelled without a cancel`);
      if (booked.change === 'ACCEPTED' && !requested.has('accept')) fail(`${where}: accepted without an accept`);
    }
    for (const { operation, item, answer } of items.get(key(target.orderId, target.reference)) ?? []) {
      outcomesChecked += 1;
      checkAnswer(
        target,
        booked,
        operation,
        item,
        `${where}: ${operation} key ${answer.key}${answer.replayed ? ' (replayed)' : ''}`,
        fail,
      );
    }
  }

  // A retried key got the first answer: the one kept under it, byte for byte.
  const kept = new Map(
    (
      await db
        .selectFrom('idempotency_keys')
        .select(['agency_id', 'idempotency_key', 'response_body', 'response_status'])
        .execute()
    ).map((row) => [`${row.agency_id} ${row.idempotency_key}`, row]),
  );
  for (const answer of acknowledged) {
    const stored = kept.get(`${answer.job.agencyId} ${answer.key}`);
    if (!stored) fail(`key ${answer.key}: answered 200 but no response is kept under it`);
    else if (stored.response_body !== answer.text || Number(stored.response_status) !== 200)
      fail(
        `key ${answer.key}: the answer received is not the one kept: ${answer.text.slice(0, 200)} vs ${stored.response_body.slice(0, 200)}`,
      );
  }

  // Each agency's count of kept responses (the cap's, migration 015). On PostgreSQL a place is reserved
  // before its response is kept (order-update.ts, `reserveRoom`), so a process killed, or a database
  // stopped, between the two leaves a place counted and no row: never a row uncounted. The purge, every
  // 10 minutes in the service, sets each count to the rows; run here as the service runs it, it must.
  // On SQLite the place and the row are one transaction: the count is exact at every moment.
  const rowsOf = group([...kept.values()], (row) => row.agency_id);
  const compareCounts = async (exact: boolean) => {
    const counted = await db.selectFrom('kept_response_counts').select(['agency_id', 'kept']).execute();
    for (const agencyId of new Set([...rowsOf.keys(), ...counted.map((row) => row.agency_id)])) {
      const rows = rowsOf.get(agencyId)?.length ?? 0;
      const count = Number(counted.find((row) => row.agency_id === agencyId)?.kept ?? 0);
      if (exact ? rows !== count : rows > count)
        fail(`kept responses of ${agencyId}: ${rows} rows, counted ${count}${exact ? ' after the purge' : ''}`);
    }
  };
  await compareCounts(store.describe().store === 'sqlite');
  await store.write((tx) => tx.purgeExpiredKeptResponses('1970-01-01T00:00:00.000Z'));
  await compareCounts(true);

  // Each feed: every event of the agency once, in one order, the reader's view a prefix of it with nothing inserted behind it.
  const eventsOf = group(eventRows, (row) => row.agency_id);
  for (const agencyId of workload.agencies) {
    const feed = feeds.get(agencyId)!;
    const stored = new Set((eventsOf.get(agencyId) ?? []).map((row) => row.event_id));
    if (new Set(feed.full).size !== feed.full.length) fail(`feed of ${agencyId}: an event listed twice`);
    const missing = [...stored].filter((id) => !feed.full.includes(id));
    const foreign = feed.full.filter((id) => !stored.has(id));
    if (missing.length > 0)
      fail(`feed of ${agencyId}: ${missing.length} stored events never listed, e.g. ${missing.slice(0, 3).join(', ')}`);
    if (foreign.length > 0)
      fail(`feed of ${agencyId}: ${foreign.length} events not of this agency, e.g. ${foreign.slice(0, 3).join(', ')}`);
    const firstDifference = feed.reader.findIndex((id, index) => feed.full[index] !== id);
    if (firstDifference >= 0)
      fail(
        `feed of ${agencyId}: the reader got ${feed.reader[firstDifference]} at ${firstDifference}, where the whole feed lists ${feed.full[firstDifference]}: an event appeared behind its cursor or out of order`,
      );
    if (feed.reader.length !== feed.full.length)
      fail(`feed of ${agencyId}: the reader saw ${feed.reader.length} of ${feed.full.length} events`);
  }

  // Webhooks: every event at least once to its own agency's endpoint, signed, under its id.
  let deliveries = 0;
  let duplicateDeliveries = 0;
  let lost = 0;
  const agencyOf = new Map(eventRows.map((row) => [row.event_id, row]));
  for (const endpoint of endpoints) {
    for (const line of endpoint.badSignatures)
      fail(`endpoint of ${endpoint.agencyId}: a delivery that does not verify: ${line}`);
    for (const [eventId, type] of endpoint.deliveredTypes()) {
      const event = agencyOf.get(eventId);
      if (!event) fail(`endpoint of ${endpoint.agencyId}: ${eventId} is no stored event`);
      else if (event.agency_id !== endpoint.agencyId)
        fail(`endpoint of ${endpoint.agencyId}: got ${eventId} of ${event.agency_id}`);
      else if (event.type !== type)
        fail(`endpoint of ${endpoint.agencyId}: ${eventId} delivered as ${type}, stored as ${event.type}`);
    }
    for (const event of eventsOf.get(endpoint.agencyId) ?? []) {
      const times = endpoint.accepted.get(event.event_id) ?? 0;
      if (times === 0) lost += 1;
      deliveries += times;
      duplicateDeliveries += Math.max(0, times - 1);
    }
  }
  if (lost > 0) fail(`${lost} events never delivered to their endpoint`);
  const undelivered = await db
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'status', 'attempts', 'last_error'])
    .where('status', '!=', 'DELIVERED')
    .execute();
  if (undelivered.length > 0)
    fail(
      `${undelivered.length} deliveries not DELIVERED in the store, e.g. ${JSON.stringify(undelivered.slice(0, 3))}`,
    );

  return {
    acknowledged: acknowledged.length,
    retriedKeys: count(acknowledged, (answer) => answer.attempts > 1),
    outcomesChecked,
    bookingsChecked: workload.bookings.length,
    deadlinesApplied,
    events: eventRows.length,
    deliveries,
    duplicateDeliveries,
    lost,
  };
}

/** The booking is one of the states the rules can reach, with its refunds, coupons and itinerary to match. */
function checkConsistent(target: ChaosBooking, booked: Booked, where: string, fail: (line: string) => void): void {
  const refunded = JSON.stringify([
    [target.tickets[0], 7505, 'PARTIAL'],
    [target.tickets[1], 15010, 'FULL'],
  ]);
  const ok =
    booked.status === 'CONFIRMED'
      ? booked.cancellation === null && ['PENDING', 'ACCEPTED'].includes(booked.change)
      : booked.cancellation === 'INVOLUNTARY'
        ? booked.change === 'CANCELED' &&
          JSON.stringify(booked.refunds) === refunded &&
          JSON.stringify(booked.coupons) ===
            JSON.stringify([
              ['USED', 'REFUNDED'],
              ['REFUNDED', 'REFUNDED'],
            ])
        : booked.cancellation === 'VOLUNTARY' && ['CLOSED', 'ACCEPTED'].includes(booked.change);
  if (!ok) fail(`${where}: inconsistent state ${JSON.stringify(booked)}`);
  if (
    booked.cancellation !== 'INVOLUNTARY' &&
    (booked.refunds.length > 0 || booked.coupons.flat().includes('REFUNDED'))
  )
    fail(`${where}: refunds without an involuntary cancel: ${JSON.stringify(booked)}`);
  const itinerary = booked.change === 'ACCEPTED' ? 'S1,S2B' : 'S1,S2';
  if (booked.segments.join(',') !== itinerary)
    fail(`${where}: itinerary ${booked.segments.join(',')} with the change ${booked.change}`);
}

/** The audit trail holds exactly one entry per change the state shows, all by the one who could make it. */
function checkTrail(
  target: ChaosBooking,
  booked: Booked,
  trail: {
    event: string;
    detail: string;
    actor: string;
    agency_id: string | null;
    operation: string;
    request_id: string | null;
  }[],
  where: string,
  fail: (line: string) => void,
): void {
  const expected = {
    BOOKING_STATUS: booked.status === 'CANCELED' ? 1 : 0,
    CHANGE_STATUS: booked.change === 'PENDING' ? 0 : 1,
    ITINERARY_CHANGED: booked.change === 'ACCEPTED' ? 1 : 0,
    TICKET_REFUNDED: booked.refunds.length,
    DEADLINE_PASSED: target.role === 'deadline' && booked.change !== 'PENDING' ? 1 : 0,
  };
  const actual = Object.fromEntries(
    Object.keys(expected).map((name) => [name, count(trail, (row) => row.event === name)]),
  );
  if (
    JSON.stringify(actual) !== JSON.stringify(expected) ||
    trail.length !== Object.values(expected).reduce((a, b) => a + b, 0)
  ) {
    fail(
      `${where}: audit trail ${JSON.stringify(trail.map((row) => row.event))} for the state ${JSON.stringify(booked)}`,
    );
  }
  for (const row of trail) {
    const by =
      target.role === 'deadline'
        ? row.actor === 'system' && row.operation === 'deadline'
        : row.actor === 'agency' && row.agency_id === target.agencyId;
    if (!by) fail(`${where}: audit entry ${row.event} by ${row.actor}/${row.agency_id}/${row.operation}`);
  }
}

/** The feed announced each thing that happened to the booking exactly once. */
function checkEvents(
  target: ChaosBooking,
  booked: Booked,
  events: { type: string; data: string; agency_id: string }[],
  where: string,
  fail: (line: string) => void,
): void {
  const of = (type: string) => events.filter((event) => event.type === type).map((event) => JSON.parse(event.data));
  const resolvedBy = target.role === 'deadline' ? 'DEADLINE' : 'AGENCY';
  const expected: Record<string, number> = {
    'airline_change.detected': 1,
    'airline_change.resolved': booked.change === 'PENDING' ? 0 : 1,
    'booking.canceled': booked.status === 'CANCELED' ? 1 : 0,
    'booking.refunded': booked.cancellation === 'INVOLUNTARY' ? 1 : 0,
  };
  for (const [type, times] of Object.entries(expected)) {
    if (of(type).length !== times)
      fail(`${where}: ${of(type).length} ${type} events, ${times} expected for ${JSON.stringify(booked)}`);
  }
  if (of('airline_change.deadline_approaching').length > (target.role === 'deadline' ? 1 : 0))
    fail(`${where}: ${of('airline_change.deadline_approaching').length} deadline_approaching events`);
  for (const resolved of of('airline_change.resolved')) {
    if (resolved.ResolvedBy !== resolvedBy || resolved.Change?.Status !== booked.change)
      fail(`${where}: resolved ${resolved.Change?.Status} by ${resolved.ResolvedBy}, the store says ${booked.change}`);
  }
  for (const refunded of of('booking.refunded')) {
    if (
      JSON.stringify(refunded.Tickets.map((t: any) => ({ TicketNumber: t.TicketNumber, Amount: t.Amount }))) !==
      JSON.stringify(expectedRefund(target))
    )
      fail(`${where}: booking.refunded ${JSON.stringify(refunded)}`);
  }
  if (events.some((event) => event.agency_id !== target.agencyId))
    fail(`${where}: an event of it stored for another agency`);
}

/** The deadline's consequence, applied once, not before its time. Returns 1 when it was applied. */
function checkDeadline(
  target: ChaosBooking,
  booked: Booked,
  trail: { event: string; occurred_at: string; detail: string }[],
  where: string,
  fail: (line: string) => void,
): number {
  const deadline = target.deadline!;
  const applied =
    deadline.consequence === 'ACCEPT'
      ? booked.status === 'CONFIRMED' && booked.change === 'ACCEPTED'
      : booked.status === 'CANCELED' && booked.cancellation === 'INVOLUNTARY';
  if (!applied) fail(`${where}: the consequence is not what the store holds: ${JSON.stringify(booked)}`);
  const passed = trail.filter((row) => row.event === 'DEADLINE_PASSED');
  for (const row of passed) {
    if (Date.parse(row.occurred_at) < Date.parse(deadline.at))
      fail(`${where}: applied at ${row.occurred_at}, before its time`);
    if (JSON.parse(row.detail).consequence !== deadline.consequence) fail(`${where}: audit says ${row.detail}`);
  }
  return passed.length === 1 && applied ? 1 : 0;
}

/** What an acknowledged answer said of the booking is what the store holds. */
function checkAnswer(
  target: ChaosBooking,
  booked: Booked,
  operation: string,
  item: any,
  where: string,
  fail: (line: string) => void,
): void {
  const message: string = item.Msg ?? item.ErrorMsg ?? '';
  const code = message.split(':')[0];
  const holds = (() => {
    if (operation === 'cancel')
      return item.Status === 'SUCCESS' && item.BookingStatus === 'CANCELED' && booked.status === 'CANCELED';
    if (operation === 'accept') {
      if (item.Status === 'SUCCESS') return booked.change === 'ACCEPTED';
      if (code === 'BOOKING_CANCELED') return booked.status === 'CANCELED';
      return code === 'NO_PENDING_CHANGE' && booked.change !== 'PENDING' && booked.change !== 'ACCEPTED';
    }
    if (item.Status === 'SUCCESS') {
      return (
        booked.cancellation === 'INVOLUNTARY' &&
        item.RefundAmount === 225.15 &&
        JSON.stringify(item.RefundPaxWiseFare) === JSON.stringify(expectedRefund(target))
      );
    }
    if (code === 'BOOKING_CANCELED') return booked.cancellation === 'VOLUNTARY';
    return code === 'NO_PENDING_CHANGE' && booked.change === 'ACCEPTED';
  })();
  if (!holds) fail(`${where}: answered ${JSON.stringify(item)}, the store holds ${JSON.stringify(booked)}`);
}
