import { acceptChanges } from '../domain/accept-changes.js';
import { failed, type BookingOutcome } from '../domain/booking-outcome.js';
import { cancelBooking } from '../domain/cancel-booking.js';
import { involuntaryCancel } from '../domain/involuntary-cancel.js';
import type { Booking, Order } from '../domain/order.js';
import { loadOrder, saveBooking } from '../store/repositories/orders-repository.js';
import type { Store } from '../store/store.js';
import type { Clock } from './clock.js';

export type OperationName = 'cancel' | 'involuntaryAccept' | 'involuntaryCancel';

const RULES: Record<OperationName, (booking: Booking, now: string) => BookingOutcome> = {
  cancel: (booking) => cancelBooking(booking),
  involuntaryAccept: (booking) => acceptChanges(booking),
  involuntaryCancel: (booking, now) => involuntaryCancel(booking, now),
};

export interface ItemResult {
  reference: string;
  outcome: BookingOutcome;
}

export interface OperationResult {
  orderId: string;
  currency: string;
  items: ItemResult[];
}

/**
 * Applies one operation to each requested booking of an order, in one transaction under the order's
 * lock. Failed items change nothing, so committing the transaction commits exactly what succeeded.
 * Returns null when the agency has no such order.
 */
export async function runOperation(
  store: Store, clock: Clock, operation: OperationName,
  agencyId: string, orderId: string, references: readonly string[],
): Promise<OperationResult | null> {
  return store.transaction(async (tx) => {
    await store.lockOrder(tx, orderId);
    const order: Order | null = await loadOrder(tx, orderId, agencyId);
    if (!order) return null;
    const now = clock();
    const items: ItemResult[] = [];
    for (const reference of references) {
      const booking = order.bookings.find((candidate) => candidate.reference === reference);
      if (!booking) {
        items.push({ reference, outcome: failed('BOOKING_NOT_FOUND', `Booking ${reference} is not part of order ${orderId}.`) });
        continue;
      }
      const outcome = RULES[operation](booking, now);
      if (outcome.ok && outcome.changed) await saveBooking(tx, order, booking, outcome.booking, now);
      items.push({ reference, outcome });
    }
    return { orderId: order.orderId, currency: order.currency, items };
  });
}
