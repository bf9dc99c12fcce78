import { failed, unchanged } from '../domain/booking-outcome.js';
import type { Order } from '../domain/order.js';
import { loadOrder } from '../store/repositories/orders-repository.js';
import type { Store } from '../store/store.js';
import type { ItemResult } from './order-operations.js';

export interface RetrievalRequest {
  agencyId: string;
  orderId: string;
  /** Normalised booking references: the bookings to show, in this order. */
  references: readonly string[];
}

export interface RetrievedOrder {
  order: Order;
  /** One per requested reference: the booking as stored, or BOOKING_NOT_FOUND. */
  items: ItemResult[];
}

/**
 * Reads an order of the agency and the requested bookings, changing nothing (no lock, no audit
 * event). One read-only transaction, so that the bookings, their changes and their refunds are read
 * at one instant. Another agency's order is null, exactly like a missing one.
 */
export async function retrieveOrder(store: Store, request: RetrievalRequest): Promise<RetrievedOrder | null> {
  const order = await store.reader.transaction().setIsolationLevel('repeatable read').setAccessMode('read only')
    .execute((tx) => loadOrder(tx, request.orderId, request.agencyId));
  if (!order) return null;
  const items = request.references.map((reference): ItemResult => {
    const booking = order.bookings.find((candidate) => candidate.reference === reference);
    return {
      reference,
      outcome: booking ? unchanged(booking) : failed('BOOKING_NOT_FOUND', `Booking ${reference} is not part of order ${order.orderId}.`),
    };
  });
  return { order, items };
}
