import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asJsonArray, asNdjson, CliSandbox } from '../helpers/cli.js';
import {
  bearer,
  booking,
  cancelRQ,
  change,
  involuntaryCancelRQ,
  acceptRQ,
  order,
  passenger,
  segment,
  simpleOrder,
} from '../helpers/documents.js';

const sandbox = new CliSandbox();
before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['orders', 'import', '-'], {
    stdin: asNdjson([
      simpleOrder('CH-1', 'AG1', 'CHG001', '2201000000001'),
      simpleOrder('CH-2', 'AG1', 'CHG002', '2201000000002'),
      order('CH-3', 'AG1', 'EUR', [booking('CHG003', [segment('S1')], [passenger('P1', null)], 'CANCELED')]),
    ]),
  });
});
after(() => sandbox.cleanup());

function changeRows(orderId: string) {
  return sandbox.query(
    'select change_id, reference, kind, status from airline_changes where order_id = ? order by change_id',
    orderId,
  );
}

describe('changes import', () => {
  test('stores a change as PENDING; resending its changeId is a no-op', async () => {
    const document = change('AIC-77', 'CH-1', 'chg001', ['S1'], [segment('S1B', 1, 14)]);
    const first = await sandbox.run([
      'changes',
      'import',
      sandbox.write('change.json', JSON.stringify(document, null, 2)),
    ]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { imported: 1, alreadyKnown: 0 });

    // The airline resends it, even with different content: the first one stands.
    const resent = await sandbox.run(['changes', 'import', '-'], {
      stdin: asJsonArray([{ ...document, kind: 'FLIGHT_CANCELLATION', addedSegments: [] }]),
    });
    assert.equal(resent.code, 0, resent.stderr);
    assert.deepEqual(JSON.parse(resent.stdout), { imported: 0, alreadyKnown: 1 });
    assert.deepEqual(changeRows('CH-1'), [
      { change_id: 'AIC-77', reference: 'CHG001', kind: 'SCHEDULE_CHANGE', status: 'PENDING' },
    ]);

    const shown = await sandbox.show('CH-1');
    assert.deepEqual(shown.bookings[0].changes, [
      {
        changeId: 'AIC-77',
        orderId: 'CH-1',
        gdsBookingReference: 'CHG001',
        kind: 'SCHEDULE_CHANGE',
        detectedAt: '2026-11-20T08:00:00.000Z',
        removedSegments: ['S1'],
        addedSegments: [segment('S1B', 1, 14)],
        consequenceOfInaction: 'ACCEPT',
        status: 'PENDING',
      },
    ]);
    // Importing a change does not touch the itinerary: only accepting it does.
    assert.deepEqual(shown.bookings[0].segments, [segment('S1')]);
  });

  test('a change without changeId imported twice (and twice in one file) is stored once', async () => {
    const document: Record<string, unknown> = {
      ...change('unused', 'CH-2', 'CHG002', ['S1'], [], 'FLIGHT_CANCELLATION'),
    };
    delete document.changeId;
    const first = await sandbox.run(['changes', 'import', '-'], { stdin: asNdjson([document, document]) });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { imported: 1, alreadyKnown: 1 });
    const again = await sandbox.run(['changes', 'import', '-'], { stdin: JSON.stringify(document) });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { imported: 0, alreadyKnown: 1 });
    const rows = changeRows('CH-2');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].status, 'PENDING');
    assert.equal(rows[0].kind, 'FLIGHT_CANCELLATION');
  });

  test("the airline's deadline: stored in UTC, shown by orders show, and announced as airline_change.detected", async () => {
    await sandbox.ok(['orders', 'import', '-'], {
      stdin: asNdjson([simpleOrder('CH-4', 'AG1', 'CHG004', '2201000000004')]),
    });
    const document = {
      ...change('AIC-DL4', 'CH-4', 'CHG004', ['S1'], []),
      actionDeadline: '2026-11-27T09:30:00+01:00',
    };
    await sandbox.ok(['changes', 'import', sandbox.write('deadline.json', JSON.stringify(document))]);
    const [shown] = (await sandbox.show('CH-4')).bookings[0].changes;
    assert.equal(shown.actionDeadline, '2026-11-27T08:30:00.000Z');
    assert.equal(shown.consequenceOfInaction, 'CANCEL', 'nothing replaces the flight: the default is CANCEL');
    const events = sandbox.query<{ type: string; data: string }>(
      "select type, data from events where data like '%AIC-DL4%'",
    );
    assert.deepEqual(
      events.map((event) => event.type),
      ['airline_change.detected'],
    );
    assert.deepEqual(JSON.parse(events[0]!.data).AvailableActions, ['CANCEL']);

    const refused = await sandbox.run(['changes', 'import', '-'], {
      stdin: JSON.stringify({ ...document, changeId: 'AIC-DL4B', consequenceOfInaction: 'ACCEPT' }),
    });
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^error: line 1 \(order CH-4\): consequenceOfInaction is ACCEPT, but the change adds no flight to replace the removed ones: it can only be CANCEL\n$/,
    );
  });

  test('a change on an already cancelled booking is kept but CLOSED', async () => {
    await sandbox.ok(['changes', 'import', '-'], {
      stdin: JSON.stringify(change('AIC-LATE', 'CH-3', 'CHG003', ['S1'], [], 'FLIGHT_CANCELLATION')),
    });
    assert.deepEqual(changeRows('CH-3'), [
      { change_id: 'AIC-LATE', reference: 'CHG003', kind: 'FLIGHT_CANCELLATION', status: 'CLOSED' },
    ]);
  });
});

describe('orders show after the agency acted through the service', () => {
  test('shows booking, coupon and change statuses and the refunds, amounts as decimal strings', async () => {
    await sandbox.ok(['orders', 'import', '-'], {
      stdin: JSON.stringify(
        order('SVC-1', 'AG1', 'KWD', [
          booking(
            'SVC001',
            [segment('S1', 1), segment('S2', 2)],
            [
              passenger('P1', {
                ticketNumber: '2202000000001',
                baseFare: '100.500',
                taxes: '20.125',
                coupons: [
                  { segmentId: 'S1', status: 'USED', value: '60.000' },
                  { segmentId: 'S2', value: '60.625' },
                ],
              }),
              passenger(
                'P2',
                {
                  ticketNumber: '2202000000002',
                  baseFare: '50.000',
                  taxes: '0.001',
                  coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
                },
                'CHD',
              ),
              passenger('P3', null, 'INF'),
            ],
          ),
          booking(
            'SVC002',
            [segment('S1', 3)],
            [
              passenger('P1', {
                ticketNumber: '2202000000003',
                baseFare: '10.000',
                taxes: '1.000',
                coupons: [{ segmentId: 'S1' }],
              }),
            ],
          ),
          booking('SVC003', [segment('S1', 4)], [passenger('P1', null)]),
        ]),
      ),
    });
    await sandbox.ok(['changes', 'import', '-'], {
      stdin: asNdjson([
        change('AIC-S1', 'SVC-1', 'SVC001', ['S2'], [], 'FLIGHT_CANCELLATION', '2026-11-20T08:00:00Z'),
        change('AIC-S2', 'SVC-1', 'SVC002', ['S1'], [segment('S1B', 3, 18)], 'SCHEDULE_CHANGE', '2026-11-21T08:00:00Z'),
        change('AIC-S3', 'SVC-1', 'SVC003', ['S1'], [segment('S1B', 4, 18)], 'SCHEDULE_CHANGE', '2026-11-21T09:00:00Z'),
      ]),
    });
    const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
    const server = await sandbox.serve();
    try {
      const refund = await server.post(
        '/AirOrderInvoluntaryCancel',
        involuntaryCancelRQ('SVC-1', ['SVC001']),
        bearer(token),
      );
      assert.equal(refund.status, 200, refund.text);
      assert.equal(refund.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS');
      assert.equal(refund.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 110.626);
      const accept = await server.post('/AirOrderInvoluntaryAccept', acceptRQ('SVC-1', ['SVC002']), bearer(token));
      assert.equal(accept.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'SUCCESS', accept.text);
      const cancel = await server.post('/AirOrderCancel', cancelRQ('SVC-1', ['SVC003']), bearer(token));
      assert.equal(cancel.body.OrderViewRS.Response[0].Status, 'SUCCESS', cancel.text);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    const shown = await sandbox.show('SVC-1');
    const [refunded, accepted, cancelled] = shown.bookings;
    assert.equal(refunded.status, 'CANCELED');
    assert.deepEqual(
      refunded.passengers.map((p: any) => p.ticket?.coupons.map((c: any) => [c.segmentId, c.status, c.value])),
      [
        [
          ['S1', 'USED', '60.000'],
          ['S2', 'REFUNDED', '60.625'],
        ],
        [
          ['S1', 'REFUNDED', '25.001'],
          ['S2', 'REFUNDED', '25.000'],
        ],
        undefined,
      ],
    );
    assert.deepEqual(
      refunded.changes.map((c: any) => [c.changeId, c.status]),
      [['AIC-S1', 'CANCELED']],
    );
    assert.deepEqual(
      refunded.refunds.map((r: any) => ({ ...r, createdAt: typeof r.createdAt })),
      [
        { ticketNumber: '2202000000001', amount: '60.625', quoteType: 'PARTIAL', createdAt: 'string' },
        { ticketNumber: '2202000000002', amount: '50.001', quoteType: 'FULL', createdAt: 'string' },
      ],
    );
    assert.ok(!Number.isNaN(Date.parse(refunded.refunds[0].createdAt)), refunded.refunds[0].createdAt);

    assert.equal(accepted.status, 'CONFIRMED');
    assert.deepEqual(accepted.segments, [segment('S1B', 3, 18)]);
    assert.deepEqual(accepted.passengers[0].ticket.coupons, [{ segmentId: 'S1B', status: 'OPEN', value: '11.000' }]);
    assert.deepEqual(
      accepted.changes.map((c: any) => [c.changeId, c.status]),
      [['AIC-S2', 'ACCEPTED']],
    );
    assert.deepEqual(accepted.refunds, []);

    assert.equal(cancelled.status, 'CANCELED');
    assert.deepEqual(
      cancelled.changes.map((c: any) => [c.changeId, c.status]),
      [['AIC-S3', 'CLOSED']],
    );
    assert.deepEqual(cancelled.refunds, []);

    assert.deepEqual(
      sandbox.query(
        "select reference, ticket_number, amount_minor, currency, quote_type from refunds where order_id = 'SVC-1' order by position",
      ),
      [
        {
          reference: 'SVC001',
          ticket_number: '2202000000001',
          amount_minor: 60625,
          currency: 'KWD',
          quote_type: 'PARTIAL',
        },
        {
          reference: 'SVC001',
          ticket_number: '2202000000002',
          amount_minor: 50001,
          currency: 'KWD',
          quote_type: 'FULL',
        },
      ],
    );
  });
});
