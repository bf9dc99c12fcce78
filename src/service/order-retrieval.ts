import { failed, unchanged } from '../domain/booking-outcome.js';
import { dueChanges } from '../domain/deadline-consequence.js';
import type { Order } from '../domain/order.js';
import { itemErrors } from '../errors/item-error.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../runtime/clock.js';
import { applyDueActionDeadlines } from './deadline-consequences.js';
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
export async function retrieveOrder(
  store: Store,
  clock: Clock,
  request: RetrievalRequest,
): Promise<RetrievedOrder | null> {
  const read = () => store.snapshot((tx) => tx.loadOrder(request.orderId, request.agencyId));
  let order = await read();
  if (!order) return null;
  // A deadline that has passed is applied before the order is shown, as a change would apply it:
  // what the agency reads never depends on whether the scheduler got there first.
  const now = clock();
  if (
    order.bookings.some(
      (booking) => request.references.includes(booking.reference) && dueChanges(booking, now).length > 0,
    )
  ) {
    await applyDueActionDeadlines(store, clock, request.orderId, request.references);
    order = await read();
    if (!order) return null;
  }
  const items = request.references.map((reference): ItemResult => {
    const booking = order.bookings.find((candidate) => candidate.reference === reference);
    return {
      reference,
      outcome: booking ? unchanged(booking) : failed(itemErrors.bookingNotFound(reference, order.orderId)),
    };
  });
  return { order, items };
}
