import type { Minor } from './money.js';

export type BookingStatus = 'CONFIRMED' | 'CANCELED';
/** Why a booking was cancelled: by the agency on its own (voluntary) or because of an airline change. */
export type Cancellation = 'VOLUNTARY' | 'INVOLUNTARY';
export type PassengerType = 'ADT' | 'CHD' | 'INF';
export type CouponStatus = 'OPEN' | 'USED' | 'REFUNDED';
export type ChangeKind = 'SCHEDULE_CHANGE' | 'FLIGHT_CANCELLATION' | 'ROUTING_CHANGE';
export type ChangeStatus = 'PENDING' | 'ACCEPTED' | 'CANCELED' | 'CLOSED';
export type QuoteType = 'FULL' | 'PARTIAL';
/** What happens to a pending change when its deadline passes without the agency acting. */
export type Consequence = 'ACCEPT' | 'CANCEL';

export const PASSENGER_TYPES: readonly PassengerType[] = ['ADT', 'CHD', 'INF'];
export const COUPON_STATUSES: readonly CouponStatus[] = ['OPEN', 'USED', 'REFUNDED'];
export const BOOKING_STATUSES: readonly BookingStatus[] = ['CONFIRMED', 'CANCELED'];
export const CHANGE_KINDS: readonly ChangeKind[] = ['SCHEDULE_CHANGE', 'FLIGHT_CANCELLATION', 'ROUTING_CHANGE'];
export const CONSEQUENCES: readonly Consequence[] = ['ACCEPT', 'CANCEL'];

export interface Segment {
  segmentId: string;
  carrier: string;
  flightNumber: string;
  origin: string;
  destination: string;
  departure: string;
  arrival: string;
}

export interface Coupon {
  segmentId: string;
  status: CouponStatus;
  value: Minor;
}

export interface Ticket {
  ticketNumber: string;
  baseFare: Minor;
  taxes: Minor;
  coupons: Coupon[];
}

export interface Passenger {
  passengerId: string;
  type: PassengerType;
  givenName: string;
  surname: string;
  ticket: Ticket | null;
}

export interface AirlineChange {
  changeId: string;
  kind: ChangeKind;
  detectedAt: string;
  removedSegments: string[];
  addedSegments: Segment[];
  status: ChangeStatus;
  /** When the airline applies `consequenceOfInaction` if the agency has not acted; null: no time limit. */
  actionDeadline: string | null;
  consequenceOfInaction: Consequence;
}

export interface Refund {
  ticketNumber: string;
  amount: Minor;
  quoteType: QuoteType;
  createdAt: string;
}

export interface Booking {
  reference: string;
  status: BookingStatus;
  cancellation: Cancellation | null;
  segments: Segment[];
  passengers: Passenger[];
  /** In detection order. */
  changes: AirlineChange[];
  /** In passenger order. */
  refunds: Refund[];
}

export interface Order {
  orderId: string;
  agencyId: string;
  currency: string;
  bookings: Booking[];
}
