/**
 * AirOrderRetrieve, the extension in the interface's style: the order's requested bookings under
 * `Order`, one `Response` item per reference like AirOrderCancel's, and the same envelope, checks,
 * errors and tenancy as the other operations. Reading changes nothing. Runs on the store named by
 * TEST_STORE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, booking, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type HttpResponse, type TestService } from '../helpers/test-service.js';
import {
  assertAnsweredAlike,
  assertRequestId,
  EMPTY_SENDER,
  logLinesOf,
  snapshotStore,
  SERVICE_NAME,
  type SenderBlock,
} from '../helpers/wire-checks.js';
import { setStoredBookingMember } from '../helpers/stored-records.js';

const PATH = '/AirOrderRetrieve';
const NOW = '2026-06-01T00:00:00.000Z';
const ALPHA: SenderBlock = {
  Name: 'Alpha Travel',
  IATA_Number: '12345678',
  AgencyID: 'AG1',
  Contacts: { Contact: [{ EmailContact: 'desk@alpha.example' }] },
};
const BETA: SenderBlock = { Name: 'Beta Tours', IATA_Number: '87654321', AgencyID: 'AG2', Contacts: { Contact: [] } };

function retrieveRQ(orderId: string, references: string[] | string, extra: object = {}) {
  return { OrderRetrieveRQ: { ...extra, Query: { OrderID: orderId, GdsBookingReference: references } } };
}

/** The wire form of test/helpers/documents.ts's segment(). */
function wireSegment(segmentId: string, day = 1, hour = 10, route: [string, string] = ['FRA', 'JFK']) {
  const doc = segment(segmentId, day, hour, route);
  return {
    SegmentID: doc.segmentId,
    Carrier: doc.carrier,
    FlightNumber: doc.flightNumber,
    Origin: doc.origin,
    Destination: doc.destination,
    Departure: doc.departure,
    Arrival: doc.arrival,
  };
}

/** ABC123: one ticket, one open coupon, a pending schedule change. XYZ789: partly flown, an unticketed infant. */
const ORDER_R1 = order('ORD-R1', 'AG1', 'EUR', [
  booking(
    'ABC123',
    [segment('S1')],
    [
      passenger('P1', {
        ticketNumber: '2201234567890',
        baseFare: '450.00',
        taxes: '120.50',
        coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
      }),
    ],
  ),
  booking(
    'XYZ789',
    [segment('S1'), segment('S2', 5, 9, ['JFK', 'FRA'])],
    [
      passenger('P1', {
        ticketNumber: '2201234567891',
        baseFare: '800.00',
        taxes: '99.99',
        coupons: [
          { segmentId: 'S1', status: 'USED', value: '400.00' },
          { segmentId: 'S2', status: 'OPEN', value: '499.99' },
        ],
      }),
      { ...passenger('P2', null, 'INF'), givenName: 'BABY', surname: 'LOVELACE' },
    ],
  ),
]);

const ABC123_WIRE = {
  GdsBookingReference: 'ABC123',
  BookingStatus: 'CONFIRMED',
  Segments: [wireSegment('S1')],
  Passengers: [
    {
      PassengerID: 'P1',
      Type: 'ADT',
      GivenName: 'ADA',
      Surname: 'LOVELACE',
      Ticket: {
        TicketNumber: '2201234567890',
        BaseFare: 450,
        Taxes: 120.5,
        Coupons: [{ SegmentID: 'S1', Status: 'OPEN', Value: 570.5 }],
      },
    },
  ],
  AirlineChanges: [
    {
      ChangeID: 'C-R1',
      Kind: 'SCHEDULE_CHANGE',
      Status: 'PENDING',
      DetectedAt: '2026-11-20T08:00:00.000Z',
      RemovedSegments: ['S1'],
      AddedSegments: [wireSegment('S1B', 1, 14)],
      ConsequenceOfInaction: 'ACCEPT',
    },
  ],
  Refunds: [],
  // A pending change: what AirOrderInvoluntaryCancel would refund now.
  RefundQuote: { Amount: 570.5, QuoteType: 'FULL', Tickets: [{ TicketNumber: '2201234567890', Amount: 570.5 }] },
};

const XYZ789_WIRE = {
  GdsBookingReference: 'XYZ789',
  BookingStatus: 'CONFIRMED',
  Segments: [wireSegment('S1'), wireSegment('S2', 5, 9, ['JFK', 'FRA'])],
  Passengers: [
    {
      PassengerID: 'P1',
      Type: 'ADT',
      GivenName: 'ADA',
      Surname: 'LOVELACE',
      Ticket: {
        TicketNumber: '2201234567891',
        BaseFare: 800,
        Taxes: 99.99,
        Coupons: [
          { SegmentID: 'S1', Status: 'USED', Value: 400 },
          { SegmentID: 'S2', Status: 'OPEN', Value: 499.99 },
        ],
      },
    },
    // An unticketed passenger has no Ticket key at all.
    { PassengerID: 'P2', Type: 'INF', GivenName: 'BABY', Surname: 'LOVELACE' },
  ],
  AirlineChanges: [],
  Refunds: [],
};

function successItem(orderId: string, reference: string, status: string) {
  return { Status: 'SUCCESS', Msg: '', BookingStatus: status, OrderID: orderId, GdsBookingReference: reference };
}

function failedItem(orderId: string, reference: string, reason: string) {
  return { Status: 'FAILED', Msg: reason, BookingStatus: '', OrderID: orderId, GdsBookingReference: reference };
}

interface FailureExpectation {
  status: number;
  code: string;
  sender: SenderBlock;
  referenceVersion?: string;
  orderId?: string;
  references?: string[];
}

/** A request-level failure: the OrderViewRS envelope without Order or Success, one error, FAILED items. */
function assertFailure(response: HttpResponse, expected: FailureExpectation): void {
  assert.equal(response.status, expected.status, response.text);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(response.body), ['OrderViewRS']);
  const rs = response.body.OrderViewRS;
  assert.deepEqual(Object.keys(rs), ['Document', 'Party', 'ShoppingResponseId', 'Response', 'Errors']);
  assert.deepEqual(rs.Document, { Name: SERVICE_NAME, ReferenceVersion: expected.referenceVersion ?? '1.0' });
  assert.deepEqual(rs.Party, { Sender: { TravelAgencySender: expected.sender } });
  assertRequestId(response);
  assert.equal(rs.Errors.length, 1);
  assert.deepEqual(Object.keys(rs.Errors[0]), ['Code', 'Message']);
  assert.equal(rs.Errors[0].Code, expected.code);
  assert.ok(rs.Errors[0].Message.length > 0);
  const reason = `${expected.code}: ${rs.Errors[0].Message}`;
  assert.deepEqual(
    rs.Response,
    (expected.references ?? []).map((reference) => failedItem(expected.orderId ?? '', reference, reason)),
  );
}

/** The store's rows, plus the tables a read must not write either. */
async function everything(service: TestService) {
  return {
    ...(await snapshotStore(service)),
    audit_events: await service.store.db.selectFrom('audit_events').selectAll().orderBy('event_id').execute(),
    idempotency_keys: await service.store.db.selectFrom('idempotency_keys').selectAll().execute(),
  };
}

let service: TestService;
let token: string;
let betaToken: string;

before(async () => {
  service = await startTestService({ clock: () => NOW });
  await service.addAgency('AG1', { name: ALPHA.Name, iataNumber: ALPHA.IATA_Number, email: 'desk@alpha.example' });
  await service.addAgency('AG2', { name: BETA.Name, iataNumber: BETA.IATA_Number, email: null });
  token = await service.tokenFor('AG1');
  betaToken = await service.tokenFor('AG2');
  await service.importOrders([ORDER_R1]);
  await service.importChanges([change('C-R1', 'ORD-R1', 'ABC123', ['S1'], [segment('S1B', 1, 14)])]);
});
after(() => service.close());

describe('AirOrderRetrieve: the order as it stands', () => {
  test('the requested bookings in PascalCase, amounts as JSON numbers in the order currency, one SUCCESS item each', async () => {
    const response = await service.post(PATH, retrieveRQ('ORD-R1', ['ABC123', 'XYZ789']), bearer(token));
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
    const id = assertRequestId(response);
    assert.deepEqual(response.body, {
      OrderViewRS: {
        Document: { Name: SERVICE_NAME, ReferenceVersion: '1.0' },
        Party: { Sender: { TravelAgencySender: ALPHA } },
        ShoppingResponseId: id,
        Order: { OrderID: 'ORD-R1', Currency: 'EUR', Bookings: [ABC123_WIRE, XYZ789_WIRE] },
        Response: [successItem('ORD-R1', 'ABC123', 'CONFIRMED'), successItem('ORD-R1', 'XYZ789', 'CONFIRMED')],
        Success: {},
      },
    });
    // The wire keeps the documented key order.
    assert.deepEqual(Object.keys(response.body.OrderViewRS), [
      'Document',
      'Party',
      'ShoppingResponseId',
      'Order',
      'Response',
      'Success',
    ]);
  });

  test('only the requested bookings, in request order; references are case-insensitive and de-duplicated', async () => {
    const response = await service.post(PATH, retrieveRQ('ORD-R1', ['xyz789', 'abc123', 'XYZ789']), bearer(token));
    assert.equal(response.status, 200, response.text);
    const rs = response.body.OrderViewRS;
    assert.deepEqual(rs.Order.Bookings, [XYZ789_WIRE, ABC123_WIRE]);
    assert.deepEqual(rs.Response, [
      successItem('ORD-R1', 'XYZ789', 'CONFIRMED'),
      successItem('ORD-R1', 'ABC123', 'CONFIRMED'),
    ]);

    const one = await service.post(PATH, retrieveRQ('ORD-R1', ['XYZ789']), bearer(token));
    assert.deepEqual(one.body.OrderViewRS.Order.Bookings, [XYZ789_WIRE]);
  });

  test('a reference the order does not have: 200, item FAILED BOOKING_NOT_FOUND, Errors instead of Success, absent from Order', async () => {
    const response = await service.post(PATH, retrieveRQ('ORD-R1', ['NOPE12', 'ABC123']), bearer(token));
    assert.equal(response.status, 200, response.text);
    const rs = response.body.OrderViewRS;
    assert.deepEqual(Object.keys(rs), ['Document', 'Party', 'ShoppingResponseId', 'Order', 'Response', 'Errors']);
    const message = 'Booking NOPE12 is not part of order ORD-R1.';
    assert.deepEqual(rs.Order, { OrderID: 'ORD-R1', Currency: 'EUR', Bookings: [ABC123_WIRE] });
    assert.deepEqual(rs.Response, [
      failedItem('ORD-R1', 'NOPE12', `BOOKING_NOT_FOUND: ${message}`),
      successItem('ORD-R1', 'ABC123', 'CONFIRMED'),
    ]);
    assert.deepEqual(rs.Errors, [{ Code: 'BOOKING_NOT_FOUND', Message: message }]);

    const none = await service.post(PATH, retrieveRQ('ORD-R1', ['NOPE12', 'NOPE34']), bearer(token));
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.OrderViewRS.Order.Bookings, []);
    assert.deepEqual(
      none.body.OrderViewRS.Errors.map((error: any) => error.Code),
      ['BOOKING_NOT_FOUND', 'BOOKING_NOT_FOUND'],
    );
  });

  test("amounts carry the currency's decimals: JPY none, KWD three", async () => {
    await service.importOrders([
      order('ORD-JPY', 'AG1', 'JPY', [
        booking(
          'JPY001',
          [segment('S1')],
          [
            passenger('P1', {
              ticketNumber: '2201234567892',
              baseFare: '45000',
              taxes: '1201',
              coupons: [{ segmentId: 'S1' }],
            }),
          ],
        ),
      ]),
      order('ORD-KWD', 'AG1', 'KWD', [
        booking(
          'KWD001',
          [segment('S1'), segment('S2', 2)],
          [
            passenger('P1', {
              ticketNumber: '2201234567893',
              baseFare: '100.125',
              taxes: '0.001',
              coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
            }),
          ],
        ),
      ]),
    ]);
    const jpy = await service.post(PATH, retrieveRQ('ORD-JPY', ['JPY001']), bearer(token));
    assert.deepEqual(jpy.body.OrderViewRS.Order.Currency, 'JPY');
    assert.deepEqual(jpy.body.OrderViewRS.Order.Bookings[0].Passengers[0].Ticket, {
      TicketNumber: '2201234567892',
      BaseFare: 45000,
      Taxes: 1201,
      Coupons: [{ SegmentID: 'S1', Status: 'OPEN', Value: 46201 }],
    });
    const kwd = await service.post(PATH, retrieveRQ('ORD-KWD', ['KWD001']), bearer(token));
    // 100.126 split evenly over two coupons in minor units, the remainder on the first.
    assert.deepEqual(kwd.body.OrderViewRS.Order.Bookings[0].Passengers[0].Ticket, {
      TicketNumber: '2201234567893',
      BaseFare: 100.125,
      Taxes: 0.001,
      Coupons: [
        { SegmentID: 'S1', Status: 'OPEN', Value: 50.063 },
        { SegmentID: 'S2', Status: 'OPEN', Value: 50.063 },
      ],
    });
    assert.match(kwd.text, /"BaseFare":100\.125,"Taxes":0\.001/);
  });

  test("the import's bound and the wire agree: the largest amount in EUR, JPY and KWD comes back as the decimal imported", async () => {
    const cases = [
      { currency: 'EUR', largest: '9999999999999.99', zero: '0.00' },
      { currency: 'JPY', largest: '999999999999999', zero: '0' },
      { currency: 'KWD', largest: '999999999999.999', zero: '0.000' },
    ];
    for (const { currency, largest, zero } of cases) {
      await service.importOrders([
        order(`ORD-BOUND-${currency}`, 'AG1', currency, [
          booking(
            'BOUND1',
            [segment('S1')],
            [
              passenger('P1', {
                ticketNumber: '2201234567899',
                baseFare: largest,
                taxes: zero,
                coupons: [{ segmentId: 'S1' }],
              }),
            ],
          ),
        ]),
      ]);
      await service.importChanges([
        change(`C-BOUND-${currency}`, `ORD-BOUND-${currency}`, 'BOUND1', ['S1'], [], 'FLIGHT_CANCELLATION'),
      ]);
      const read = await service.post(PATH, retrieveRQ(`ORD-BOUND-${currency}`, ['BOUND1']), bearer(token));
      assert.equal(read.status, 200, read.text);
      // The JSON text itself, byte for byte: fares, coupon value and the refund quote.
      assert.ok(
        read.text.includes(
          `"Ticket":{"TicketNumber":"2201234567899","BaseFare":${largest},"Taxes":0,"Coupons":[{"SegmentID":"S1","Status":"OPEN","Value":${largest}}]}`,
        ),
        read.text,
      );
      assert.ok(
        read.text.includes(
          `"RefundQuote":{"Amount":${largest},"QuoteType":"FULL","Tickets":[{"TicketNumber":"2201234567899","Amount":${largest}}]}`,
        ),
        read.text,
      );
      assert.equal(String(read.body.OrderViewRS.Order.Bookings[0].Passengers[0].Ticket.BaseFare), largest);
      // And one minor unit more is refused at import, storing nothing.
      const oneMore =
        currency === 'EUR' ? '10000000000000.00' : currency === 'JPY' ? '1000000000000000' : '1000000000000.000';
      await assert.rejects(
        service.importOrders([
          order(`ORD-PAST-${currency}`, 'AG1', currency, [
            booking(
              'PAST01',
              [segment('S1')],
              [
                passenger('P1', {
                  ticketNumber: '2201234567899',
                  baseFare: oneMore,
                  taxes: zero,
                  coupons: [{ segmentId: 'S1' }],
                }),
              ],
            ),
          ]),
        ]),
        new RegExp(`must be at most ${largest.replace('.', '\\.')} ${currency} \\(999999999999999 minor units\\)`),
      );
      const missing = await service.post(PATH, retrieveRQ(`ORD-PAST-${currency}`, ['PAST01']), bearer(token));
      assert.equal(missing.status, 404, missing.text);
    }
  });

  test('after the operations it shows their effects: refunds, the new itinerary, changes ACCEPTED, CANCELED and CLOSED', async () => {
    await service.importOrders([
      simpleOrder('ORD-OPS', 'AG1', 'REF001', '2201234567894'),
      order('ORD-OPS2', 'AG1', 'EUR', [
        booking(
          'REF002',
          [segment('S1')],
          [
            passenger('P1', {
              ticketNumber: '2201234567895',
              baseFare: '100.00',
              taxes: '20.00',
              coupons: [{ segmentId: 'S1' }],
            }),
          ],
        ),
        booking(
          'REF003',
          [segment('S1')],
          [
            passenger('P1', {
              ticketNumber: '2201234567896',
              baseFare: '100.00',
              taxes: '20.00',
              coupons: [{ segmentId: 'S1' }],
            }),
          ],
        ),
      ]),
    ]);
    await service.importChanges([
      change('C-OPS-1', 'ORD-OPS', 'REF001', ['S1'], [], 'FLIGHT_CANCELLATION'),
      change('C-OPS-2', 'ORD-OPS2', 'REF002', ['S1'], [segment('S1B', 1, 14)]),
      change('C-OPS-3', 'ORD-OPS2', 'REF003', ['S1'], [segment('S1B', 1, 14)]),
    ]);

    const refund = await service.post(
      '/AirOrderInvoluntaryCancel',
      { OrderInvoluntaryCancelRQ: { Query: { OrderID: 'ORD-OPS', GdsBookingReference: ['REF001'] } } },
      bearer(token),
    );
    assert.equal(refund.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 570.5);
    const refunded = await service.post(PATH, retrieveRQ('ORD-OPS', ['REF001']), bearer(token));
    const cancelled = refunded.body.OrderViewRS.Order.Bookings[0];
    assert.equal(cancelled.BookingStatus, 'CANCELED');
    assert.deepEqual(refunded.body.OrderViewRS.Response, [successItem('ORD-OPS', 'REF001', 'CANCELED')]);
    assert.deepEqual(cancelled.Passengers[0].Ticket.Coupons, [{ SegmentID: 'S1', Status: 'REFUNDED', Value: 570.5 }]);
    assert.deepEqual(
      cancelled.AirlineChanges.map((item: any) => [item.ChangeID, item.Kind, item.Status, item.AddedSegments]),
      [['C-OPS-1', 'FLIGHT_CANCELLATION', 'CANCELED', []]],
    );
    assert.deepEqual(cancelled.Refunds, [
      { TicketNumber: '2201234567894', Amount: 570.5, QuoteType: 'FULL', CreatedAt: NOW },
    ]);

    const accepted = await service.post(
      '/AirOrderInvoluntaryAccept',
      { OrderInvoluntaryAcceptRQ: { Query: { OrderID: 'ORD-OPS2', GdsBookingReference: ['REF002'] } } },
      bearer(token),
    );
    assert.equal(accepted.status, 200, accepted.text);
    const voluntary = await service.post(
      '/AirOrderCancel',
      { OrderCancelRQ: { Query: { OrderID: 'ORD-OPS2', GdsBookingReference: ['REF003'] } } },
      bearer(token),
    );
    assert.equal(voluntary.status, 200, voluntary.text);
    const after = await service.post(PATH, retrieveRQ('ORD-OPS2', ['REF002', 'REF003']), bearer(token));
    const [rebooked, closed] = after.body.OrderViewRS.Order.Bookings;
    assert.deepEqual(rebooked.Segments, [wireSegment('S1B', 1, 14)]);
    assert.deepEqual(rebooked.Passengers[0].Ticket.Coupons, [{ SegmentID: 'S1B', Status: 'OPEN', Value: 120 }]);
    assert.equal(rebooked.AirlineChanges[0].Status, 'ACCEPTED');
    assert.equal(closed.BookingStatus, 'CANCELED');
    assert.equal(closed.AirlineChanges[0].Status, 'CLOSED');
    assert.deepEqual(closed.Refunds, []);
    assert.deepEqual(after.body.OrderViewRS.Response, [
      successItem('ORD-OPS2', 'REF002', 'CONFIRMED'),
      successItem('ORD-OPS2', 'REF003', 'CANCELED'),
    ]);
  });

  test('reading changes nothing: no row, no audit event, no kept response; an Idempotency-Key is ignored', async () => {
    const before = await everything(service);
    const headers = { ...bearer(token), 'idempotency-key': 'read-1' };
    const first = await service.post(PATH, retrieveRQ('ORD-R1', ['ABC123']), headers);
    const second = await service.post(PATH, retrieveRQ('ORD-R1', ['ABC123', 'XYZ789']), headers);
    const third = await service.post(PATH, retrieveRQ('ORD-R1', ['ABC123']), headers);
    for (const response of [first, second, third]) {
      assert.equal(response.status, 200, response.text);
      assert.equal(response.headers.get('idempotent-replayed'), null);
    }
    assert.notEqual(first.headers.get('x-request-id'), third.headers.get('x-request-id'));
    assert.deepEqual(await everything(service), before);
  });

  test('lenient in: a single reference string and a numeric ReferenceVersion', async () => {
    const response = await service.post(
      PATH,
      retrieveRQ('ORD-R1', 'abc123', { Document: { ReferenceVersion: 17.2 } }),
      bearer(token),
    );
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.OrderViewRS.Document.ReferenceVersion, '17.2');
    assert.deepEqual(response.body.OrderViewRS.Order.Bookings, [ABC123_WIRE]);
  });

  test('the bare token is accepted; the response is compressed when asked; one log line names the operation', async () => {
    const response = await service.post(PATH, retrieveRQ('ORD-R1', ['ABC123']), { authorization: token });
    assert.equal(response.status, 200, response.text);
    const lines = await logLinesOf(service, response.headers.get('x-request-id')!);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.operation, 'AirOrderRetrieve');
    assert.equal(lines[0]!.code, 'OK');
    assert.equal(lines[0]!.agency, 'AG1');
    assert.doesNotMatch(JSON.stringify(lines), new RegExp(token));

    const partial = await service.post(PATH, retrieveRQ('ORD-R1', ['NOPE12']), bearer(token));
    const [partialLine] = await logLinesOf(service, partial.headers.get('x-request-id')!);
    assert.equal(partialLine!.code, 'BOOKING_NOT_FOUND');

    const gzip = await service.request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', ...bearer(token) },
      body: JSON.stringify(retrieveRQ('ORD-R1', ['ABC123'])),
    });
    assert.equal(gzip.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(gzip.body.OrderViewRS.Order.Bookings, [ABC123_WIRE]);
  });
});

describe('AirOrderRetrieve: request-level errors in the envelope', () => {
  test('AUTH_MISSING and AUTH_INVALID: 401 with WWW-Authenticate, empty sender, a FAILED item per reference', async () => {
    const missing = await service.post(
      PATH,
      retrieveRQ('ORD-R1', ['abc123', 'XYZ789'], { Document: { ReferenceVersion: '2.5' } }),
    );
    assertFailure(missing, {
      status: 401,
      code: 'AUTH_MISSING',
      sender: EMPTY_SENDER,
      referenceVersion: '2.5',
      orderId: 'ORD-R1',
      references: ['ABC123', 'XYZ789'],
    });
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer\b/);
    for (const authorization of ['Bearer aot_unknown', `Bearer ${token}x`, 'Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==']) {
      const invalid = await service.post(PATH, retrieveRQ('ORD-R1', ['ABC123']), { authorization });
      assertFailure(invalid, {
        status: 401,
        code: 'AUTH_INVALID',
        sender: EMPTY_SENDER,
        orderId: 'ORD-R1',
        references: ['ABC123'],
      });
      assert.match(invalid.headers.get('www-authenticate') ?? '', /^Bearer\b/);
    }
  });

  test('INVALID_REQUEST names the field; INVALID_JSON, 415 and 413 answer before anything is read', async () => {
    const cases: [unknown, RegExp][] = [
      [retrieveRQ('ORD R1', ['ABC123']), /^OrderRetrieveRQ\.Query\.OrderID must be/],
      [retrieveRQ('ORD-R1', ['AB']), /^OrderRetrieveRQ\.Query\.GdsBookingReference\[0\] must be/],
      [
        retrieveRQ(
          'ORD-R1',
          Array.from({ length: 21 }, (_, i) => `REF${String(i).padStart(3, '0')}`),
        ),
        /^OrderRetrieveRQ\.Query\.GdsBookingReference must be/,
      ],
      [
        { OrderRetrieveRQ: { Query: { OrderID: 'ORD-R1' } } },
        /^OrderRetrieveRQ\.Query\.GdsBookingReference is required\.$/,
      ],
      [
        { OrderCancelRQ: { Query: { OrderID: 'ORD-R1', GdsBookingReference: ['ABC123'] } } },
        /root key OrderRetrieveRQ/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await service.post(PATH, body, bearer(token));
      assertFailure(response, { status: 400, code: 'INVALID_REQUEST', sender: ALPHA });
      assert.match(response.body.OrderViewRS.Errors[0].Message, message);
    }
    assertFailure(await service.post(PATH, '{"OrderRetrieveRQ":', bearer(token)), {
      status: 400,
      code: 'INVALID_JSON',
      sender: EMPTY_SENDER,
    });
    const textPlain = await service.request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...bearer(token) },
      body: JSON.stringify(retrieveRQ('ORD-R1', ['ABC123'])),
    });
    assertFailure(textPlain, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', sender: EMPTY_SENDER });
    const large = await service.post(
      PATH,
      JSON.stringify({ OrderRetrieveRQ: { Pad: 'x'.repeat(70 * 1024) } }),
      bearer(token),
    );
    assertFailure(large, { status: 413, code: 'PAYLOAD_TOO_LARGE', sender: EMPTY_SENDER });
  });

  test('SENDER_MISMATCH: 403 when the request names another agency; the own one is accepted', async () => {
    for (const fields of [
      { AgencyID: 'AG2' },
      { IATA_Number: BETA.IATA_Number },
      { AgencyID: 'AG1', IATA_Number: '99999999' },
    ]) {
      const response = await service.post(
        PATH,
        retrieveRQ('ORD-R1', ['ABC123'], { Party: { Sender: { TravelAgencySender: fields } } }),
        bearer(token),
      );
      assertFailure(response, {
        status: 403,
        code: 'SENDER_MISMATCH',
        sender: ALPHA,
        orderId: 'ORD-R1',
        references: ['ABC123'],
      });
    }
    const own = await service.post(
      PATH,
      retrieveRQ('ORD-R1', ['ABC123'], {
        Party: { Sender: { TravelAgencySender: { AgencyID: 'AG1', IATA_Number: ALPHA.IATA_Number } } },
      }),
      bearer(token),
    );
    assert.equal(own.status, 200, own.text);
  });

  test("tenancy: another agency's order is answered exactly like a missing one (404 ORDER_NOT_FOUND)", async () => {
    const request = retrieveRQ('ORD-T1', ['tnt001'], { Document: { ReferenceVersion: '2.0' } });
    const missing = await service.post(PATH, request, bearer(betaToken));
    await service.importOrders([simpleOrder('ORD-T1', 'AG1', 'TNT001', '2201234567897')]);
    const before = await everything(service);
    const foreign = await service.post(PATH, request, bearer(betaToken));
    assert.deepEqual(await everything(service), before);

    assertFailure(foreign, {
      status: 404,
      code: 'ORDER_NOT_FOUND',
      sender: BETA,
      referenceVersion: '2.0',
      orderId: 'ORD-T1',
      references: ['TNT001'],
    });
    assertAnsweredAlike(foreign, missing);
    // The owner reads it.
    const own = await service.post(PATH, request, bearer(token));
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.OrderViewRS.Order.Bookings[0].GdsBookingReference, 'TNT001');
  });

  test('INTERNAL_ERROR: 500 for an order the store cannot read, with nothing leaked; the others are still served', async () => {
    await service.importOrders([simpleOrder('ORD-BROKEN', 'AG1', 'BRK001', '2201234567898')]);
    await setStoredBookingMember(service.store.db, 'ORD-BROKEN', 0, 'segments', '{"secret-detail":1}');
    const response = await service.post(PATH, retrieveRQ('ORD-BROKEN', ['BRK001']), bearer(token));
    assertFailure(response, {
      status: 500,
      code: 'INTERNAL_ERROR',
      sender: ALPHA,
      orderId: 'ORD-BROKEN',
      references: ['BRK001'],
    });
    for (const leak of [/secret-detail/, /TypeError/, /is not a function/, /\bat .+:\d+:\d+/, /\.ts\b|\.js\b/])
      assert.doesNotMatch(response.text, leak);
    const fine = await service.post(PATH, retrieveRQ('ORD-R1', ['ABC123']), bearer(token));
    assert.equal(fine.status, 200, fine.text);
  });
});

describe('AirOrderRetrieve: rate limit (RATE_LIMIT_PER_SECOND=1, RATE_LIMIT_BURST=2)', () => {
  let limited: TestService;
  before(async () => {
    limited = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
  });
  after(() => limited.close());

  test("reads count against the token's rate: 429 RATE_LIMITED with Retry-After and RateLimit-* headers", async () => {
    const rlToken = await limited.tokenFor('RL1');
    await limited.importOrders([simpleOrder('RL-ORD', 'RL1', 'RLA001', '2201234567899')]);
    const sender = { Name: 'Agency RL1', IATA_Number: '', AgencyID: 'RL1', Contacts: { Contact: [] } };
    for (let i = 0; i < 2; i++) {
      const response = await limited.post(PATH, retrieveRQ('RL-ORD', ['RLA001']), bearer(rlToken));
      assert.equal(response.status, 200, response.text);
      assert.equal(response.headers.get('ratelimit-limit'), '2');
    }
    const refused = await limited.post(PATH, retrieveRQ('RL-ORD', ['RLA001']), bearer(rlToken));
    assertFailure(refused, { status: 429, code: 'RATE_LIMITED', sender, orderId: 'RL-ORD', references: ['RLA001'] });
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.ok(refused.headers.get('ratelimit-policy'));
  });
});
