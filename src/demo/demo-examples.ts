/** An order's booking, named as an agency's request names it. */
export interface BookingExample {
  orderId: string;
  gdsBookingReference: string;
}

/** The demo's bookings that `serve --demo` prints a ready-to-paste call for, each null when none fits. */
export interface DemoExamples {
  /** A booking the airline did not change: AirOrderCancel. */
  cancel: BookingExample | null;
  /** A change that adds segments: AirOrderInvoluntaryAccept. */
  involuntaryAccept: BookingExample | null;
  /** Another change: AirOrderInvoluntaryCancel. */
  involuntaryCancel: BookingExample | null;
  /** A booking without airline change whose every ticket can be refunded by AirOrderRefundQuote and AirOrderRefund. */
  voluntaryRefund: BookingExample | null;
}

/** The parts of the demo's order and change documents that the choice reads. */
export interface OrderShape {
  orderId: string;
  bookings: {
    gdsBookingReference: string;
    passengers: { ticket?: { fareRules?: unknown; coupons: { status: string }[] } }[];
  }[];
}
export interface ChangeShape {
  orderId: string;
  gdsBookingReference: string;
  addedSegments: unknown[];
}

/** Picks the examples from the demo's documents: the first that fits each, in the documents' order. */
export function demoExamples(orders: OrderShape[], changes: ChangeShape[]): DemoExamples {
  const changed = new Set(changes.map((change) => change.gdsBookingReference));
  const unchanged = orders.flatMap((order) =>
    order.bookings
      .filter((booking) => !changed.has(booking.gdsBookingReference))
      .map((booking) => ({ orderId: order.orderId, booking })),
  );
  // Every ticket unflown and with fare rules, so the refund succeeds; it may be the cancel example's
  // booking, which a voluntary refund after the cancel then refunds.
  const refundable = unchanged.find(({ booking }) =>
    booking.passengers.every(
      ({ ticket }) => ticket?.fareRules !== undefined && ticket.coupons.every((coupon) => coupon.status === 'OPEN'),
    ),
  );
  const accept = changes.find((change) => change.addedSegments.length > 0);
  const cancel = changes.find((change) => change !== accept);
  const ofBooking = (found: (typeof unchanged)[number] | undefined): BookingExample | null =>
    found ? { orderId: found.orderId, gdsBookingReference: found.booking.gdsBookingReference } : null;
  const ofChange = (found: ChangeShape | undefined): BookingExample | null =>
    found ? { orderId: found.orderId, gdsBookingReference: found.gdsBookingReference } : null;
  return {
    cancel: ofBooking(unchanged[0]),
    involuntaryAccept: ofChange(accept),
    involuntaryCancel: ofChange(cancel),
    voluntaryRefund: ofBooking(refundable),
  };
}
