import type { BookingOutcome } from '../../domain/booking-outcome.js';
import type { Booking } from '../../domain/order.js';
import type { ItemErrorCode } from '../../errors/error-codes.js';
import { bookingFingerprint } from '../../service/booking-fingerprint.js';
import { quoteToStore, refundQuoteRule, refundRule, type RefundInput } from '../../service/refund-operations.js';

/**
 * The refund operations' examples, made by their own rules from a sample booking: a refundable fare
 * with a 10 % penalty, a government tax and the carrier's YQ, issued ten days before the examples' now.
 */
const QUOTE_ID = 'rfq_5f0c2a9e41b7d3866e1a0c4f';
const SETTINGS = { voidWindowMs: 24 * 3_600_000, quoteTtlMs: 15 * 60_000 };

export function refundableSample(booking: Booking, now: string): Booking {
  const issuedAt = new Date(Date.parse(now) - 10 * 24 * 3_600_000).toISOString();
  return {
    ...booking,
    passengers: booking.passengers.map((passenger) =>
      passenger.ticket
        ? {
            ...passenger,
            ticket: {
              ...passenger.ticket,
              issuedAt,
              taxBreakdown: [
                { code: 'DE', amount: passenger.ticket.taxes - 8000 },
                { code: 'YQ', amount: 8000 },
              ],
              fareRules: { refundable: true, penaltyBasisPoints: 1000 },
            },
          }
        : passenger,
    ),
  };
}

function quoteInput(passengerIds: readonly string[] | null = null): RefundInput {
  return { settings: SETTINGS, quoteId: QUOTE_ID, passengerIds };
}

/** The quote AirOrderRefundQuote stores for the booking, as AirOrderRefund reads it. */
function storedQuote(booking: Booking, now: string): RefundInput {
  const input = quoteInput();
  const quote = quoteToStore('ORD-1001', 'AGT042', now, input, [
    { booking, outcome: refundQuoteRule(booking, now, input) },
  ]);
  return { ...input, quote };
}

/** What each operation answers for the sample booking, successfully. */
export function refundSuccess(operation: 'refundQuote' | 'refund', booking: Booking, now: string): BookingOutcome {
  return operation === 'refundQuote'
    ? refundQuoteRule(booking, now, quoteInput())
    : refundRule(booking, now, storedQuote(booking, now));
}

/** The outcome that makes each item-level failure of the refund operations, on the sample booking. */
export function refundFailure(code: ItemErrorCode, booking: Booking, now: string): BookingOutcome | null {
  const first = booking.passengers[0]!;
  const ticket = first.ticket!;
  const withTicket = (changed: Partial<typeof ticket>): Booking => ({
    ...booking,
    passengers: [{ ...first, ticket: { ...ticket, ...changed } }],
  });
  const later = new Date(Date.parse(now) + 16 * 60_000).toISOString();
  switch (code) {
    case 'PASSENGER_NOT_FOUND':
      return refundQuoteRule(booking, now, quoteInput(['P9']));
    case 'ALREADY_REFUNDED': {
      const refunded = refundRule(booking, now, storedQuote(booking, now));
      return refunded.ok ? refundQuoteRule(refunded.booking, now, quoteInput()) : null;
    }
    case 'NO_FARE_RULES': {
      const withoutRules = { ...ticket };
      delete withoutRules.fareRules;
      return refundQuoteRule({ ...booking, passengers: [{ ...first, ticket: withoutRules }] }, now, quoteInput());
    }
    case 'PARTLY_FLOWN':
      return refundQuoteRule(
        withTicket({ coupons: ticket.coupons.map((coupon) => ({ ...coupon, status: 'USED' })) }),
        now,
        quoteInput(),
      );
    case 'QUOTE_NOT_FOUND':
      return refundRule(booking, now, { ...quoteInput(), quote: null });
    case 'QUOTE_EXPIRED':
      return refundRule(booking, later, storedQuote(booking, now));
    case 'QUOTE_OUTDATED': {
      const input = storedQuote(booking, now);
      const changed: Booking = { ...booking, changes: [] };
      return bookingFingerprint(changed) === bookingFingerprint(booking) ? null : refundRule(changed, now, input);
    }
    default:
      return null;
  }
}
