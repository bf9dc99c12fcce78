import { DocumentError } from '../documents/document-error.js';
import { readEach, type RawRecord } from '../documents/document-reader.js';
import { readOrderDocument } from '../documents/order-document.js';
import type { Order } from '../domain/order.js';
import { findAgency } from '../store/repositories/agencies-repository.js';
import { appendAuditEvents, type Actor } from '../store/repositories/audit-repository.js';
import { deleteOrder, insertOrder, orderExists } from '../store/repositories/orders-repository.js';
import type { Store } from '../store/store.js';
import type { Clock } from './clock.js';

export interface ImportSummary {
  imported: number;
  replaced: number;
}

const OPERATOR_IMPORT: Actor = { actor: 'operator', agencyId: null, tokenId: null, requestId: null, operation: 'orders import' };

/**
 * Imports order documents, all or nothing: every record is checked first, then all are written in
 * one transaction. An existing orderId is an error unless `upsert`, which replaces the order whole.
 */
export async function importOrders(store: Store, clock: Clock, records: RawRecord[], upsert: boolean): Promise<ImportSummary> {
  const orders: Order[] = readEach(records, readOrderDocument);
  const seen = new Map<string, string>();
  orders.forEach((order, index) => {
    const label = records[index]!.label;
    const first = seen.get(order.orderId);
    if (first) throw new DocumentError(label, 'orderId', `repeats ${order.orderId} of ${first}`);
    seen.set(order.orderId, label);
  });

  return store.transaction(async (tx) => {
    const now = clock();
    let replaced = 0;
    const knownAgencies = new Set<string>();
    for (const [index, order] of orders.entries()) {
      const label = records[index]!.label;
      if (!knownAgencies.has(order.agencyId)) {
        if (!await findAgency(tx, order.agencyId)) {
          throw new DocumentError(label, 'agencyId', `names no agency: ${order.agencyId} (create it with: airorder agency add --agency-id ${order.agencyId} --name NAME)`);
        }
        knownAgencies.add(order.agencyId);
      }
      const exists = await orderExists(tx, order.orderId);
      if (exists) {
        if (!upsert) throw new DocumentError(label, 'orderId', `${order.orderId} exists already (use --upsert to replace it)`);
        await deleteOrder(tx, order.orderId);
        replaced += 1;
      }
      await insertOrder(tx, order, now);
      await appendAuditEvents(tx, OPERATOR_IMPORT, [{
        orderId: order.orderId,
        reference: null,
        event: exists ? 'ORDER_REPLACED' : 'ORDER_IMPORTED',
        detail: { agencyId: order.agencyId, currency: order.currency, bookings: order.bookings.map((booking) => booking.reference) },
      }], now);
    }
    return { imported: orders.length, replaced };
  });
}

