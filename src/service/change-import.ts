import { readChangeDocument, type ChangeDocument } from '../documents/change-document.js';
import { DocumentError } from '../documents/document-error.js';
import { readEach, type RawRecord } from '../documents/document-reader.js';
import { pathOf, pathText } from '../documents/field-path.js';
import { inDetectionOrder, pendingChanges } from '../domain/booking-outcome.js';
import { bookingSum, unsafeSumProblem } from '../domain/order-sums.js';
import type { AirlineChange, Booking } from '../domain/order.js';
import type { Actor, AuditEvent } from '../store/repositories/audit-repository.js';
import { bookingKey, type BookingKey } from '../store/stored-shapes.js';
import { changeNotice } from '../events/booking-events.js';
import type { AgencyEvent } from '../events/event-types.js';
import type { Repositories, Store } from '../store/store.js';
import type { Clock } from '../runtime/clock.js';

export interface ChangeImportSummary {
  imported: number;
  /** Changes whose changeId was stored already: airlines resend, and a resend is a no-op. */
  alreadyKnown: number;
}

export const OPERATOR_CHANGE_IMPORT: Actor = {
  actor: 'operator',
  agencyId: null,
  tokenId: null,
  requestId: null,
  operation: 'changes import',
};

/**
 * Checks a new change against its booking. Accepted, the pending changes apply in detection order,
 * whatever order they arrived in, so the new one is put in its place among them and every step is
 * checked as it would apply: a change may remove only segments the booking has at that point (none
 * flown), and add only segment ids the booking never had.
 */
function checkAgainstBooking(document: ChangeDocument, booking: Booking, label: string): void {
  const { change } = document;
  const current = new Set(booking.segments.map((segment) => segment.segmentId));
  // A segment an accepted change took away keeps its id: the audit trail and the change still name it.
  const formerly = new Set(booking.changes.flatMap((earlier) => earlier.removedSegments));
  const added = new Set(
    booking.changes.flatMap((earlier) => earlier.addedSegments.map((segment) => segment.segmentId)),
  );
  change.addedSegments.forEach((segment, index) => {
    const id = segment.segmentId;
    if (current.has(id) || added.has(id)) {
      throw new DocumentError(
        label,
        `addedSegments[${index}].segmentId`,
        `${id} is already a segment of booking ${booking.reference}`,
        document.orderId,
      );
    }
    if (formerly.has(id)) {
      throw new DocumentError(
        label,
        `addedSegments[${index}].segmentId`,
        `${id} was a segment of booking ${booking.reference} that an airline change removed; an added segment takes an id the booking never had`,
        document.orderId,
      );
    }
  });
  change.removedSegments.forEach((id, index) => {
    const flown = booking.passengers.some((passenger) =>
      passenger.ticket?.coupons.some((coupon) => coupon.segmentId === id && coupon.status === 'USED'),
    );
    if (flown)
      throw new DocumentError(
        label,
        `removedSegments[${index}]`,
        `${id} has been flown and cannot be changed`,
        document.orderId,
      );
  });

  const segments = new Set(booking.segments.map((segment) => segment.segmentId));
  for (const step of inDetectionOrder([...pendingChanges(booking), change])) {
    step.removedSegments.forEach((id, index) => {
      if (segments.has(id)) return;
      if (step === change)
        throw new DocumentError(
          label,
          `removedSegments[${index}]`,
          `names no segment of booking ${booking.reference}: ${id}`,
          document.orderId,
        );
      // The new change, detected earlier, takes away a segment that a pending change detected later removes.
      throw new DocumentError(
        label,
        'removedSegments',
        `removes ${id}, which change ${step.changeId}, detected later (${step.detectedAt}), removes too`,
        document.orderId,
      );
    });
    step.removedSegments.forEach((id) => segments.delete(id));
    step.addedSegments.forEach((segment) => segments.add(segment.segmentId));
  }
}

const BATCH = 500;

interface Pending {
  label: string;
  document: ChangeDocument;
}

/**
 * Imports airline-change documents, all or nothing, in batches inside one transaction. Each change
 * is checked against its booking as it stands with the changes before it (stored or earlier in the
 * file) applied. A change for a booking that is already cancelled is recorded as CLOSED: nothing
 * awaits action on it, but the airline's message is kept. The audit trail names `actor`: the CLI's
 * import, or the console's with the operator's email; `record` writes what else the caller keeps of
 * the import (the console's journal row) in the same transaction.
 */
export async function importChanges(
  store: Store,
  clock: Clock,
  records: Iterable<RawRecord> | AsyncIterable<RawRecord>,
  onProgress: (read: number) => void = () => {},
  actor: Actor = OPERATOR_CHANGE_IMPORT,
  record: (tx: Repositories, summary: ChangeImportSummary) => Promise<void> = async () => {},
): Promise<ChangeImportSummary> {
  return store.write(
    async (tx) => {
      const now = clock();
      const summary: ChangeImportSummary = { imported: 0, alreadyKnown: 0 };
      let batch: Pending[] = [];
      for await (const record of records) {
        const [document] = readEach([record], readChangeDocument) as [ChangeDocument];
        batch.push({ label: record.label, document });
        if (batch.length >= BATCH) {
          await writeBatch(tx, batch, now, summary, actor);
          onProgress(summary.imported + summary.alreadyKnown);
          batch = [];
        }
      }
      await writeBatch(tx, batch, now, summary, actor);
      onProgress(summary.imported + summary.alreadyKnown);
      await record(tx, summary);
      return summary;
    },
    { large: true },
  );
}

async function writeBatch(
  tx: Repositories,
  batch: Pending[],
  now: string,
  summary: ChangeImportSummary,
  actor: Actor,
): Promise<void> {
  if (batch.length === 0) return;
  const ids = batch.map(({ document }) => document.change.changeId);
  const keys = batch.map(({ document }) => ({ orderId: document.orderId, reference: document.reference }));
  // A request acting on one of these bookings must not change it between the checks below and the
  // commit: the changes would be checked against a booking that is no longer so.
  await tx.lockOrders(keys.map((key) => key.orderId));
  const known = await tx.storedChanges(ids);
  const { bookings, orders } = await tx.loadBookings(keys);

  const accepted: (BookingKey & { change: AirlineChange })[] = [];
  const events: AuditEvent[] = [];
  const announced: AgencyEvent[] = [];
  for (const { label, document } of batch) {
    const stored = known.get(document.change.changeId);
    if (stored) {
      // A resend is a no-op; the same id for another booking is not a resend, and dropping it would lose the change.
      if (stored.orderId !== document.orderId || stored.reference !== document.reference) {
        throw new DocumentError(
          label,
          'changeId',
          `${document.change.changeId} is already the id of a change of order ${stored.orderId}, booking ${stored.reference}`,
          document.orderId,
        );
      }
      summary.alreadyKnown += 1;
      continue;
    }
    const booking = bookings.get(bookingKey(document));
    if (!booking) {
      if (!orders.has(document.orderId))
        throw new DocumentError(label, 'orderId', `names no order: ${document.orderId}`, document.orderId);
      throw new DocumentError(
        label,
        'gdsBookingReference',
        `is not a booking of order ${document.orderId}: ${document.reference}`,
        document.orderId,
      );
    }
    // Imports refuse such amounts, but an order stored before they did (or before the bound came down
    // to what a JSON number keeps exact) may hold them: the refund quote below would overflow, or not
    // be exact on the wire. Refused like any bad record, so nothing of the file is stored.
    const sum = bookingSum(booking);
    if (typeof sum !== 'number') {
      throw new DocumentError(
        label,
        'orderId',
        `${document.orderId} was stored before imports bounded its amounts: in booking ${booking.reference}, ` +
          `${pathText(pathOf(sum.path))} ${unsafeSumProblem(sum, orders.get(document.orderId)!.row.currency)}; ` +
          'correct the order and import it again (orders import --upsert)',
        document.orderId,
      );
    }
    const status = booking.status === 'CANCELED' ? 'CLOSED' : 'PENDING';
    if (status === 'PENDING') checkAgainstBooking(document, booking, label);
    const change = { ...document.change, status } as AirlineChange;
    // Later records of the file see this change, as they would see a stored one.
    booking.changes.push(change);
    known.set(change.changeId, { orderId: document.orderId, reference: document.reference });
    accepted.push({ orderId: document.orderId, reference: document.reference, change });
    events.push({
      orderId: document.orderId,
      reference: document.reference,
      event: 'CHANGE_RECORDED',
      detail: { changeId: change.changeId, kind: change.kind, status },
    });
    // The booking as it now stands, with this change among its pending ones: what the agency can do about it.
    announced.push(changeNotice('airline_change.detected', orders.get(document.orderId)!.row, booking, change));
  }
  if (accepted.length === 0) return;
  // One row of the audit log per order, its key into the order's trail, with the changes into the
  // orders' records, whose versions move on: a request that read these bookings before the changes
  // were recorded must decide again.
  const trailKeys = await tx.appendAuditEvents(actor, events, now);
  await tx.insertChanges(accepted, now, trailKeys, orders);
  await tx.appendEvents(announced, now);
  summary.imported += accepted.length;
}
