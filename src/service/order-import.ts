import { DocumentError } from '../documents/document-error.js';
import type { Actor, AuditEvent } from '../store/repositories/audit-repository.js';
import type { Repositories, Store } from '../store/store.js';
import type { Clock } from '../runtime/clock.js';
import type { PreparedOrder } from './order-preparation.js';

export interface ImportSummary {
  imported: number;
  replaced: number;
}

export const OPERATOR_IMPORT: Actor = {
  actor: 'operator',
  agencyId: null,
  tokenId: null,
  requestId: null,
  operation: 'orders import',
};

/**
 * Imports order documents, all or nothing: batches of checked documents (`preparedHere`, or
 * `preparedInThread` for a file) are written inside one transaction, so a file of any size takes
 * constant memory and the first bad record rolls back everything. An existing orderId is an error
 * unless `upsert`, which replaces the order whole. The audit trail names `actor`: the CLI's import,
 * or the console's with the operator's email; `record` writes what else the caller keeps of the
 * import (the console's journal row) in the same transaction.
 */
export async function importOrders(
  store: Store,
  clock: Clock,
  batches: AsyncIterable<PreparedOrder[]>,
  upsert: boolean,
  onProgress: (imported: number) => void = () => {},
  actor: Actor = OPERATOR_IMPORT,
  record: (tx: Repositories, summary: ImportSummary) => Promise<void> = async () => {},
): Promise<ImportSummary> {
  return store.write(
    async (tx) => {
      const now = clock();
      const summary: ImportSummary = { imported: 0, replaced: 0 };
      const knownAgencies = new Set<string>();
      for await (const batch of batches) {
        await writeBatch(tx, batch, upsert, now, knownAgencies, summary, actor);
        onProgress(summary.imported);
      }
      onProgress(summary.imported);
      await record(tx, summary);
      return summary;
    },
    { large: true },
  );
}

async function writeBatch(
  tx: Repositories,
  batch: PreparedOrder[],
  upsert: boolean,
  now: string,
  knownAgencies: Set<string>,
  summary: ImportSummary,
  actor: Actor,
): Promise<void> {
  if (batch.length === 0) return;
  for (const order of batch) {
    if (knownAgencies.has(order.agencyId)) continue;
    if (!(await tx.findAgency(order.agencyId))) {
      throw new DocumentError(
        order.label,
        'agencyId',
        `names no agency: ${order.agencyId} (create it with: airorder agency add --agency-id ${order.agencyId} --name NAME)`,
        order.orderId,
      );
    }
    knownAgencies.add(order.agencyId);
  }

  const seenInBatch = new Map<string, string>();
  for (const { label, orderId } of batch) {
    const first = seenInBatch.get(orderId);
    if (first) throw new DocumentError(label, 'orderId', `repeats ${orderId} of ${first}`, orderId);
    seenInBatch.set(orderId, label);
  }
  const ids = batch.map((order) => order.orderId);
  // Orders to replace are locked first: a request refunding one of them meanwhile is waited for,
  // and the refund check below sees its refund.
  await tx.lockOrders(ids);
  const stored = await tx.storedOrderVersions(ids);
  const existing = new Map([...stored].map(([orderId, row]) => [orderId, row.createdAt]));
  const versions = new Map([...stored].map(([orderId, row]) => [orderId, row.version]));
  for (const { label, orderId } of batch) {
    const createdAt = existing.get(orderId);
    if (createdAt === undefined) continue;
    // Written by this very import (same transaction, same time): an earlier record of the file.
    if (createdAt === now)
      throw new DocumentError(label, 'orderId', `repeats ${orderId} of an earlier record`, orderId);
    if (!upsert)
      throw new DocumentError(label, 'orderId', `${orderId} exists already (use --upsert to replace it)`, orderId);
  }
  if (existing.size > 0) {
    const replaced = [...existing.keys()];
    // Replacing an order erases its refunds with it: its tickets could then be refunded again.
    const refunded = await tx.refundedOrders(replaced);
    const first = batch.find((order) => refunded.has(order.orderId));
    if (first) {
      throw new DocumentError(
        first.label,
        'orderId',
        `${first.orderId} has refunds: replacing it would erase them and let its tickets be refunded again`,
        first.orderId,
      );
    }
    // Bookings, changes and refunds go with the order.
    await tx.deleteOrders(replaced);
    summary.replaced += replaced.length;
  }
  const events: AuditEvent[] = batch.map((order) => ({
    orderId: order.orderId,
    reference: null,
    event: existing.has(order.orderId) ? 'ORDER_REPLACED' : 'ORDER_IMPORTED',
    detail: { agencyId: order.agencyId, currency: order.currency, bookings: order.references },
  }));
  // Each order's row of the audit log goes into its record's trail; a replaced order's trail goes on.
  const keys = await tx.appendAuditEvents(actor, events, now);
  const trails = new Map(
    batch.map((order) => [order.orderId, [...(stored.get(order.orderId)?.trail ?? []), keys.get(order.orderId)!]]),
  );
  await tx.insertOrders(batch, now, versions, trails);
  summary.imported += batch.length;
}
