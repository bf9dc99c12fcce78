import type { DemoSummary } from '../demo/demo-setup.js';

type DemoExample = keyof DemoSummary['examples'];

/**
 * The Postman environment's variables for the demo bookings, per operation, and which demo booking
 * fills them. docs/postman (scripts/postman-collection.ts) puts them in the request bodies;
 * `serve --demo` prints them as a `newman run` line. AirOrderRetrieve reads the booking that
 * AirOrderInvoluntaryCancel refunded, so a run in order shows the refund.
 */
export const DEMO_VARIABLES: Record<string, { orderId: string; reference: string; example: DemoExample }> = {
  AirOrderCancel: { orderId: 'cancelOrderId', reference: 'cancelReference', example: 'cancel' },
  AirOrderInvoluntaryAccept: { orderId: 'acceptOrderId', reference: 'acceptReference', example: 'involuntaryAccept' },
  AirOrderInvoluntaryCancel: { orderId: 'refundOrderId', reference: 'refundReference', example: 'involuntaryCancel' },
  AirOrderRefundQuote: { orderId: 'voluntaryOrderId', reference: 'voluntaryReference', example: 'voluntaryRefund' },
  AirOrderRefund: { orderId: 'voluntaryOrderId', reference: 'voluntaryReference', example: 'voluntaryRefund' },
  AirOrderRetrieve: { orderId: 'refundOrderId', reference: 'refundReference', example: 'involuntaryCancel' },
};

/** The variables' values for a demo: name → value, each variable once. */
export function demoVariableValues(demo: DemoSummary): Map<string, string> {
  const values = new Map<string, string>();
  for (const names of Object.values(DEMO_VARIABLES)) {
    const booking = demo.examples[names.example];
    if (!booking) continue;
    values.set(names.orderId, booking.orderId);
    values.set(names.reference, booking.gdsBookingReference);
  }
  return values;
}
