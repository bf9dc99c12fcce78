import type { RawRecord } from '../documents/document-reader.js';
import { readEach } from '../documents/document-reader.js';
import { readOrderDocument } from '../documents/order-document.js';
import { bookingsToStore, type BookingToStore } from '../store/stored-shapes.js';

/**
 * An order document checked and turned into the values its rows are written with: everything an
 * import does before it touches the store. Plain data, so that it can be made on another thread.
 */
export interface PreparedOrder {
  /** How errors name the record (`line 7`, `record 3`). */
  label: string;
  orderId: string;
  agencyId: string;
  currency: string;
  references: string[];
  bookings: BookingToStore[];
}

/** How many orders are written at a time (one multi-row statement per table). */
export const IMPORT_BATCH = 500;

/** `importedAt`: when the import began, by the service's clock (an ISO instant). */
export function prepareOrder(record: RawRecord, importedAt: string): PreparedOrder {
  const importTime = Date.parse(importedAt);
  const [order] = readEach([record], (value) => readOrderDocument(value, importTime));
  return {
    label: record.label,
    orderId: order!.orderId,
    agencyId: order!.agencyId,
    currency: order!.currency,
    references: order!.bookings.map((booking) => booking.reference),
    bookings: bookingsToStore(order!),
  };
}

/** Records prepared on this thread, in batches: for imports small enough not to need another. */
export async function* preparedHere(
  records: Iterable<RawRecord> | AsyncIterable<RawRecord>,
  importedAt: string,
): AsyncGenerator<PreparedOrder[]> {
  let batch: PreparedOrder[] = [];
  for await (const record of records) {
    batch.push(prepareOrder(record, importedAt));
    if (batch.length >= IMPORT_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
