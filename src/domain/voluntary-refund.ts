import { itemErrors } from '../errors/item-error.js';
import { failed, type BookingOutcome } from './booking-outcome.js';
import type { Booking, Refund } from './order.js';
import type { BookingQuote } from './voluntary-quote.js';

/** A stored quote's part for one booking, as AirOrderRefund confirms it. */
export interface QuoteToConfirm {
  quoteId: string;
  part: BookingQuote;
  /** Whether the booking is as it was when quoted (the service compares fingerprints). */
  unchangedSinceQuote: boolean;
}

/** Whether this quote was confirmed on the booking already: its passengers left by it. */
export function confirmedOn(booking: Booking, quoteId: string): boolean {
  return booking.passengers.some((passenger) => passenger.canceled?.quoteId === quoteId);
}

/**
 * AirOrderRefund on one booking: does exactly what the quote said, never another amount. The quoted
 * passengers leave the booking, their tickets' OPEN coupons become REFUNDED (VOIDED for a void) and
 * each ticket's refund is recorded with its breakdown; a booking left with no passenger is CANCELED
 * and its pending changes CLOSED. A quote confirmed already answers again and changes nothing; one
 * past its expiry, or quoted on a booking that changed since, changes nothing and fails.
 */
export function confirmRefund(booking: Booking, quote: QuoteToConfirm, now: string): BookingOutcome {
  const { quoteId, part } = quote;
  const refund = { quoteId, expiresAt: part.expiresAt, passengerIds: part.passengerIds, tickets: part.tickets };
  if (confirmedOn(booking, quoteId)) return { ok: true, booking, changed: false, refund };
  if (Date.parse(now) >= Date.parse(part.expiresAt)) return failed(itemErrors.quoteExpired(quoteId, part.expiresAt));
  if (!quote.unchangedSinceQuote) return failed(itemErrors.quoteOutdated(quoteId, booking.reference));
  const leaving = new Set(part.passengerIds);
  const byTicket = new Map(part.tickets.map((ticket) => [ticket.ticketNumber, ticket]));
  const passengers = booking.passengers.map((passenger) => {
    if (!leaving.has(passenger.passengerId)) return passenger;
    const quoted = passenger.ticket && byTicket.get(passenger.ticket.ticketNumber);
    const ticket =
      passenger.ticket && quoted
        ? {
            ...passenger.ticket,
            coupons: passenger.ticket.coupons.map((coupon) =>
              coupon.status === 'OPEN'
                ? { ...coupon, status: quoted.quoteType === 'VOID' ? ('VOIDED' as const) : ('REFUNDED' as const) }
                : coupon,
            ),
          }
        : passenger.ticket;
    return { ...passenger, ticket, canceled: { at: now, quoteId } };
  });
  const refunds: Refund[] = part.tickets.map((ticket) => ({
    ticketNumber: ticket.ticketNumber,
    amount: ticket.amount,
    quoteType: ticket.quoteType,
    createdAt: now,
    breakdown: ticket.breakdown,
    quoteId,
  }));
  const ended = passengers.every((passenger) => passenger.canceled);
  const after: Booking = {
    ...booking,
    passengers,
    refunds: [...booking.refunds, ...refunds],
    ...(ended && booking.status !== 'CANCELED'
      ? {
          status: 'CANCELED' as const,
          cancellation: 'VOLUNTARY' as const,
          changes: booking.changes.map((change) =>
            change.status === 'PENDING' ? { ...change, status: 'CLOSED' as const } : change,
          ),
        }
      : {}),
  };
  return { ok: true, booking: after, changed: true, refund };
}
