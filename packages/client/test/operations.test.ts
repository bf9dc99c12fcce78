/**
 * The client's three operations that change orders, against the real service: typed results on
 * success and with failed items (item failures are results, never thrown), envelope fields,
 * idempotent replays.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { simpleOrder } from '../../../test/helpers/documents.js';
import { AirOrderClient, type CancelResult } from '../src/index.js';
import {
  cancellationOf,
  clientFor,
  logLinesOf,
  orderDoc,
  scheduleChangeOf,
  startTestService,
  type TestService,
} from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let service: TestService;
before(async () => {
  service = await startTestService();
  await service.addAgency('OPS1', { name: 'Blue Sky Travel', iataNumber: '12345678', email: 'ops@bluesky.example' });
});
after(() => service.close());

function assertMeta(result: {
  requestId: string;
  idempotencyKey: string;
  replayed: boolean;
  attempts: number;
  httpStatus: number;
  envelope: { ShoppingResponseId: string };
}) {
  assert.match(result.requestId, UUID);
  assert.equal(
    result.requestId,
    result.envelope.ShoppingResponseId,
    'requestId is X-Request-Id, equal to ShoppingResponseId',
  );
  assert.match(result.idempotencyKey, UUID, 'a key is generated when the caller gives none');
  assert.equal(result.replayed, false);
  assert.equal(result.attempts, 1);
  assert.equal(result.httpStatus, 200);
}

describe('cancel', () => {
  let client: AirOrderClient;
  before(async () => {
    client = await clientFor(service, 'OPS1');
    await service.importOrders([
      orderDoc('OPS-C1', 'OPS1', 'EUR', 'CANA01', [
        { ticketNumber: '2201234560001', baseFare: '100.00', taxes: '20.00', coupons: [['OPEN', '120.00']] },
      ]),
      simpleOrder('OPS-C2', 'OPS1', 'CANB01', '2201234560002'),
    ]);
  });

  test('success: the typed envelope and SUCCESS items with BookingStatus CANCELED', async () => {
    const result: CancelResult = await client.cancel({
      orderId: 'OPS-C1',
      bookingReferences: ['cana01'],
      referenceVersion: '17.2',
      documentName: 'cancel',
      sender: { name: 'Blue Sky Travel', iataNumber: '12345678', agencyId: 'OPS1', emails: ['ops@bluesky.example'] },
    });
    assertMeta(result);
    assert.deepEqual(Object.keys(result.body), ['OrderViewRS']);
    assert.equal(result.envelope, result.body.OrderViewRS);
    assert.deepEqual(result.envelope.Document, { Name: 'airorder', ReferenceVersion: '17.2' });
    assert.deepEqual(result.envelope.Party.Sender.TravelAgencySender, {
      Name: 'Blue Sky Travel',
      IATA_Number: '12345678',
      AgencyID: 'OPS1',
      Contacts: { Contact: [{ EmailContact: 'ops@bluesky.example' }] },
    });
    assert.deepEqual(result.envelope.Success, {});
    assert.equal(result.envelope.Errors, undefined);
    assert.equal(result.success, true);
    assert.deepEqual(result.errors, []);
    assert.equal(result.items.length, 1);
    const item = result.items[0]!;
    assert.equal(item.status, 'SUCCESS');
    assert.equal(item.failure, undefined);
    assert.equal(item.orderId, 'OPS-C1');
    assert.equal(item.bookingReference, 'CANA01', 'the service normalises references to upper case');
    assert.equal(item.bookingStatus, 'CANCELED');
    assert.deepEqual(item.raw, {
      Status: 'SUCCESS',
      Msg: '',
      BookingStatus: 'CANCELED',
      OrderID: 'OPS-C1',
      GdsBookingReference: 'CANA01',
    });

    const [line] = await logLinesOf(service, result.requestId);
    assert.equal(line?.code, 'OK', 'the request id is the one of the service log line');
  });

  test('a failed item is in the result, not thrown: FAILED with the failure code parsed from Msg', async () => {
    const result = await client.cancel({ orderId: 'OPS-C2', bookingReferences: ['CANB01', 'NOPE12', 'canb01'] });
    assertMeta(result);
    assert.equal(result.success, false);
    assert.equal(result.envelope.Success, undefined);
    assert.deepEqual(result.errors, [
      { code: 'BOOKING_NOT_FOUND', message: 'Booking NOPE12 is not part of order OPS-C2.' },
    ]);
    assert.deepEqual(
      result.items.map((item) => [item.bookingReference, item.status, item.bookingStatus]),
      [
        ['CANB01', 'SUCCESS', 'CANCELED'],
        ['NOPE12', 'FAILED', undefined],
      ],
      'duplicates collapsed, request order kept',
    );
    const failed = result.items[1]!;
    assert.equal(failed.status, 'FAILED');
    assert.deepEqual(failed.failure, {
      code: 'BOOKING_NOT_FOUND',
      message: 'Booking NOPE12 is not part of order OPS-C2.',
    });
    assert.equal(failed.raw.Msg, 'BOOKING_NOT_FOUND: Booking NOPE12 is not part of order OPS-C2.');
  });

  test('a single booking reference may be given as a string; cancelling again succeeds again', async () => {
    const result = await client.cancel({ orderId: 'OPS-C2', bookingReferences: 'CANB01' });
    assert.deepEqual(
      result.items.map((item) => [item.bookingReference, item.status, item.bookingStatus]),
      [['CANB01', 'SUCCESS', 'CANCELED']],
    );
  });

  test('a caller-given Idempotency-Key: a repeat is the stored response, replayed', async () => {
    await service.importOrders([simpleOrder('OPS-C3', 'OPS1', 'CANC01', '2201234560003')]);
    const first = await client.cancel({
      orderId: 'OPS-C3',
      bookingReferences: ['CANC01'],
      idempotencyKey: 'cancel-OPS-C3-1',
    });
    assert.equal(first.idempotencyKey, 'cancel-OPS-C3-1');
    assert.equal(first.replayed, false);
    const again = await client.cancel({
      orderId: 'OPS-C3',
      bookingReferences: ['CANC01'],
      idempotencyKey: 'cancel-OPS-C3-1',
    });
    assert.equal(again.replayed, true);
    assert.equal(again.requestId, first.requestId, 'the replay is the first response');
    assert.deepEqual(again.body, first.body);
  });
});

describe('acceptInvoluntaryChange', () => {
  let client: AirOrderClient;
  before(async () => {
    client = await clientFor(service, 'OPS2');
    await service.importOrders([
      simpleOrder('OPS-A1', 'OPS2', 'ACCA01', '2201234560011'),
      simpleOrder('OPS-A2', 'OPS2', 'ACCB01', '2201234560012'),
      simpleOrder('OPS-A3', 'OPS2', 'ACCC01', '2201234560013'),
    ]);
    await service.importChanges([scheduleChangeOf('OPS-A1', 'ACCA01'), cancellationOf('OPS-A3', 'ACCC01')]);
  });

  test('success: SUCCESS items carrying the references as an array', async () => {
    const result = await client.acceptInvoluntaryChange({ orderId: 'OPS-A1', bookingReferences: ['ACCA01'] });
    assertMeta(result);
    assert.deepEqual(Object.keys(result.body), ['OrderInvoluntaryAcceptRS']);
    assert.equal(result.success, true);
    assert.deepEqual(result.envelope.Success, {});
    assert.deepEqual(
      result.items.map(({ status, failure, orderId, bookingReferences }) => ({
        status,
        failure,
        orderId,
        bookingReferences,
      })),
      [{ status: 'SUCCESS', failure: undefined, orderId: 'OPS-A1', bookingReferences: ['ACCA01'] }],
    );
    assert.deepEqual(result.items[0]!.raw, {
      OrderID: 'OPS-A1',
      GdsBookingReference: ['ACCA01'],
      ErrorMsg: '',
      Status: 'SUCCESS',
    });
  });

  test('failed items: NO_PENDING_CHANGE, BOOKING_NOT_FOUND and NO_REPLACEMENT_OFFERED parsed from ErrorMsg', async () => {
    const none = await client.acceptInvoluntaryChange({ orderId: 'OPS-A2', bookingReferences: ['ACCB01', 'NOPE13'] });
    assert.equal(none.httpStatus, 200);
    assert.equal(none.success, false);
    assert.deepEqual(
      none.items.map((item) => [item.bookingReferences, item.status, item.failure?.code]),
      [
        [['ACCB01'], 'FAILED', 'NO_PENDING_CHANGE'],
        [['NOPE13'], 'FAILED', 'BOOKING_NOT_FOUND'],
      ],
    );
    assert.deepEqual(
      none.errors.map((error) => error.code),
      ['NO_PENDING_CHANGE', 'BOOKING_NOT_FOUND'],
    );
    assert.equal(none.items[0]!.failure?.message, 'Booking ACCB01 has no airline-initiated change awaiting action.');

    const removesOnly = await client.acceptInvoluntaryChange({ orderId: 'OPS-A3', bookingReferences: ['ACCC01'] });
    const item = removesOnly.items[0]!;
    assert.equal(item.status, 'FAILED');
    assert.equal(item.failure?.code, 'NO_REPLACEMENT_OFFERED');
    assert.match(item.failure?.message ?? '', /only removes flights/);
  });
});

describe('cancelInvoluntarily', () => {
  let client: AirOrderClient;
  before(async () => {
    client = await clientFor(service, 'OPS3');
    await service.importOrders([
      simpleOrder('OPS-I1', 'OPS3', 'INVA01', '2201234560021'),
      simpleOrder('OPS-I2', 'OPS3', 'INVB01', '2201234560022'),
      simpleOrder('OPS-I3', 'OPS3', 'INVC01', '2201234560023'),
    ]);
    await service.importChanges([cancellationOf('OPS-I1', 'INVA01'), cancellationOf('OPS-I3', 'INVC01')]);
  });

  test('success: the refund per ticket, as numbers, exact decimal text and minor units', async () => {
    const result = await client.cancelInvoluntarily({
      orderId: 'OPS-I1',
      bookingReferences: ['INVA01'],
      currency: 'EUR',
    });
    assertMeta(result);
    assert.deepEqual(Object.keys(result.body), ['OrderInvoluntaryCancelRS']);
    assert.equal(result.success, true);
    const item = result.items[0]!;
    assert.equal(item.status, 'SUCCESS');
    assert.deepEqual(item.bookingReferences, ['INVA01']);
    assert.deepEqual(item.refund, {
      amount: 570.5,
      amountMinor: 57050,
      currency: 'EUR',
      tickets: [
        { ticketNumber: '2201234560021', quoteType: 'FULL', amount: 570.5, amountText: '570.50', amountMinor: 57050 },
      ],
    });
    assert.deepEqual(item.raw, {
      OrderID: 'OPS-I1',
      GdsBookingReference: ['INVA01'],
      ErrorMsg: '',
      Status: 'SUCCESS',
      RefundAmount: 570.5,
      RefundText: 'TicketNumber:2201234560021 QuoteType:FULL RefundAmount:570.50',
      RefundPaxWiseFare: [{ TicketNumber: '2201234560021', Amount: 570.5 }],
    });

    // Repeating the call returns the same refund; nothing is refunded twice.
    const again = await client.cancelInvoluntarily({
      orderId: 'OPS-I1',
      bookingReferences: ['INVA01'],
      currency: 'EUR',
    });
    assert.equal(again.replayed, false, 'a new key: processed again, not replayed');
    assert.deepEqual(again.items[0]!.refund, item.refund);
  });

  test('failed items: NO_PENDING_CHANGE, BOOKING_CANCELED after a voluntary cancel; zero refund', async () => {
    const none = await client.cancelInvoluntarily({
      orderId: 'OPS-I2',
      bookingReferences: ['INVB01'],
      currency: 'EUR',
    });
    assert.equal(none.success, false);
    const item = none.items[0]!;
    assert.equal(item.status, 'FAILED');
    assert.equal(item.failure?.code, 'NO_PENDING_CHANGE');
    assert.deepEqual(item.refund, { amount: 0, amountMinor: 0, currency: 'EUR', tickets: [] });

    await client.cancel({ orderId: 'OPS-I3', bookingReferences: ['INVC01'] });
    const canceled = await client.cancelInvoluntarily({ orderId: 'OPS-I3', bookingReferences: ['INVC01'] });
    const cancelItem = canceled.items[0]!;
    assert.equal(cancelItem.status, 'FAILED');
    assert.deepEqual(cancelItem.failure, {
      code: 'BOOKING_CANCELED',
      message: 'Booking INVC01 was cancelled voluntarily; nothing is refunded.',
    });
    assert.deepEqual(cancelItem.refund, { amount: 0, amountMinor: undefined, currency: undefined, tickets: [] });
  });
});

test('the escape hatch: request() sends any body to an operation and returns the parsed response', async () => {
  const client = await clientFor(service, 'OPS4');
  await service.importOrders([simpleOrder('OPS-R1', 'OPS4', 'RAWA01', '2201234560031')]);
  const response = await client.request('cancel', {
    OrderCancelRQ: { Query: { OrderID: 'OPS-R1', GdsBookingReference: 'RAWA01' } },
  });
  assert.equal(response.status, 200);
  const body = response.body as { OrderViewRS: { ShoppingResponseId: string; Response: { Status: string }[] } };
  assert.equal(body.OrderViewRS.Response[0]?.Status, 'SUCCESS');
  assert.equal(response.requestId, body.OrderViewRS.ShoppingResponseId);
});
