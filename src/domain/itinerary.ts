import type { Coupon, Segment } from './order.js';

/** Removes and adds segments; the result is ordered by departure (stable for equal times). */
export function changeItinerary(
  segments: readonly Segment[],
  removed: ReadonlySet<string>,
  added: readonly Segment[],
): Segment[] {
  return sortByDeparture([...segments.filter((segment) => !removed.has(segment.segmentId)), ...added]);
}

export function sortByDeparture(segments: Segment[]): Segment[] {
  // Array.prototype.sort is stable (ECMAScript 2019): equal departures keep their order.
  return segments
    .map((segment) => ({ segment, at: Date.parse(segment.departure) }))
    .sort((a, b) => a.at - b.at)
    .map(({ segment }) => segment);
}

/** Coupons follow the itinerary's order, so that documents read like the journey. */
export function orderCoupons(coupons: readonly Coupon[], segments: readonly Segment[]): Coupon[] {
  const position = new Map(segments.map((segment, index) => [segment.segmentId, index]));
  return [...coupons].sort((a, b) => (position.get(a.segmentId) ?? Infinity) - (position.get(b.segmentId) ?? Infinity));
}
