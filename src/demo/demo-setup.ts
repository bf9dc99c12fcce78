import { readRecords } from '../documents/document-reader.js';
import { addAgency, issueToken } from '../service/agency-admin.js';
import { importChanges } from '../service/change-import.js';
import type { Clock } from '../runtime/clock.js';
import { importOrders } from '../service/order-import.js';
import { preparedHere } from '../service/order-preparation.js';
import type { Store } from '../store/store.js';
import { DEMO_AGENCY, demoData } from './demo-data.js';

export interface DemoSummary {
  agencyId: string;
  token: string;
  orders: number;
  pendingChanges: number;
  examples: {
    cancel: { orderId: string; gdsBookingReference: string } | null;
    involuntaryAccept: { orderId: string; gdsBookingReference: string } | null;
    involuntaryCancel: { orderId: string; gdsBookingReference: string } | null;
    /** A booking without airline change whose every ticket can be refunded by AirOrderRefundQuote and AirOrderRefund. */
    voluntaryRefund: { orderId: string; gdsBookingReference: string } | null;
  };
}

type DocumentShape = { orderId: string; gdsBookingReference: string; kind: string; addedSegments: unknown[] };
type TicketShape = { fareRules?: unknown; coupons: { status: string }[] } | undefined;
type BookingShape = { gdsBookingReference: string; passengers: { ticket?: TicketShape }[] };

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

  const changes = data.changes as DocumentShape[];
  const changed = new Set(changes.map((change) => change.gdsBookingReference));
  const unchanged = (data.orders as { orderId: string; bookings: BookingShape[] }[])
    .flatMap((order) => order.bookings.map((booking) => ({ orderId: order.orderId, booking })))
    .filter(({ booking }) => !changed.has(booking.gdsBookingReference));
  const example = (found: { orderId: string; booking: BookingShape } | undefined) =>
    found ? { orderId: found.orderId, gdsBookingReference: found.booking.gdsBookingReference } : null;
  const quiet = example(unchanged[0]);
  // Every ticket unflown and with fare rules, so the refund succeeds; it may be the cancel example's booking,
  // which a voluntary refund after the cancel then refunds.
  const refundable = example(
    unchanged.find(({ booking }) =>
      booking.passengers.every(
        ({ ticket }) => ticket?.fareRules !== undefined && ticket.coupons.every((coupon) => coupon.status === 'OPEN'),
      ),
    ),
  );
  const accept = changes.find((change) => change.addedSegments.length > 0);
  const cancel = changes.find((change) => change !== accept) ?? null;
  const pick = (change: DocumentShape | null | undefined) =>
    change ? { orderId: change.orderId, gdsBookingReference: change.gdsBookingReference } : null;
  return {
    agencyId: DEMO_AGENCY.agencyId,
    token,
    orders: data.orders.length,
    pendingChanges: changes.length,
    examples: {
      cancel: quiet,
      involuntaryAccept: pick(accept),
      involuntaryCancel: pick(cancel),
      voluntaryRefund: refundable,
    },
  };
}
