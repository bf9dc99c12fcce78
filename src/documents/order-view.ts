import { formatAmount } from '../domain/money.js';
import type { Order } from '../domain/order.js';

/**
 * The order as an operator reads it (`airorder orders show`): the order document's shape with each
 * booking's and coupon's current status, the booking's airline changes and refunds. Amounts are
 * decimal strings in the order's currency, as in the documents that were imported.
 */
export function orderView(order: Order) {
  const money = (minor: number) => formatAmount(minor, order.currency);
  return {
    orderId: order.orderId,
    agencyId: order.agencyId,
    currency: order.currency,
    bookings: order.bookings.map((booking) => ({
      gdsBookingReference: booking.reference,
      status: booking.status,
      segments: booking.segments,
      passengers: booking.passengers.map((passenger) => ({
        passengerId: passenger.passengerId,
        type: passenger.type,
        givenName: passenger.givenName,
        surname: passenger.surname,
        ...(passenger.ticket ? {
          ticket: {
            ticketNumber: passenger.ticket.ticketNumber,
            baseFare: money(passenger.ticket.baseFare),
            taxes: money(passenger.ticket.taxes),
            coupons: passenger.ticket.coupons.map((coupon) => ({ segmentId: coupon.segmentId, status: coupon.status, value: money(coupon.value) })),
          },
        } : {}),
      })),
      changes: booking.changes.map((change) => ({
        changeId: change.changeId,
        orderId: order.orderId,
        gdsBookingReference: booking.reference,
        kind: change.kind,
        detectedAt: change.detectedAt,
        removedSegments: change.removedSegments,
        addedSegments: change.addedSegments,
        ...(change.actionDeadline ? { actionDeadline: change.actionDeadline } : {}),
        consequenceOfInaction: change.consequenceOfInaction,
        status: change.status,
      })),
      refunds: booking.refunds.map((refund) => ({
        ticketNumber: refund.ticketNumber,
        amount: money(refund.amount),
        quoteType: refund.quoteType,
        createdAt: refund.createdAt,
      })),
    })),
  };
}
