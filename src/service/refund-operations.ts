import { randomBytes } from 'node:crypto';
import { failed, type BookingOutcome } from '../domain/booking-outcome.js';
import type { Booking } from '../domain/order.js';
import { quoteAmount, quoteBooking, type QuoteSettings } from '../domain/voluntary-quote.js';
import { confirmRefund } from '../domain/voluntary-refund.js';
import { itemErrors } from '../errors/item-error.js';
import type { AuditEvent } from '../store/repositories/audit-repository.js';
import type { StoredRefundQuote } from '../store/stored-shapes.js';
import { bookingFingerprint } from './booking-fingerprint.js';

/** What the two refund operations need beyond the booking references. */
export interface RefundInput {
  settings: QuoteSettings;
  /** AirOrderRefundQuote: the id the new quote gets, and the passengers asked for (null: every passenger still in the booking). */
  quoteId: string;
  passengerIds: readonly string[] | null;
  /** AirOrderRefund: the quote named, read before the change (quotes never change); null when the agency has no such quote for the order. */
  quote?: StoredRefundQuote | null;
}

/** A quote's id: `rfq_` and 24 random hex digits, unguessable, since it is all AirOrderRefund needs besides the order. */
export function newQuoteId(): string {
  return `rfq_${randomBytes(12).toString('hex')}`;
}

/** AirOrderRefundQuote on one booking: the rules' quote, which changes nothing of the booking. */
export function refundQuoteRule(booking: Booking, now: string, input: RefundInput): BookingOutcome {
  const quoted = quoteBooking(booking, input.passengerIds, now, input.settings);
  if (!quoted.ok) return failed(quoted.error);
  const { expiresAt, passengerIds, tickets } = quoted.value;
  return { ok: true, booking, changed: false, refund: { quoteId: input.quoteId, expiresAt, passengerIds, tickets } };
}

/** AirOrderRefund on one booking: the quote's part for it, confirmed if the booking is still as quoted. */
export function refundRule(booking: Booking, now: string, input: RefundInput): BookingOutcome {
  const part = input.quote?.parts.find((candidate) => candidate.reference === booking.reference);
  if (!part) return failed(itemErrors.quoteNotFound(input.quoteId, booking.reference));
  return confirmRefund(
    booking,
    { quoteId: input.quoteId, part, unchangedSinceQuote: bookingFingerprint(booking) === part.fingerprint },
    now,
  );
}

/** The quote to keep, made of the bookings quoted successfully; null when none was. */
export function quoteToStore(
  orderId: string,
  agencyId: string,
  now: string,
  input: RefundInput,
  quoted: readonly { booking: Booking; outcome: BookingOutcome }[],
): StoredRefundQuote | null {
  const parts = quoted.flatMap(({ booking, outcome }) =>
    outcome.ok && outcome.refund
      ? [
          {
            reference: booking.reference,
            fingerprint: bookingFingerprint(booking),
            passengerIds: outcome.refund.passengerIds,
            tickets: outcome.refund.tickets,
            expiresAt: outcome.refund.expiresAt,
          },
        ]
      : [],
  );
  if (parts.length === 0) return null;
  const expiresAt = parts
    .map((part) => part.expiresAt)
    .sort()
    .at(-1)!;
  return { quoteId: input.quoteId, agencyId, orderId, createdAt: now, expiresAt, parts };
}

/** The audit trail's entry for each booking quoted: what was promised, until when. */
export function quoteAuditEvents(orderId: string, currency: string, quote: StoredRefundQuote): AuditEvent[] {
  return quote.parts.map((part) => ({
    orderId,
    reference: part.reference,
    event: 'REFUND_QUOTED',
    detail: {
      quoteId: quote.quoteId,
      passengerIds: part.passengerIds,
      amountMinor: quoteAmount(part.tickets),
      currency,
      expiresAt: part.expiresAt,
      tickets: part.tickets.map((ticket) => ({
        ticketNumber: ticket.ticketNumber,
        quoteType: ticket.quoteType,
        amountMinor: ticket.amount,
      })),
    },
  }));
}
