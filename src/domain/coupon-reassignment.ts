import { splitEvenly, sumMinor } from './money.js';
import type { Coupon, Segment, Ticket } from './order.js';

/**
 * Moves a ticket's coupons from the segments an airline removed to the ones it added. When the
 * counts match, one to one in the change's order: the coupon of `removed[i]` goes to `added[i]`,
 * with its value and status, whatever order the ticket lists its coupons in. Otherwise the value is
 * split evenly across the added segments in minor units, remainder to the first (`splitValue`).
 * A ticket with no coupon on the removed segments is left alone: there is no value to move.
 */
export function reassignCoupons(ticket: Ticket, removed: readonly string[], added: readonly Segment[]): Ticket {
  const moved = removed.flatMap((segmentId) => ticket.coupons.filter((coupon) => coupon.segmentId === segmentId));
  if (moved.length === 0) return ticket;
  const removedIds = new Set(removed);
  const kept = ticket.coupons.filter((coupon) => !removedIds.has(coupon.segmentId));
  const replacements: Coupon[] =
    moved.length === added.length
      ? moved.map((coupon, index) => ({ ...coupon, segmentId: added[index]!.segmentId }))
      : splitValue(moved, added);
  return { ...ticket, coupons: [...kept, ...replacements] };
}

/**
 * The new coupons when the counts differ. Value already refunded is never made refundable again:
 * the open coupons' value is split into open coupons, and what was refunded is not carried. Only
 * when none of the moved coupons is open do the new ones share the moved value, in their status.
 */
function splitValue(moved: readonly Coupon[], added: readonly Segment[]): Coupon[] {
  const open = moved.filter((coupon) => coupon.status === 'OPEN');
  const source = open.length > 0 ? open : moved;
  const status = source[0]!.status;
  return splitEvenly(sumMinor(source.map((coupon) => coupon.value)), added.length).map((value, index) => ({
    segmentId: added[index]!.segmentId,
    status,
    value,
  }));
}
