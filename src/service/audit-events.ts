import type { Booking } from '../domain/order.js';
import type { AuditEvent } from '../store/repositories/audit-repository.js';

/** What changed between a booking's stored state and its new one, as audit events. */
export function bookingAuditEvents(orderId: string, currency: string, before: Booking, after: Booking): AuditEvent[] {
  const events: AuditEvent[] = [];
  const reference = after.reference;
  if (before.status !== after.status) {
    events.push({
      orderId,
      reference,
      event: 'BOOKING_STATUS',
      detail: { from: before.status, to: after.status, cancellation: after.cancellation },
    });
  }
  const previous = new Map(before.changes.map((change) => [change.changeId, change.status]));
  for (const change of after.changes) {
    const from = previous.get(change.changeId);
    if (from !== change.status)
      events.push({
        orderId,
        reference,
        event: 'CHANGE_STATUS',
        detail: { changeId: change.changeId, from, to: change.status },
      });
  }
  if (JSON.stringify(before.segments) !== JSON.stringify(after.segments)) {
    events.push({
      orderId,
      reference,
      event: 'ITINERARY_CHANGED',
      detail: {
        from: before.segments.map((segment) => segment.segmentId),
        to: after.segments.map((segment) => segment.segmentId),
      },
    });
  }
  const leaving = after.passengers.filter(
    (passenger) =>
      passenger.canceled && !before.passengers.find((p) => p.passengerId === passenger.passengerId)?.canceled,
  );
  if (leaving.length > 0) {
    // The confirmation of a voluntary refund's quote: who left the booking by it.
    events.push({
      orderId,
      reference,
      event: 'REFUND_CONFIRMED',
      detail: {
        quoteId: leaving[0]!.canceled!.quoteId,
        passengerIds: leaving.map((passenger) => passenger.passengerId),
      },
    });
  }
  for (const refund of after.refunds.slice(before.refunds.length)) {
    events.push({
      orderId,
      reference,
      event: 'TICKET_REFUNDED',
      detail: {
        ticketNumber: refund.ticketNumber,
        amountMinor: refund.amount,
        currency,
        quoteType: refund.quoteType,
        ...(refund.breakdown
          ? {
              quoteId: refund.quoteId,
              fareMinor: refund.breakdown.fare,
              taxesMinor: refund.breakdown.taxes,
              penaltyMinor: refund.breakdown.penalty,
            }
          : {}),
      },
    });
  }
  return events;
}
