import { loadConfig } from '../../src/config.js';
import { readRecords } from '../../src/documents/document-reader.js';
import { addAgency } from '../../src/service/agency-admin.js';
import { importOrders } from '../../src/service/order-import.js';
import { preparedHere } from '../../src/service/order-preparation.js';
import { migrateDown, migrateToLatest } from '../../src/store/migrator.js';
import { openStore } from '../../src/store/open-store.js';
import { simpleOrder } from './documents.js';
import { TEST_DATABASE_ENV } from './test-database.js';

/**
 * Makes the database at URL one of the schema before orders were kept as records (migration 011
 * rolled back), holding one order (ORD-1 of agency AG1): what an upgrade copies, with its progress.
 */
export async function formerDatabase(url: string): Promise<void> {
  const store = openStore(loadConfig(TEST_DATABASE_ENV, { DATABASE_URL: url }));
  try {
    await migrateToLatest(store);
    const now = () => '2026-11-27T08:00:00.000Z';
    await addAgency(store, now, { agencyId: 'AG1', name: 'One', iataNumber: null, email: null });
    const orders = readRecords(JSON.stringify([simpleOrder('ORD-1', 'AG1', 'REF001')]));
    await importOrders(store, now, preparedHere(orders, now()), false);
    while (!(await migrateDown(store)).some((name) => name.includes('011'))) {
      // down to the former schema, one migration at a time
    }
  } finally {
    await store.close();
  }
}
