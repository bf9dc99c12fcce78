import type { Minor } from './money.js';

export type BookingStatus = 'CONFIRMED' | 'CANCELED';
/** Why a booking was cancelled: by the agency on its own (voluntary) or because of an airline change. */
export type Cancellation = 'VOLUNTARY' | 'INVOLUNTARY';
export type PassengerType = 'ADT' | 'CHD' | 'INF';
export type CouponStatus = 'OPEN' | 'USED' | 'REFUNDED' | 'VOIDED';
export type ChangeKind = 'SCHEDULE_CHANGE' | 'FLIGHT_CANCELLATION' | 'ROUTING_CHANGE';
export type ChangeStatus = 'PENDING' | 'ACCEPTED' | 'CANCELED' | 'CLOSED';
/** FULL: nothing flown; PARTIAL: some coupon flown (involuntary only); VOID: voided within the void window. */
export type QuoteType = 'FULL' | 'PARTIAL' | 'VOID';
/** What happens to a pending change when its deadline passes without the agency acting. */
export type Consequence = 'ACCEPT' | 'CANCEL';

export const PASSENGER_TYPES: readonly PassengerType[] = ['ADT', 'CHD', 'INF'];
/** What an imported document may say: VOIDED is only ever the result of a void here. */
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

/** One tax of a ticket. `refundable` absent: the carrier publishes no flag, and the code decides (refundable-taxes.ts). */
export interface TaxLine {
  code: string;
  amount: Minor;
  refundable?: boolean;
}

/**
 * What the fare allows on a voluntary refund. The penalty is an amount, or a percentage of the base
 * fare in hundredths of a percent (3500 is 35 %, 1250 is 12.5 %), so that it is computed in integers.
 */
export interface FareRules {
  refundable: boolean;
  penalty?: Minor;
  penaltyBasisPoints?: number;
}

export interface Ticket {
  ticketNumber: string;
  baseFare: Minor;
  taxes: Minor;
  coupons: Coupon[];
  /** When the ticket was issued (ISO 8601); needed to void it. Absent in orders loaded without it. */
  issuedAt?: string;
  /** The taxes code by code, adding up to `taxes`; absent: one tax, taken as refundable. */
  taxBreakdown?: TaxLine[];
  /** Absent: the ticket can be voided but not refunded voluntarily (NO_FARE_RULES). */
  fareRules?: FareRules;
}

export interface Passenger {
  passengerId: string;
  type: PassengerType;
  givenName: string;
  surname: string;
  ticket: Ticket | null;
  /** Set when the passenger left the booking by a voluntary refund (the quote confirmed); absent while travelling. */
  canceled?: { at: string; quoteId: string };
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
  /** A voluntary refund's breakdown (amount = fare + taxes - penalty) and the quote it confirmed; absent on involuntary ones. */
  breakdown?: RefundBreakdown;
  quoteId?: string;
}

/** What a voluntary refund counts, per ticket: `fare` + `taxes` - `penalty` is its amount. */
export interface RefundBreakdown {
  fare: Minor;
  taxes: Minor;
  penalty: Minor;
  /** Each tax with whether it is given back; empty for a ticket without a breakdown. */
  taxLines: { code: string; amount: Minor; refundable: boolean }[];
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
