import { formatAmount } from '../domain/money.js';
import type { FareRules, Order } from '../domain/order.js';

/** Hundredths of a percent as the percentage's decimal text: 3500 → "35", 1250 → "12.5". */
function percentText(basisPoints: number): string {
  const fraction = String(basisPoints % 100)
    .padStart(2, '0')
    .replace(/0$/, '');
  return fraction === '' || fraction === '0'
    ? String(Math.floor(basisPoints / 100))
    : `${Math.floor(basisPoints / 100)}.${fraction}`;
}

/** Fare rules as the order document writes them: the percentage back in percent. */
function fareRulesView(rules: FareRules, money: (minor: number) => string) {
  return {
    refundable: rules.refundable,
    ...(rules.penalty === undefined ? {} : { penalty: money(rules.penalty) }),
    ...(rules.penaltyBasisPoints === undefined ? {} : { penaltyPercent: percentText(rules.penaltyBasisPoints) }),
  };
}

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
        ...(passenger.ticket
          ? {
              ticket: {
                ticketNumber: passenger.ticket.ticketNumber,
                baseFare: money(passenger.ticket.baseFare),
                taxes: money(passenger.ticket.taxes),
                coupons: passenger.ticket.coupons.map((coupon) => ({
                  segmentId: coupon.segmentId,
                  status: coupon.status,
                  value: money(coupon.value),
                })),
                ...(passenger.ticket.issuedAt === undefined ? {} : { issuedAt: passenger.ticket.issuedAt }),
                ...(passenger.ticket.taxBreakdown === undefined
                  ? {}
                  : {
                      taxBreakdown: passenger.ticket.taxBreakdown.map((line) => ({
                        code: line.code,
                        amount: money(line.amount),
                        ...(line.refundable === undefined ? {} : { refundable: line.refundable }),
                      })),
                    }),
                ...(passenger.ticket.fareRules === undefined
                  ? {}
                  : { fareRules: fareRulesView(passenger.ticket.fareRules, money) }),
              },
            }
          : {}),
        ...(passenger.canceled ? { canceledAt: passenger.canceled.at } : {}),
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
        ...(refund.breakdown
          ? {
              fare: money(refund.breakdown.fare),
              taxes: money(refund.breakdown.taxes),
              penalty: money(refund.breakdown.penalty),
              quoteId: refund.quoteId,
            }
          : {}),
      })),
    })),
  };
}
