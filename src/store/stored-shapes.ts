import type { BookingStatus, Cancellation, Order } from '../domain/order.js';
import type { BookingQuote } from '../domain/voluntary-quote.js';

// What the service hands the store to write, and the keys it reads back by: plain data, no SQL.

export interface BookingKey {
  orderId: string;
  reference: string;
}

export function bookingKey(key: BookingKey): string {
  return `${key.orderId}\u0000${key.reference}`;
}

/**
 * A booking as `insertOrders` writes it: its itinerary and passengers already serialised, the
 * costly part of writing it, so that an import can do that on the thread that prepares documents.
 */
export interface BookingToStore {
  reference: string;
  status: BookingStatus;
  cancellation: Cancellation | null;
  segmentsJson: string;
  passengersJson: string;
}

export function bookingsToStore(order: Order): BookingToStore[] {
  return order.bookings.map((booking) => ({
    reference: booking.reference,
    status: booking.status,
    cancellation: booking.cancellation,
    segmentsJson: JSON.stringify(booking.segments),
    passengersJson: JSON.stringify(booking.passengers),
  }));
}

/**
 * A refund quote as it is kept (migration 014): per booking, what the quote promises and the
 * fingerprint of the booking as it stood, which AirOrderRefund compares with the booking as it is.
 */
export interface StoredRefundQuote {
  quoteId: string;
  agencyId: string;
  orderId: string;
  createdAt: string;
  /** The latest of its parts' expiries. */
  expiresAt: string;
  parts: (BookingQuote & { fingerprint: string })[];
}
