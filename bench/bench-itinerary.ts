/**
 * The benchmarks' itinerary: Frankfurt to New York and back, on a day of the month set by the
 * order's index. The same in the import documents (bench-orders.ts) and in the order records
 * (order-record-data.ts), so that both measure the same orders.
 */
import type { Segment } from '../src/domain/order.js';

/** The day of the month (01 to 28) of order `index`'s flights. */
function benchDay(index: number): string {
  return String(1 + (index % 28)).padStart(2, '0');
}

export function roundTrip(index: number): Segment[] {
  const day = benchDay(index);
  return [
    {
      segmentId: 'S1',
      carrier: 'LH',
      flightNumber: '400',
      origin: 'FRA',
      destination: 'JFK',
      departure: `2027-01-${day}T10:00:00Z`,
      arrival: `2027-01-${day}T18:55:00Z`,
    },
    {
      segmentId: 'S2',
      carrier: 'LH',
      flightNumber: '401',
      origin: 'JFK',
      destination: 'FRA',
      departure: `2027-02-${day}T20:00:00Z`,
      arrival: `2027-02-${day}T23:55:00Z`,
    },
  ];
}

/** The first leg retimed by the airline: the replacement segment of the benchmarks' schedule changes. */
export function retimedFirstLeg(index: number): Segment {
  const day = benchDay(index);
  return {
    segmentId: 'S1B',
    carrier: 'LH',
    flightNumber: '402',
    origin: 'FRA',
    destination: 'JFK',
    departure: `2027-01-${day}T14:00:00Z`,
    arrival: `2027-01-${day}T22:55:00Z`,
  };
}
