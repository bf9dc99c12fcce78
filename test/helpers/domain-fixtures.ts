/** Plain domain objects (amounts in minor units) for unit tests of src/domain. */
import type {
  AirlineChange,
  Booking,
  Coupon,
  CouponStatus,
  Passenger,
  Segment,
  Ticket,
} from '../../src/domain/order.js';

export function seg(segmentId: string, departure = '2026-12-01T10:00:00Z'): Segment {
  return {
    segmentId,
    carrier: 'LH',
    flightNumber: '400',
    origin: 'FRA',
    destination: 'JFK',
    departure,
    arrival: departure,
  };
}

export function coupon(segmentId: string, value: number, status: CouponStatus = 'OPEN'): Coupon {
  return { segmentId, status, value };
}

export function ticket(ticketNumber: string, coupons: Coupon[]): Ticket {
  const total = coupons.reduce((sum, c) => sum + c.value, 0);
  return { ticketNumber, baseFare: total, taxes: 0, coupons };
}

export function pax(passengerId: string, tkt: Ticket | null): Passenger {
  return { passengerId, type: 'ADT', givenName: 'ADA', surname: 'LOVELACE', ticket: tkt };
}

export function pendingChange(
  changeId: string,
  removed: string[],
  added: Segment[],
  detectedAt = '2026-11-20T08:00:00Z',
): AirlineChange {
  return {
    changeId,
    kind: 'SCHEDULE_CHANGE',
    detectedAt,
    removedSegments: removed,
    addedSegments: added,
    status: 'PENDING',
    actionDeadline: null,
    consequenceOfInaction: added.length > 0 ? 'ACCEPT' : 'CANCEL',
  };
}

export function confirmedBooking(partial: Partial<Booking> = {}): Booking {
  return {
    reference: 'ABC123',
    status: 'CONFIRMED',
    cancellation: null,
    segments: [seg('S1')],
    passengers: [pax('P1', ticket('2201234567890', [coupon('S1', 57050)]))],
    changes: [],
    refunds: [],
    ...partial,
  };
}

/** Deep copy, to prove a function did not mutate its input. */
export function snapshot<T>(value: T): T {
  return structuredClone(value);
}
