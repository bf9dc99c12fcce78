import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { acceptRQ, bearer, cancelRQ, involuntaryCancelRQ, simpleOrder } from '../helpers/documents.js';

const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

test('demo --orders N creates N orders and prints a JSON summary with a token that works', async () => {
  const result = await sandbox.run(['demo', '--orders', '12']);
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout);
  assert.equal(summary.agencyId, 'DEMO01');
  assert.equal(summary.orders, 12);
  assert.match(summary.token, /^aot_[A-Za-z0-9_-]{20,}$/);

  assert.equal(sandbox.query("select count(*) as n from orders where agency_id = 'DEMO01'")[0].n, 12);
  assert.equal(
    sandbox.query("select count(*) as n from airline_changes where status = 'PENDING'")[0].n,
    summary.pendingChanges,
  );
  assert.ok(summary.pendingChanges > 0, 'some orders have pending changes');
  assert.ok(sandbox.query('select distinct currency from orders').length >= 3, 'several currencies');
  assert.ok(
    sandbox.query('select count(*) as n from bookings where passengers like \'%"USED"%\'')[0].n > 0,
    'some bookings are partly flown',
  );
  assert.deepEqual(
    sandbox.query(
      'select agency_id from access_tokens where token_hash = ?',
      createHash('sha256').update(summary.token).digest('hex'),
    ),
    [{ agency_id: 'DEMO01' }],
  );
  assert.equal(sandbox.databaseBytes().includes(summary.token), false, 'the token is stored only as a hash');

  const { cancel, involuntaryAccept, involuntaryCancel } = summary.examples;
  assert.ok(cancel && involuntaryAccept && involuntaryCancel, JSON.stringify(summary.examples));

  const server = await sandbox.serve();
  try {
    const cancelled = await server.post(
      '/AirOrderCancel',
      cancelRQ(cancel.orderId, [cancel.gdsBookingReference]),
      bearer(summary.token),
    );
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(cancelled.body.OrderViewRS.Response, [
      {
        Status: 'SUCCESS',
        Msg: '',
        BookingStatus: 'CANCELED',
        OrderID: cancel.orderId,
        GdsBookingReference: cancel.gdsBookingReference,
      },
    ]);

    const accepted = await server.post(
      '/AirOrderInvoluntaryAccept',
      acceptRQ(involuntaryAccept.orderId, [involuntaryAccept.gdsBookingReference]),
      bearer(summary.token),
    );
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.OrderInvoluntaryAcceptRS.Result[0].Status, 'SUCCESS', accepted.text);

    const refunded = await server.post(
      '/AirOrderInvoluntaryCancel',
      involuntaryCancelRQ(involuntaryCancel.orderId, [involuntaryCancel.gdsBookingReference]),
      bearer(summary.token),
    );
    assert.equal(refunded.status, 200, refunded.text);
    const item = refunded.body.OrderInvoluntaryCancelRS.Result[0];
    assert.equal(item.Status, 'SUCCESS', refunded.text);
    assert.ok(item.RefundAmount > 0);
    assert.ok(item.RefundPaxWiseFare.length > 0);
  } finally {
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0);
  }

  const bookingOf = async (example: { orderId: string; gdsBookingReference: string }) =>
    (await sandbox.show(example.orderId)).bookings.find(
      (b: any) => b.gdsBookingReference === example.gdsBookingReference,
    );
  assert.equal((await bookingOf(cancel)).status, 'CANCELED');
  const acceptedBooking = await bookingOf(involuntaryAccept);
  assert.equal(acceptedBooking.status, 'CONFIRMED');
  assert.ok(acceptedBooking.changes.length > 0 && acceptedBooking.changes.every((c: any) => c.status === 'ACCEPTED'));
  const refundedBooking = await bookingOf(involuntaryCancel);
  assert.equal(refundedBooking.status, 'CANCELED');
  assert.ok(refundedBooking.refunds.length > 0);
  assert.ok(refundedBooking.refunds.every((r: any) => typeof r.amount === 'string' && /^\d+(\.\d+)?$/.test(r.amount)));
});

test("demo again after refunds starts afresh, and leaves other agencies' orders alone", async () => {
  // The first test refunded a demo booking: an upsert would refuse to replace that order.
  assert.ok(
    sandbox.query(
      "select count(*) as n from refunds r join orders o on o.order_id = r.order_id where o.agency_id = 'DEMO01'",
    )[0].n > 0,
  );
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['orders', 'import', '-'], {
    stdin: JSON.stringify(simpleOrder('OWN-1', 'AG1', 'OWN001', '2209999999991')),
  });
  const again = await sandbox.run(['demo', '--orders', '7']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).orders, 7);
  assert.equal(sandbox.query("select count(*) as n from orders where agency_id = 'DEMO01'")[0].n, 7);
  assert.equal(
    sandbox.query(
      "select count(*) as n from refunds r join orders o on o.order_id = r.order_id where o.agency_id = 'DEMO01'",
    )[0].n,
    0,
  );
  assert.equal(
    sandbox.query(
      "select count(*) as n from events where agency_id = 'DEMO01' and type <> 'airline_change.detected'",
    )[0].n,
    0,
  );
  assert.deepEqual(sandbox.query("select order_id, agency_id from orders where agency_id <> 'DEMO01'"), [
    { order_id: 'OWN-1', agency_id: 'AG1' },
  ]);
  assert.equal(
    sandbox.query("select count(*) as n from audit_events where order_id = 'OWN-1'")[0].n > 0,
    true,
    "the other agency's trail is kept",
  );
});

test('demo rejects --orders that is not a positive whole number', async () => {
  for (const bad of ['0', '-3', 'many', '2.5']) {
    const result = await sandbox.run(['demo', '--orders', bad]);
    assert.notEqual(result.code, 0, `--orders ${bad}`);
    assert.match(result.stderr, /--orders/);
    assert.equal(result.stdout, '');
  }
});
