import { itemErrors, type ItemError } from '../errors/item-error.js';
import { sumMinor, type Minor } from './money.js';
import type { Booking, Passenger, RefundBreakdown, Ticket } from './order.js';
import { penaltyOf } from './penalty.js';
import { refundableTaxes } from './refundable-taxes.js';

/** What refunding one ticket voluntarily gives back: `amount` = fare + taxes - penalty. */
export interface TicketQuote {
  passengerId: string;
  ticketNumber: string;
  quoteType: 'VOID' | 'FULL';
  amount: Minor;
  breakdown: RefundBreakdown;
}

/** A quote's part for one booking: the passengers it takes out and what each ticket gets back. */
export interface BookingQuote {
  reference: string;
  /** In the booking's passenger order; the unticketed ones too, who leave the booking with the others. */
  passengerIds: string[];
  /** In passenger order. */
  tickets: TicketQuote[];
  /** The quote's time to live, or the end of a void window when that comes first. */
  expiresAt: string;
}

export interface QuoteSettings {
  /** How long after issue a ticket whose coupons are all OPEN is voided rather than refunded. */
  voidWindowMs: number;
  /** How long a quote can be confirmed. */
  quoteTtlMs: number;
}

type Quoted<T> = { ok: true; value: T } | { ok: false; error: ItemError };

/**
 * How far a ticket's `issuedAt` may lie ahead of the service's clock: the issuing system's clock and
 * ours may differ by this much. A ticket issued later than that has not been issued yet, for us: an
 * import refuses it, and it is never voided (docs/contract.md §11).
 */
export const ISSUE_CLOCK_SKEW_MS = 5 * 60_000;

/** When the ticket's void window ends (ms since the epoch), or null when it was loaded without `issuedAt`. */
export function voidWindowEnd(ticket: Ticket, voidWindowMs: number): number | null {
  return ticket.issuedAt === undefined ? null : Date.parse(ticket.issuedAt) + voidWindowMs;
}

/** Within its void window at `now`: issued, by our clock less the skew, and not longer ago than the window. */
function voidable(ticket: Ticket, now: number, voidWindowMs: number): boolean {
  if (ticket.issuedAt === undefined) return false;
  const issued = Date.parse(ticket.issuedAt);
  return issued <= now + ISSUE_CLOCK_SKEW_MS && now < issued + voidWindowMs;
}

/**
 * The rules of a voluntary refund on one ticket. Every coupon OPEN within the void window: a VOID,
 * everything back. Otherwise, unflown and with fare rules: FULL, the fare less its penalty and
 * every tax when the fare is refundable, only the refundable taxes when it is not.
 */
export function quoteTicket(
  ticket: Ticket,
  passengerId: string,
  now: number,
  voidWindowMs: number,
): Quoted<TicketQuote> {
  if (ticket.coupons.some((coupon) => coupon.status === 'USED'))
    return { ok: false, error: itemErrors.partlyFlown(ticket.ticketNumber) };
  if (!ticket.coupons.every((coupon) => coupon.status === 'OPEN')) {
    return { ok: false, error: itemErrors.ticketRefunded(ticket.ticketNumber) };
  }
  const base = { passengerId, ticketNumber: ticket.ticketNumber };
  if (voidable(ticket, now, voidWindowMs)) {
    const { taxes, taxLines } = refundableTaxes(ticket, true);
    return {
      ok: true,
      value: {
        ...base,
        quoteType: 'VOID',
        amount: sumMinor([ticket.baseFare, taxes]),
        breakdown: { fare: ticket.baseFare, taxes, penalty: 0, taxLines },
      },
    };
  }
  const rules = ticket.fareRules;
  if (!rules) return { ok: false, error: itemErrors.noFareRules(ticket.ticketNumber) };
  const fare = rules.refundable ? ticket.baseFare : 0;
  const penalty = rules.refundable ? penaltyOf(rules, ticket.baseFare) : 0;
  const { taxes, taxLines } = refundableTaxes(ticket, rules.refundable);
  return {
    ok: true,
    value: {
      ...base,
      quoteType: 'FULL',
      amount: sumMinor([fare, taxes]) - penalty,
      breakdown: { fare, taxes, penalty, taxLines },
    },
  };
}

/** The passengers a quote is for: those named (each must be in the booking), or all that are still in it. */
function selectPassengers(booking: Booking, passengerIds: readonly string[] | null): Quoted<Passenger[]> {
  if (passengerIds === null) {
    const travelling = booking.passengers.filter((passenger) => !passenger.canceled);
    if (travelling.length === 0) return { ok: false, error: itemErrors.everyoneRefunded(booking.reference) };
    return { ok: true, value: travelling };
  }
  const unknown = passengerIds.filter((id) => !booking.passengers.some((passenger) => passenger.passengerId === id));
  if (unknown.length > 0) return { ok: false, error: itemErrors.passengerNotFound(unknown, booking.reference) };
  const named = booking.passengers.filter((passenger) => passengerIds.includes(passenger.passengerId));
  const gone = named.find((passenger) => passenger.canceled);
  if (gone) return { ok: false, error: itemErrors.passengerRefunded(gone.passengerId, booking.reference) };
  return { ok: true, value: named };
}

/**
 * AirOrderRefundQuote on one booking: what refunding the passengers would give back now, ticket by
 * ticket, and until when that holds. It changes nothing; the first ticket that cannot be refunded
 * here fails the booking's item, so that a quote is always for every passenger asked.
 */
export function quoteBooking(
  booking: Booking,
  passengerIds: readonly string[] | null,
  now: string,
  settings: QuoteSettings,
): Quoted<BookingQuote> {
  const selected = selectPassengers(booking, passengerIds);
  if (!selected.ok) return selected;
  const at = Date.parse(now);
  let expires = at + settings.quoteTtlMs;
  const tickets: TicketQuote[] = [];
  for (const passenger of selected.value) {
    if (!passenger.ticket) continue;
    const quoted = quoteTicket(passenger.ticket, passenger.passengerId, at, settings.voidWindowMs);
    if (!quoted.ok) return quoted;
    // No void is confirmed after its window: the quote ends with the first window it relies on.
    if (quoted.value.quoteType === 'VOID')
      expires = Math.min(expires, voidWindowEnd(passenger.ticket, settings.voidWindowMs)!);
    tickets.push(quoted.value);
  }
  return {
    ok: true,
    value: {
      reference: booking.reference,
      passengerIds: selected.value.map((passenger) => passenger.passengerId),
      tickets,
      expiresAt: new Date(expires).toISOString(),
    },
  };
}

export function quoteAmount(tickets: readonly TicketQuote[]): Minor {
  return sumMinor(tickets.map((ticket) => ticket.amount));
}
