import { splitEvenly, sumMinor } from './money.js';
import type { Coupon, Segment, Ticket } from './order.js';

/**
 * Moves a ticket's coupons from the segments an airline removed to the ones it added: one to one,
 * in order, when the counts match; otherwise the removed coupons' total value is split evenly
 * across the added segments in minor units, remainder to the first. Value is conserved exactly.
 * A ticket with no coupon on the removed segments is left alone: there is no value to move.
 */
export function reassignCoupons(ticket: Ticket, removed: ReadonlySet<string>, added: readonly Segment[]): Ticket {
  const moved = ticket.coupons.filter((coupon) => removed.has(coupon.segmentId));
  if (moved.length === 0) return ticket;
  const kept = ticket.coupons.filter((coupon) => !removed.has(coupon.segmentId));
  const replacements: Coupon[] = moved.length === added.length
    ? moved.map((coupon, index) => ({ ...coupon, segmentId: added[index]!.segmentId }))
    : splitEvenly(sumMinor(moved.map((coupon) => coupon.value)), added.length).map((value, index) => ({
      segmentId: added[index]!.segmentId,
      status: 'OPEN',
      value,
    }));
  return { ...ticket, coupons: [...kept, ...replacements] };
}
