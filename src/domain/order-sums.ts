import { formatAmount, LARGEST_MINOR, type Minor } from './money.js';
import type { Booking, Coupon, Order } from './order.js';

// Every sum the service takes over an order's amounts must stay within LARGEST_MINOR to be exact,
// in integer minor units and as a JSON number on the wire (money.ts), so an order is refused at
// import if any of them would not (`unsafeOrderSum`), and the code that adds amounts up (sumMinor)
// can treat passing Number.MAX_SAFE_INTEGER, far above it, as a bug.

/** Written `!(sum <= …)` so that a NaN (a stored value that is not a number) counts as past it too. */
function past(sum: Minor): boolean {
  return !(sum <= LARGEST_MINOR);
}

/** A ticket's total, which its coupons share or must add up to. */
export function ticketTotal(baseFare: Minor, taxes: Minor): Minor {
  return baseFare + taxes;
}

/**
 * The sum of a ticket's coupon values: what an involuntary cancel refunds when every coupon is still
 * open (refund-calculator.ts), and the most a changed flight's coupons share (coupon-reassignment.ts).
 * It never throws, so that a reader can compare it with the ticket's total even when it is too large.
 */
export function couponTotal(coupons: readonly Coupon[]): Minor {
  let total = 0;
  for (let index = 0; index < coupons.length; index += 1) total += coupons[index]!.value;
  return total;
}

/** Which sum passes LARGEST_MINOR first, and where, as an index path from the order (or, for a booking alone, from the booking). */
export interface UnsafeSum {
  /**
   * `ticket`: baseFare + taxes. `coupons`: a ticket's coupon values (its largest refund).
   * `booking`: the coupon values of a booking's tickets, the largest refund of the booking (RefundAmount,
   * the refund quote of the events and the console). `order`: the same over all of the order's bookings.
   */
  sum: 'ticket' | 'coupons' | 'booking' | 'order';
  path: (string | number)[];
}

function atTicket(sum: UnsafeSum['sum'], passenger: number): UnsafeSum {
  const path = sum === 'coupons' ? ['passengers', passenger, 'ticket', 'coupons'] : ['passengers', passenger, 'ticket'];
  return { sum, path };
}

/**
 * The sums the service takes over one booking, checked in the order they build on one another:
 * the booking's largest refund (every coupon open), or where a sum passes LARGEST_MINOR. Amounts read
 * by an import are non-negative integers within the bound, less than half of 2^53, so each partial
 * sum is exact at least until one step past the bound, and a sum past it never rounds back below it
 * (a stored order may hold larger values): comparing each partial sum is enough. No allocation unless one passes.
 */
export function bookingSum(booking: Booking): Minor | UnsafeSum {
  let total = 0;
  const passengers = booking.passengers;
  for (let index = 0; index < passengers.length; index += 1) {
    const ticket = passengers[index]!.ticket;
    if (!ticket) continue;
    if (past(ticketTotal(ticket.baseFare, ticket.taxes))) return atTicket('ticket', index);
    const coupons = couponTotal(ticket.coupons);
    if (past(coupons)) return atTicket('coupons', index);
    total += coupons;
    if (past(total)) return atTicket('booking', index);
  }
  return total;
}

/**
 * Every sum the service takes over an order's amounts (per ticket, per booking, and the order's
 * total), or the first that passes LARGEST_MINOR. No figure adds up a whole order yet; the order's
 * total is bounded all the same, which costs real orders nothing and keeps such a figure exact.
 */
export function unsafeOrderSum(order: Order): UnsafeSum | null {
  let total = 0;
  for (let index = 0; index < order.bookings.length; index += 1) {
    const sum = bookingSum(order.bookings[index]!);
    if (typeof sum !== 'number') return { ...sum, path: ['bookings', index, ...sum.path] };
    total += sum;
    if (past(total)) return { sum: 'order', path: ['bookings', index] };
  }
  return null;
}

/** What is wrong, in the words of an import error, to follow the field path of `unsafe`. */
export function unsafeSumProblem(unsafe: UnsafeSum, currency: string): string {
  const limit = `more than ${formatAmount(LARGEST_MINOR, currency)} ${currency} (${LARGEST_MINOR} minor units), the largest sum the service keeps exact`;
  switch (unsafe.sum) {
    case 'ticket':
      return `has baseFare + taxes of ${limit}`;
    case 'coupons':
      return `values add up to ${limit}`;
    case 'booking':
      return `brings the tickets of its booking to ${limit}`;
    case 'order':
      return `brings the tickets of the order to ${limit}`;
  }
}
