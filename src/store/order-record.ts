import type { AirlineChange, Booking, Order } from '../domain/order.js';
import type { BookingToStore } from './stored-shapes.js';

/**
 * The order as it is stored: one record per order (docs/decisions.md, "The order as one record"),
 * encoded as JSON, in the domain's own words. Only here is it turned into domain objects and back.
 * The order's id, its agency and its version are columns beside it: what is looked up other than
 * through the record.
 */
export interface OrderRecord {
  currency: string;
  createdAt: string;
  /** When a change of the order was last stored. */
  updatedAt: string;
  /** In the order's own order of bookings. */
  bookings: StoredBooking[];
  /**
   * The keys of the order's rows in the audit log, oldest first (migration 012): its history, found
   * without an index by order. Absent in records made before the log.
   */
  trail?: string[];
}

export interface StoredBooking extends Omit<Booking, 'changes'> {
  /** In detection order. */
  changes: StoredChange[];
}

/** An airline change, and when it was recorded and resolved (for the operator; never sent to agencies). */
export interface StoredChange extends AirlineChange {
  createdAt: string;
  resolvedAt: string | null;
}

export function parseOrderRecord(json: string): OrderRecord {
  return JSON.parse(json) as OrderRecord;
}

function changeOf(stored: StoredChange): AirlineChange {
  return {
    changeId: stored.changeId,
    kind: stored.kind,
    detectedAt: stored.detectedAt,
    removedSegments: stored.removedSegments,
    addedSegments: stored.addedSegments,
    status: stored.status,
    actionDeadline: stored.actionDeadline,
    consequenceOfInaction: stored.consequenceOfInaction,
  };
}

export function bookingOf(stored: StoredBooking): Booking {
  return {
    reference: stored.reference,
    status: stored.status,
    cancellation: stored.cancellation,
    segments: stored.segments,
    passengers: stored.passengers,
    changes: stored.changes.map(changeOf),
    refunds: stored.refunds,
  };
}

/** The record's bookings as the domain's: all of them, or those named in `references`, in the order's own order. */
export function bookingsOf(record: OrderRecord, references?: readonly string[] | null): Booking[] {
  const wanted = references ? new Set(references) : null;
  return record.bookings.filter((booking) => !wanted || wanted.has(booking.reference)).map(bookingOf);
}

export function orderOf(
  orderId: string,
  agencyId: string,
  record: OrderRecord,
  references?: readonly string[] | null,
): Order {
  return { orderId, agencyId, currency: record.currency, bookings: bookingsOf(record, references) };
}

/**
 * The record once the rules changed some of its bookings at `now`: each changed booking replaces the
 * stored one, its changes keep when they were recorded, a change whose status moved is resolved at
 * `now`, and the change's row in the audit log (`trailKey`) joins the trail.
 */
export function recordAfter(
  record: OrderRecord,
  changed: readonly Booking[],
  now: string,
  trailKey: string | null,
): OrderRecord {
  const byReference = new Map(changed.map((booking) => [booking.reference, booking]));
  return {
    currency: record.currency,
    createdAt: record.createdAt,
    updatedAt: now,
    bookings: record.bookings.map((stored) => {
      const after = byReference.get(stored.reference);
      return after ? storedBooking(after, stored.changes, now) : stored;
    }),
    trail: trailAfter(record, trailKey),
  };
}

function trailAfter(record: OrderRecord, trailKey: string | null): string[] {
  return trailKey === null ? (record.trail ?? []) : [...(record.trail ?? []), trailKey];
}

function storedBooking(booking: Booking, before: readonly StoredChange[], now: string): StoredBooking {
  const previous = new Map(before.map((change) => [change.changeId, change]));
  return {
    ...booking,
    changes: booking.changes.map((change) => {
      const stored = previous.get(change.changeId);
      const resolvedAt = stored === undefined ? null : stored.status === change.status ? stored.resolvedAt : now;
      return { ...change, createdAt: stored?.createdAt ?? now, resolvedAt };
    }),
  };
}

/** The record with airline changes added to its bookings (an import of changes), recorded at `now`. */
export function recordWithChanges(
  record: OrderRecord,
  added: readonly { reference: string; change: AirlineChange }[],
  now: string,
  trailKey: string | null,
): OrderRecord {
  return {
    ...record,
    trail: trailAfter(record, trailKey),
    updatedAt: now,
    bookings: record.bookings.map((booking) => {
      const mine = added.filter((item) => item.reference === booking.reference);
      if (mine.length === 0) return booking;
      const changes = [
        ...booking.changes,
        ...mine.map(({ change }) => ({ ...change, createdAt: now, resolvedAt: null })),
      ];
      return { ...booking, changes: changes.sort(inDetectionOrder) };
    }),
  };
}

/** Changes are kept in the order they were detected, ties by id. */
function inDetectionOrder(a: AirlineChange, b: AirlineChange): number {
  if (a.detectedAt !== b.detectedAt) return a.detectedAt < b.detectedAt ? -1 : 1;
  return a.changeId < b.changeId ? -1 : a.changeId > b.changeId ? 1 : 0;
}

/**
 * A new order's record as JSON text, from bookings already serialised where that costs most (their
 * itinerary and passengers, on the import's preparing thread): put together as text, not encoded again.
 */
export function newRecordJson(
  currency: string,
  bookings: readonly BookingToStore[],
  now: string,
  trail: readonly string[],
): string {
  const at = JSON.stringify(now);
  const stored = bookings.map(
    (booking) =>
      `{"reference":${JSON.stringify(booking.reference)},"status":${JSON.stringify(booking.status)},` +
      `"cancellation":${JSON.stringify(booking.cancellation)},"segments":${booking.segmentsJson},"passengers":${booking.passengersJson},` +
      '"changes":[],"refunds":[]}',
  );
  return `{"currency":${JSON.stringify(currency)},"createdAt":${at},"updatedAt":${at},"bookings":[${stored.join(',')}],"trail":${JSON.stringify(trail)}}`;
}
