import { readChangeDocument, type ChangeDocument } from '../documents/change-document.js';
import { DocumentError } from '../documents/document-error.js';
import { readEach, type RawRecord } from '../documents/document-reader.js';
import type { Booking } from '../domain/order.js';
import { appendAuditEvents, type Actor } from '../store/repositories/audit-repository.js';
import { changeExists, insertChange, loadOrder } from '../store/repositories/orders-repository.js';
import type { Store } from '../store/store.js';
import type { Clock } from './clock.js';

export interface ChangeImportSummary {
  imported: number;
  /** Changes whose changeId was stored already: airlines resend, and a resend is a no-op. */
  alreadyKnown: number;
}

const OPERATOR_CHANGE_IMPORT: Actor = { actor: 'operator', agencyId: null, tokenId: null, requestId: null, operation: 'changes import' };

/** The segment ids the booking would have once its pending changes were accepted. */
function projectedSegments(booking: Booking): Set<string> {
  const ids = new Set(booking.segments.map((segment) => segment.segmentId));
  for (const change of booking.changes.filter((candidate) => candidate.status === 'PENDING')) {
    change.removedSegments.forEach((id) => ids.delete(id));
    change.addedSegments.forEach((segment) => ids.add(segment.segmentId));
  }
  return ids;
}

function checkAgainstBooking(document: ChangeDocument, booking: Booking, label: string): void {
  const current = projectedSegments(booking);
  const everUsed = new Set([...booking.segments.map((segment) => segment.segmentId),
    ...booking.changes.flatMap((change) => change.addedSegments.map((segment) => segment.segmentId))]);
  const { change } = document;
  change.removedSegments.forEach((id, index) => {
    if (!current.has(id)) throw new DocumentError(label, `removedSegments[${index}]`, `names no segment of booking ${booking.reference}: ${id}`);
    const flown = booking.passengers.some((passenger) => passenger.ticket?.coupons.some((coupon) => coupon.segmentId === id && coupon.status === 'USED'));
    if (flown) throw new DocumentError(label, `removedSegments[${index}]`, `${id} has been flown and cannot be changed`);
  });
  change.addedSegments.forEach((segment, index) => {
    if (everUsed.has(segment.segmentId)) {
      throw new DocumentError(label, `addedSegments[${index}].segmentId`, `${segment.segmentId} is already a segment of booking ${booking.reference}`);
    }
  });
}

/**
 * Imports airline-change documents, all or nothing. Each change is checked against its booking as
 * it stands with the changes before it applied. A change for a booking that is already cancelled is
 * recorded as CLOSED: nothing awaits action on it, but the airline's message is kept.
 */
export async function importChanges(
  store: Store, clock: Clock, records: Iterable<RawRecord> | AsyncIterable<RawRecord>,
  onProgress: (read: number) => void = () => {},
): Promise<ChangeImportSummary> {
  return store.transaction(async (tx) => {
    const now = clock();
    let imported = 0;
    let alreadyKnown = 0;
    for await (const record of records) {
      if ((imported + alreadyKnown) % 500 === 0) onProgress(imported + alreadyKnown);
      const [document] = readEach([record], readChangeDocument) as [ChangeDocument];
      const label = record.label;
      if (await changeExists(tx, document.change.changeId)) {
        alreadyKnown += 1;
        continue;
      }
      const order = await loadOrder(tx, document.orderId, undefined, [document.reference]);
      if (!order) throw new DocumentError(label, 'orderId', `names no order: ${document.orderId}`);
      const booking = order.bookings.find((candidate) => candidate.reference === document.reference);
      if (!booking) throw new DocumentError(label, 'gdsBookingReference', `is not a booking of order ${document.orderId}: ${document.reference}`);
      const status = booking.status === 'CANCELED' ? 'CLOSED' : 'PENDING';
      if (status === 'PENDING') checkAgainstBooking(document, booking, label);
      await insertChange(tx, document.orderId, document.reference, { ...document.change, status }, now);
      // One sequence across the import: the trail lists the changes in the file's order.
      await appendAuditEvents(tx, OPERATOR_CHANGE_IMPORT, [{
        orderId: document.orderId,
        reference: document.reference,
        event: 'CHANGE_RECORDED',
        detail: { changeId: document.change.changeId, kind: document.change.kind, status },
      }], now, imported);
      imported += 1;
    }
    onProgress(imported + alreadyKnown);
    return { imported, alreadyKnown };
  });
}
