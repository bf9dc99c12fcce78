/**
 * AirOrderRefundQuote and AirOrderRefund through the client: the quote with each ticket's breakdown
 * in minor units, then the refund that confirms it, answered again on a repeat.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { refundRows } from '../../../test/helpers/booking-state.js';
import { bookingAt } from '../../../test/helpers/documents.js';
import { AirOrderClient } from '../src/index.js';
import { clientFor, startTestService, type TestService } from './support.js';

let service: TestService;
let client: AirOrderClient;
before(async () => {
  service = await startTestService();
  client = await clientFor(service, 'VR1');
  await service.importOrders([
    bookingAt('VR-CLIENT', 'VR1', 'KWD', 'VRKWD1', {
      ticketNumber: '2201234599001',
      baseFare: '145.500',
      taxes: '22.125',
      coupons: [{ segmentId: 'S1' }],
      issuedAt: '2026-01-01T00:00:00Z',
      taxBreakdown: [
        { code: 'KW', amount: '2.125' },
        { code: 'YQ', amount: '20.000' },
      ],
      fareRules: { refundable: false },
    }),
  ]);
});
after(() => service.close());

test('quoteRefund, then refund: the breakdown, minor units, the quote confirmed once', async () => {
  const quoted = await client.quoteRefund({ orderId: 'VR-CLIENT', bookingReferences: 'VRKWD1', currency: 'KWD' });
  const item = quoted.items[0]!;
  assert.equal(item.status, 'SUCCESS');
  assert.match(item.quoteId, /^rfq_/);
  assert.deepEqual(item.refund.tickets, [
    {
      ticketNumber: '2201234599001',
      quoteType: 'FULL',
      amount: 2.125,
      amountText: '2.125',
      amountMinor: 2125,
      fare: 0,
      taxes: 2.125,
      penalty: 0,
      taxBreakdown: [
        { taxCode: 'KW', amount: 2.125, refundable: true },
        { taxCode: 'YQ', amount: 20, refundable: false },
      ],
    },
  ]);
  const done = await client.refund({
    orderId: 'VR-CLIENT',
    bookingReferences: 'VRKWD1',
    quoteId: item.quoteId,
    currency: 'KWD',
  });
  assert.deepEqual(done.items[0]!.refund, item.refund);
  const again = await client.refund({
    orderId: 'VR-CLIENT',
    bookingReferences: 'VRKWD1',
    quoteId: item.quoteId,
    currency: 'KWD',
  });
  assert.equal(again.items[0]!.quoteId, item.quoteId);
  assert.deepEqual(
    (await refundRows(service, 'VR-CLIENT')).map((row) => row.amount_minor),
    [2125],
  );
});
