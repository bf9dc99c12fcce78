/** Builders of order and airline-change documents for tests, in the shapes of docs/contract.md §11. */

export interface SegmentDoc {
  segmentId: string;
  carrier: string;
  flightNumber: string;
  origin: string;
  destination: string;
  departure: string;
  arrival: string;
}

export function segment(segmentId: string, day = 1, hour = 10, route: [string, string] = ['FRA', 'JFK']): SegmentDoc {
  const dd = String(day).padStart(2, '0');
  const hh = String(hour).padStart(2, '0');
  const ah = String(Math.min(hour + 2, 23)).padStart(2, '0');
  return {
    segmentId,
    carrier: 'LH',
    flightNumber: '400',
    origin: route[0],
    destination: route[1],
    departure: `2026-12-${dd}T${hh}:00:00Z`,
    arrival: `2026-12-${dd}T${ah}:00:00Z`,
  };
}

export interface TicketDoc {
  ticketNumber: string;
  baseFare: string;
  taxes: string;
  coupons: { segmentId: string; status?: string; value?: string }[];
  issuedAt?: string;
  taxBreakdown?: { code: string; amount: string; refundable?: boolean }[];
  fareRules?: { refundable: boolean; penalty?: string; penaltyPercent?: string | number };
}

export function passenger(passengerId: string, ticket: TicketDoc | null, type = 'ADT') {
  return { passengerId, type, givenName: 'ADA', surname: 'LOVELACE', ...(ticket ? { ticket } : {}) };
}

export function booking(
  gdsBookingReference: string,
  segments: SegmentDoc[],
  passengers: object[],
  status = 'CONFIRMED',
) {
  return { gdsBookingReference, status, segments, passengers };
}

/**
 * A family's booking over two segments (S1 on day 1, flown on the adult's ticket; S2 on day 8):
 * an adult and a child, each with a ticket of 120.10 + 30.00, and an infant without one.
 */
export function familyBooking(reference: string, [adultTicket, childTicket]: [string, string]) {
  const coupons = (firstFlown: boolean) => [
    { segmentId: 'S1', ...(firstFlown ? { status: 'USED' } : {}), value: '75.05' },
    { segmentId: 'S2', value: '75.05' },
  ];
  return booking(
    reference,
    [segment('S1', 1), segment('S2', 8)],
    [
      passenger('P1', { ticketNumber: adultTicket, baseFare: '120.10', taxes: '30.00', coupons: coupons(true) }),
      passenger(
        'P2',
        { ticketNumber: childTicket, baseFare: '120.10', taxes: '30.00', coupons: coupons(false) },
        'CHD',
      ),
      passenger('P3', null, 'INF'),
    ],
  );
}

export function order(orderId: string, agencyId: string, currency: string, bookings: object[]) {
  return { orderId, agencyId, currency, bookings };
}

/** A one-booking, one-passenger order over one segment S1 with the ticket given. */
export function bookingAt(orderId: string, agencyId: string, currency: string, reference: string, ticket: TicketDoc) {
  return order(orderId, agencyId, currency, [booking(reference, [segment('S1')], [passenger('P1', ticket)])]);
}

/** A one-booking, one-passenger order over one segment S1: the simplest thing to act on. */
export function simpleOrder(orderId: string, agencyId: string, reference: string, ticketNumber = '2201234567890') {
  return order(orderId, agencyId, 'EUR', [
    booking(
      reference,
      [segment('S1')],
      [
        passenger('P1', {
          ticketNumber,
          baseFare: '450.00',
          taxes: '120.50',
          coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
        }),
      ],
    ),
  ]);
}

export function change(
  changeId: string,
  orderId: string,
  reference: string,
  removed: string[],
  added: SegmentDoc[],
  kind = 'SCHEDULE_CHANGE',
  detectedAt = '2026-11-20T08:00:00Z',
) {
  return {
    changeId,
    orderId,
    gdsBookingReference: reference,
    kind,
    detectedAt,
    removedSegments: removed,
    addedSegments: added,
  };
}

export function cancelRQ(orderId: string, references: string[] | string, extra: object = {}) {
  return { OrderCancelRQ: { ...extra, Query: { OrderID: orderId, GdsBookingReference: references } } };
}

export function acceptRQ(orderId: string, references: string[] | string, extra: object = {}) {
  return { OrderInvoluntaryAcceptRQ: { ...extra, Query: { OrderID: orderId, GdsBookingReference: references } } };
}

export function involuntaryCancelRQ(orderId: string, references: string[] | string, extra: object = {}) {
  return { OrderInvoluntaryCancelRQ: { ...extra, Query: { OrderID: orderId, GdsBookingReference: references } } };
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
