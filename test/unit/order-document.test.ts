import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readOrderDocument } from '../../src/documents/order-document.js';
import { booking, order, passenger, segment, type TicketDoc } from '../helpers/documents.js';
import { fieldRefusal } from '../helpers/refusals.js';

/**
 * The order document (docs/contract.md §11) at the order, booking and passenger level: each field's
 * rule at its bounds, the defaults, the uniqueness checks, and the checks across the whole order.
 * The ticket's own rules are in order-tickets.test.ts.
 */

const IMPORTED_AT = Date.parse('2026-11-01T00:00:00Z');

function ticketDoc(ticketNumber: string, fields: Partial<TicketDoc> = {}): TicketDoc {
  return { ticketNumber, baseFare: '100.00', taxes: '20.00', coupons: [{ segmentId: 'S1' }], ...fields };
}

/** One booking ABC123 over S1 with passenger P1 holding ticket 2201234567890, each part replaceable. */
function doc(fields: Record<string, unknown> = {}) {
  return {
    ...order('ORD-1001', 'AGT042', 'EUR', [
      booking('ABC123', [segment('S1')], [passenger('P1', ticketDoc('2201234567890'))]),
    ]),
    ...fields,
  };
}

function withBooking(fields: Record<string, unknown>) {
  return doc({ bookings: [{ ...booking('ABC123', [segment('S1')], [passenger('P1', null)]), ...fields }] });
}

function withPassenger(fields: Record<string, unknown>) {
  return withBooking({ passengers: [{ ...passenger('P1', null), ...fields }] });
}

const read = (value: unknown) => readOrderDocument(value, IMPORTED_AT);
const refusal = (value: unknown) => fieldRefusal(() => read(value));

test('an order document is read into an order: amounts in minor units, each booking without changes or refunds yet', () => {
  const document = order('ORD-1001', 'AGT042', 'EUR', [
    booking(
      'abc123',
      [segment('S1', 1), segment('S2', 8)],
      [
        passenger('P1', ticketDoc('2201234567890', { coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }] })),
        passenger('P2', null, 'INF'),
      ],
    ),
  ]);
  assert.deepEqual(read(document), {
    orderId: 'ORD-1001',
    agencyId: 'AGT042',
    currency: 'EUR',
    bookings: [
      {
        reference: 'ABC123',
        status: 'CONFIRMED',
        cancellation: null,
        segments: [segment('S1', 1), segment('S2', 8)],
        passengers: [
          {
            passengerId: 'P1',
            type: 'ADT',
            givenName: 'ADA',
            surname: 'LOVELACE',
            ticket: {
              ticketNumber: '2201234567890',
              baseFare: 10000,
              taxes: 2000,
              coupons: [
                { segmentId: 'S1', status: 'OPEN', value: 6000 },
                { segmentId: 'S2', status: 'OPEN', value: 6000 },
              ],
            },
          },
          { passengerId: 'P2', type: 'INF', givenName: 'ADA', surname: 'LOVELACE', ticket: null },
        ],
        changes: [],
        refunds: [],
      },
    ],
  });
});

test('an order document that is not a JSON object is refused as the record', () => {
  for (const value of [null, [doc()], 'ORD-1001', 7]) {
    assert.deepEqual(refusal(value), { field: 'the record', problem: 'must be a JSON object' });
  }
});

test('orderId: 1 to 64 letters, digits or - _ . /', () => {
  for (const orderId of ['O', 'a-Z_0.9/x', 'O'.repeat(64)]) assert.equal(read(doc({ orderId })).orderId, orderId);
  for (const orderId of ['', 'O'.repeat(65), 'ORD 1', 'ORD:1']) {
    assert.deepEqual(refusal(doc({ orderId })), {
      field: 'orderId',
      problem: `must be 1 to 64 letters, digits or - _ . /, got ${JSON.stringify(orderId)}`,
    });
  }
  assert.deepEqual(refusal(doc({ orderId: undefined })), { field: 'orderId', problem: 'is required' });
});

test('agencyId: 1 to 64 characters, spaces inside but not around', () => {
  for (const agencyId of ['A', 'Blue Sky 42', 'A\tB', `A${' '.repeat(62)}B`, 'é'.repeat(64)]) {
    assert.equal(read(doc({ agencyId })).agencyId, agencyId);
  }
  for (const agencyId of ['', ' ', ' A', 'A ', 'A\n', 'A\nB', 'A'.repeat(65)]) {
    assert.deepEqual(
      refusal(doc({ agencyId })),
      {
        field: 'agencyId',
        problem: `must be 1 to 64 characters without surrounding spaces, got ${JSON.stringify(agencyId)}`,
      },
      JSON.stringify(agencyId),
    );
  }
});

test('currency: three capital letters that are an ISO 4217 code', () => {
  assert.equal(
    read(doc({ currency: 'JPY', bookings: [booking('ABC123', [segment('S1')], [passenger('P1', null)])] })).currency,
    'JPY',
  );
  for (const currency of ['EU', 'EURO', 'eur', '']) {
    assert.deepEqual(refusal(doc({ currency })), {
      field: 'currency',
      problem: `must be an ISO 4217 code such as EUR, got ${JSON.stringify(currency)}`,
    });
  }
  assert.deepEqual(refusal(doc({ currency: 'ABC' })), {
    field: 'currency',
    problem: 'is not an ISO 4217 currency: ABC',
  });
  assert.deepEqual(refusal(doc({ currency: undefined })), { field: 'currency', problem: 'is required' });
});

test('bookings: 1 to 20, each a JSON object', () => {
  const bookings = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      booking(`BK${String(index).padStart(3, '0')}`, [segment('S1')], [passenger('P1', null)]),
    );
  assert.equal(read(doc({ bookings: bookings(20) })).bookings.length, 20);
  assert.deepEqual(refusal(doc({ bookings: bookings(21) })), {
    field: 'bookings',
    problem: 'must have 1 to 20 entries, has 21',
  });
  assert.deepEqual(refusal(doc({ bookings: [] })), { field: 'bookings', problem: 'must have 1 to 20 entries, has 0' });
  assert.deepEqual(refusal(doc({ bookings: undefined })), { field: 'bookings', problem: 'must be an array' });
  assert.deepEqual(refusal(doc({ bookings: [...bookings(1), 'DEF456'] })), {
    field: 'bookings[1]',
    problem: 'must be a JSON object',
  });
});

test('gdsBookingReference: 5 to 8 letters or digits, read in capitals, once per order whatever its case', () => {
  assert.equal(read(withBooking({ gdsBookingReference: 'ab1cd' })).bookings[0]!.reference, 'AB1CD');
  assert.equal(read(withBooking({ gdsBookingReference: 'ABCD1234' })).bookings[0]!.reference, 'ABCD1234');
  for (const gdsBookingReference of ['ABC1', 'ABCD12345', 'ABC_12', '']) {
    assert.deepEqual(refusal(withBooking({ gdsBookingReference })), {
      field: 'bookings[0].gdsBookingReference',
      problem: `must be 5 to 8 letters or digits, got ${JSON.stringify(gdsBookingReference)}`,
    });
  }
  const two = (first: string, second: string) =>
    doc({
      bookings: [
        booking(first, [segment('S1')], [passenger('P1', null)]),
        booking(second, [segment('S1')], [passenger('P1', null)]),
      ],
    });
  assert.equal(read(two('ABC123', 'ABC124')).bookings.length, 2);
  assert.deepEqual(refusal(two('ABC123', 'abc123')), {
    field: 'bookings[1]',
    problem: 'repeats the gdsBookingReference ABC123',
  });
});

test('booking status: CONFIRMED when missing; a booking loaded as CANCELED was cancelled voluntarily', () => {
  const confirmed = read(withBooking({ status: undefined })).bookings[0]!;
  assert.deepEqual([confirmed.status, confirmed.cancellation], ['CONFIRMED', null]);
  const explicit = read(withBooking({ status: 'CONFIRMED' })).bookings[0]!;
  assert.deepEqual([explicit.status, explicit.cancellation], ['CONFIRMED', null]);
  const canceled = read(withBooking({ status: 'CANCELED' })).bookings[0]!;
  assert.deepEqual([canceled.status, canceled.cancellation], ['CANCELED', 'VOLUNTARY']);
  assert.deepEqual(refusal(withBooking({ status: 'CANCELLED' })), {
    field: 'bookings[0].status',
    problem: 'must be one of CONFIRMED, CANCELED, got "CANCELLED"',
  });
});

test('segments: 1 to 16 per booking, each read as a flight, each segmentId once', () => {
  const segments = (count: number) => Array.from({ length: count }, (_, index) => segment(`S${index + 1}`));
  assert.equal(read(withBooking({ segments: segments(16) })).bookings[0]!.segments.length, 16);
  assert.deepEqual(refusal(withBooking({ segments: segments(17) })), {
    field: 'bookings[0].segments',
    problem: 'must have 1 to 16 entries, has 17',
  });
  assert.deepEqual(refusal(withBooking({ segments: [] })), {
    field: 'bookings[0].segments',
    problem: 'must have 1 to 16 entries, has 0',
  });
  assert.deepEqual(refusal(withBooking({ segments: [segment('S1'), { ...segment('S2'), carrier: 'L' }] })), {
    field: 'bookings[0].segments[1].carrier',
    problem: 'must be a two-character airline code, got "L"',
  });
  assert.deepEqual(refusal(withBooking({ segments: [segment('S1'), segment('S2'), segment('S1', 3)] })), {
    field: 'bookings[0].segments[2]',
    problem: 'repeats the segmentId S1',
  });
});

test('passengers: 1 to 9 per booking, each passengerId once', () => {
  const passengers = (count: number) => Array.from({ length: count }, (_, index) => passenger(`P${index + 1}`, null));
  assert.equal(read(withBooking({ passengers: passengers(9) })).bookings[0]!.passengers.length, 9);
  assert.deepEqual(refusal(withBooking({ passengers: passengers(10) })), {
    field: 'bookings[0].passengers',
    problem: 'must have 1 to 9 entries, has 10',
  });
  assert.deepEqual(refusal(withBooking({ passengers: [] })), {
    field: 'bookings[0].passengers',
    problem: 'must have 1 to 9 entries, has 0',
  });
  assert.deepEqual(refusal(withBooking({ passengers: [passenger('P1', null), 'P2'] })), {
    field: 'bookings[0].passengers[1]',
    problem: 'must be a JSON object',
  });
  assert.deepEqual(
    refusal(withBooking({ passengers: [passenger('P1', null), passenger('P2', null), passenger('P1', null)] })),
    {
      field: 'bookings[0].passengers[2]',
      problem: 'repeats the passengerId P1',
    },
  );
});

test('passengerId: 1 to 32 letters, digits, - or _', () => {
  for (const passengerId of ['P', 'a-Z_9', 'P'.repeat(32)]) {
    assert.equal(read(withPassenger({ passengerId })).bookings[0]!.passengers[0]!.passengerId, passengerId);
  }
  for (const passengerId of ['', 'P'.repeat(33), 'P 1', 'P.1']) {
    assert.deepEqual(refusal(withPassenger({ passengerId })), {
      field: 'bookings[0].passengers[0].passengerId',
      problem: `must be 1 to 32 letters, digits, - or _, got ${JSON.stringify(passengerId)}`,
    });
  }
});

test('passenger type: ADT, CHD or INF', () => {
  for (const type of ['ADT', 'CHD', 'INF'])
    assert.equal(read(withPassenger({ type })).bookings[0]!.passengers[0]!.type, type);
  for (const type of ['adt', 'YTH', undefined]) {
    assert.deepEqual(refusal(withPassenger({ type })), {
      field: 'bookings[0].passengers[0].type',
      problem: `must be one of ADT, CHD, INF, got ${JSON.stringify(type)}`,
    });
  }
});

test('givenName and surname: 1 to 100 characters on one line', () => {
  for (const field of ['givenName', 'surname'] as const) {
    for (const name of ['A', 'N'.repeat(100), ' de la Cruz ', 'Ñoño-Ölß']) {
      assert.equal(read(withPassenger({ [field]: name })).bookings[0]!.passengers[0]![field], name);
    }
    for (const name of ['', 'N'.repeat(101), 'ADA\nLOVELACE']) {
      assert.deepEqual(refusal(withPassenger({ [field]: name })), {
        field: `bookings[0].passengers[0].${field}`,
        problem: `must be 1 to 100 characters, got ${JSON.stringify(name.slice(0, 80))}`,
      });
    }
    assert.deepEqual(refusal(withPassenger({ [field]: undefined })), {
      field: `bookings[0].passengers[0].${field}`,
      problem: 'is required',
    });
  }
});

test('a passenger without a ticket, or with ticket null, is unticketed', () => {
  assert.equal(read(withPassenger({ ticket: undefined })).bookings[0]!.passengers[0]!.ticket, null);
  assert.equal(read(withPassenger({ ticket: null })).bookings[0]!.passengers[0]!.ticket, null);
  assert.deepEqual(refusal(withPassenger({ ticket: '2201234567890' })), {
    field: 'bookings[0].passengers[0].ticket',
    problem: 'must be a JSON object',
  });
});

test('a ticket number is once per order: a repeat names where it stands and where it was first', () => {
  const tickets = (first: string, second: string) =>
    doc({
      bookings: [
        booking('ABC123', [segment('S1')], [passenger('P1', ticketDoc(first)), passenger('P2', null)]),
        booking('DEF456', [segment('S1')], [passenger('P1', null), passenger('P2', ticketDoc(second))]),
      ],
    });
  assert.equal(read(tickets('2201234567890', '2201234567891')).bookings.length, 2);
  assert.deepEqual(refusal(tickets('2201234567890', '2201234567890')), {
    field: 'bookings[1].passengers[1].ticket.ticketNumber',
    problem: 'repeats the ticketNumber 2201234567890 of bookings[0].passengers[0]',
  });
  const sameBooking = withBooking({
    passengers: [
      passenger('P1', null),
      passenger('P2', ticketDoc('2201234567890')),
      passenger('P3', ticketDoc('2201234567890')),
    ],
  });
  assert.deepEqual(refusal(sameBooking), {
    field: 'bookings[0].passengers[2].ticket.ticketNumber',
    problem: 'repeats the ticketNumber 2201234567890 of bookings[0].passengers[1]',
  });
});

test('a ticket issued up to 5 minutes after the import began is read; one a millisecond later is refused', () => {
  const issued = (issuedAt: string) =>
    doc({
      bookings: [
        booking(
          'ABC123',
          [segment('S1')],
          [passenger('P1', ticketDoc('2201234567890', { issuedAt: '2026-10-01T00:00:00Z' }))],
        ),
        booking(
          'DEF456',
          [segment('S1')],
          [passenger('P1', ticketDoc('2201234567891')), passenger('P2', ticketDoc('2201234567892', { issuedAt }))],
        ),
      ],
    });
  for (const issuedAt of [
    '2026-11-01T00:05:00Z',
    '2026-11-01T00:05:00.000Z',
    '2026-11-01T01:04:59+01:00',
    '2026-10-31T23:00:00Z',
  ]) {
    assert.equal(read(issued(issuedAt)).bookings[1]!.passengers[1]!.ticket!.issuedAt, issuedAt);
  }
  for (const issuedAt of ['2026-11-01T00:05:00.001Z', '2026-11-01T01:05:01+01:00']) {
    assert.deepEqual(refusal(issued(issuedAt)), {
      field: 'bookings[1].passengers[1].ticket.issuedAt',
      problem: `is later than the import (2026-11-01T00:00:00.000Z) by more than the 5 minutes clocks may differ: a ticket is issued before it is imported, got ${issuedAt}`,
    });
  }
});

test('a ticket whose baseFare + taxes pass the largest amount is refused at the ticket', () => {
  const big = doc({
    bookings: [
      booking(
        'ABC123',
        [segment('S1')],
        [
          passenger('P1', null),
          passenger('P2', ticketDoc('2201234567890', { baseFare: '9999999999999.99', taxes: '0.01' })),
        ],
      ),
    ],
  });
  assert.deepEqual(refusal(big), {
    field: 'bookings[0].passengers[1].ticket',
    problem:
      'has baseFare + taxes of more than 9999999999999.99 EUR (999999999999999 minor units), the largest sum the service keeps exact',
  });
});

test('tickets that bring their booking past the largest amount are refused at the ticket that passes it', () => {
  const half = { baseFare: '5000000000000.00', taxes: '0' };
  const big = withBooking({
    passengers: [passenger('P1', ticketDoc('2201234567890', half)), passenger('P2', ticketDoc('2201234567891', half))],
  });
  assert.deepEqual(refusal(big), {
    field: 'bookings[0].passengers[1].ticket',
    problem:
      'brings the tickets of its booking to more than 9999999999999.99 EUR (999999999999999 minor units), the largest sum the service keeps exact',
  });
});
