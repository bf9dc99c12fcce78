import { readRecords } from '../documents/document-reader.js';
import { addAgency, issueToken } from '../service/agency-admin.js';
import { importChanges } from '../service/change-import.js';
import type { Clock } from '../runtime/clock.js';
import { importOrders } from '../service/order-import.js';
import { preparedHere } from '../service/order-preparation.js';
import type { Store } from '../store/store.js';
import { DEMO_AGENCY, demoData } from './demo-data.js';
import { demoExamples, type ChangeShape, type DemoExamples, type OrderShape } from './demo-examples.js';

export interface DemoSummary {
  agencyId: string;
  token: string;
  orders: number;
  pendingChanges: number;
  examples: DemoExamples;
}

/**
 * Creates the demo agency (once), a fresh token and N demo orders with their airline changes,
 * through the same import path as operator files. Running it again starts the demo afresh, however
 * the previous one was used (refunds included), and touches no other agency's data.
 */
export async function setUpDemo(store: Store, clock: Clock, count: number): Promise<DemoSummary> {
  if (!(await store.read.findAgency(DEMO_AGENCY.agencyId))) await addAgency(store, clock, { ...DEMO_AGENCY });
  const data = demoData(count, Date.parse(clock()));
  // Not `--upsert`: that refuses orders with refunds, rightly for the operator's own orders.
  await store.write((tx) => tx.removeDemoActivity(DEMO_AGENCY.agencyId));
  await importOrders(
    store,
    clock,
    preparedHere(
      data.orders.map((value, index) => ({ label: `demo order ${index + 1}`, value })),
      clock(),
    ),
    false,
  );
  await importChanges(store, clock, readRecords(JSON.stringify(data.changes)));
  const { token } = await issueToken(store, clock, DEMO_AGENCY.agencyId, null);

  const changes = data.changes as ChangeShape[];
  return {
    agencyId: DEMO_AGENCY.agencyId,
    token,
    orders: data.orders.length,
    pendingChanges: changes.length,
    examples: demoExamples(data.orders as OrderShape[], changes),
  };
}
