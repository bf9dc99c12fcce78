import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asNdjson, CliSandbox, type HttpResult } from '../helpers/cli.js';
import {
  bearer,
  booking,
  cancelRQ,
  change,
  involuntaryCancelRQ,
  order,
  passenger,
  segment,
} from '../helpers/documents.js';

/**
 * docs/contract.md §8.3: an acknowledged change survives `kill -9`. Requests on distinct bookings are sent
 * with several in flight; the service is killed with SIGKILL while some are still being sent; then
 * the store must hold every acknowledged change, refund nothing twice, and hold no half-done work.
 */
const sandbox = new CliSandbox();
const ORDERS = 40;
const KILL_AFTER_ACKS = 25;
const IN_FLIGHT = 4;

interface Target {
  orderId: string;
  reference: string;
  operation: 'cancel' | 'involuntaryCancel';
}
const targets: Target[] = [];
let token = '';

// Ticket values per booking: P1 has a flown first coupon (PARTIAL refund of 75.05), P2 is unflown (FULL 150.10).
const FLOWN_OPEN = 7505;
const FULL = 15010;

before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  const orders: object[] = [];
  const changes: object[] = [];
  for (let o = 0; o < ORDERS; o += 1) {
    const orderId = `DUR-${o}`;
    const bookings = [0, 1].map((b) => {
      const reference = `D${String(o * 2 + b).padStart(5, '0')}`;
      targets.push({ orderId, reference, operation: (o + b) % 2 === 0 ? 'involuntaryCancel' : 'cancel' });
      changes.push(change(`AIC-${reference}`, orderId, reference, ['S2'], [], 'FLIGHT_CANCELLATION'));
      const serial = String(o * 4 + b * 2).padStart(9, '0');
      return booking(
        reference,
        [segment('S1', 1), segment('S2', 2)],
        [
          passenger('P1', {
            ticketNumber: `2207${serial}`,
            baseFare: '120.10',
            taxes: '30.00',
            coupons: [
              { segmentId: 'S1', status: 'USED', value: '75.05' },
              { segmentId: 'S2', value: '75.05' },
            ],
          }),
          passenger(
            'P2',
            {
              ticketNumber: `2208${serial}`,
              baseFare: '120.10',
              taxes: '30.00',
              coupons: [
                { segmentId: 'S1', value: '75.05' },
                { segmentId: 'S2', value: '75.05' },
              ],
            },
            'CHD',
          ),
        ],
      );
    });
    orders.push(order(orderId, 'AG1', 'EUR', bookings));
  }
  await sandbox.ok(['orders', 'import', sandbox.write('orders.ndjson', asNdjson(orders))]);
  await sandbox.ok(['changes', 'import', sandbox.write('changes.ndjson', asNdjson(changes))]);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
});
after(() => sandbox.cleanup());

function requestFor(target: Target) {
  return target.operation === 'cancel'
    ? { path: '/AirOrderCancel', body: cancelRQ(target.orderId, [target.reference]) }
    : { path: '/AirOrderInvoluntaryCancel', body: involuntaryCancelRQ(target.orderId, [target.reference]) };
}

function isAcknowledged(target: Target, response: HttpResult): boolean {
  if (response.status !== 200) return false;
  const item =
    target.operation === 'cancel'
      ? response.body?.OrderViewRS?.Response?.[0]
      : response.body?.OrderInvoluntaryCancelRS?.Result?.[0];
  return item?.Status === 'SUCCESS';
}

test('every acknowledged change survives SIGKILL, nothing is half done or refunded twice, and the service restarts', async () => {
  const server = await sandbox.serve();
  const acknowledged = new Map<string, { target: Target; body: any }>();
  let next = 0;
  let inFlight = 0;
  let inFlightAtKill = -1;
  let killed = false;
  let workerError: unknown = null;
  const killedAt = new Promise<void>((resolve) => {
    const worker = async (): Promise<void> => {
      while (!killed && next < targets.length) {
        const target = targets[next++]!;
        const { path, body } = requestFor(target);
        inFlight += 1;
        try {
          const response = await server.post(path, body, bearer(token));
          inFlight -= 1;
          if (isAcknowledged(target, response)) acknowledged.set(target.reference, { target, body: response.body });
          else if (!killed)
            throw new Error(`unexpected answer for ${target.reference}: ${response.status} ${response.text}`);
        } catch (error) {
          inFlight -= 1;
          if (!killed) throw error;
          return; // the connection died with the process: not acknowledged
        }
        if (!killed && acknowledged.size >= KILL_AFTER_ACKS) {
          killed = true;
          inFlightAtKill = inFlight;
          server.child.kill('SIGKILL');
          resolve();
        }
      }
    };
    void Promise.all(Array.from({ length: IN_FLIGHT }, worker)).then(
      () => resolve(),
      (error: unknown) => {
        workerError = error;
        killed = true;
        server.child.kill('SIGKILL');
        resolve();
      },
    );
  });
  await killedAt;
  if (workerError) throw workerError;
  const exit = await server.exited;
  assert.equal(exit.signal, 'SIGKILL', 'the service was killed, not stopped');
  assert.ok(acknowledged.size >= KILL_AFTER_ACKS, `only ${acknowledged.size} acknowledged before the kill`);
  assert.ok(inFlightAtKill > 0, 'requests were still being sent when the process was killed');
  assert.ok(next < targets.length, 'some bookings were never asked about, so the kill came mid-series');

  assert.deepEqual(sandbox.query('pragma integrity_check'), [{ integrity_check: 'ok' }]);

  // Every acknowledged change is in the store, with the refund the agency was told.
  for (const { target, body } of acknowledged.values()) {
    const [row] = sandbox.query(
      'select status, cancellation, passengers from bookings where order_id = ? and reference = ?',
      target.orderId,
      target.reference,
    );
    const changeStatus = sandbox.query(
      'select status from airline_changes where change_id = ?',
      `AIC-${target.reference}`,
    )[0].status;
    const refunds = sandbox.query(
      'select ticket_number, amount_minor, quote_type from refunds where order_id = ? and reference = ? order by position',
      target.orderId,
      target.reference,
    );
    if (target.operation === 'cancel') {
      assert.deepEqual(
        { status: row.status, cancellation: row.cancellation, changeStatus, refunds },
        { status: 'CANCELED', cancellation: 'VOLUNTARY', changeStatus: 'CLOSED', refunds: [] },
        target.reference,
      );
    } else {
      const item = body.OrderInvoluntaryCancelRS.Result[0];
      assert.equal(item.RefundAmount, (FLOWN_OPEN + FULL) / 100);
      assert.deepEqual(
        { status: row.status, cancellation: row.cancellation, changeStatus },
        { status: 'CANCELED', cancellation: 'INVOLUNTARY', changeStatus: 'CANCELED' },
        target.reference,
      );
      assert.deepEqual(
        refunds,
        item.RefundPaxWiseFare.map((fare: any, index: number) => ({
          ticket_number: fare.TicketNumber,
          amount_minor: Math.round(fare.Amount * 100),
          quote_type: index === 0 ? 'PARTIAL' : 'FULL',
        })),
        target.reference,
      );
      assert.deepEqual(
        refunds.map((refund) => refund.amount_minor),
        [FLOWN_OPEN, FULL],
      );
      const coupons = JSON.parse(row.passengers).map((p: any) => p.ticket.coupons.map((c: any) => c.status));
      assert.deepEqual(
        coupons,
        [
          ['USED', 'REFUNDED'],
          ['REFUNDED', 'REFUNDED'],
        ],
        target.reference,
      );
    }
  }

  // Nothing is half done, and no ticket is refunded twice: each booking is untouched or wholly done.
  const perTicket = sandbox.query(
    'select ticket_number, count(*) as n, sum(amount_minor) as total from refunds group by ticket_number having count(*) > 1',
  );
  assert.deepEqual(perTicket, []);
  for (const target of targets) {
    const [row] = sandbox.query(
      'select status, cancellation from bookings where order_id = ? and reference = ?',
      target.orderId,
      target.reference,
    );
    const changeStatus = sandbox.query(
      'select status from airline_changes where change_id = ?',
      `AIC-${target.reference}`,
    )[0].status;
    const refunded = sandbox.query(
      'select count(*) as n, coalesce(sum(amount_minor), 0) as total from refunds where order_id = ? and reference = ?',
      target.orderId,
      target.reference,
    )[0];
    const state = {
      status: row.status,
      cancellation: row.cancellation,
      changeStatus,
      refunds: refunded.n,
      total: refunded.total,
    };
    const untouched = { status: 'CONFIRMED', cancellation: null, changeStatus: 'PENDING', refunds: 0, total: 0 };
    const done =
      target.operation === 'cancel'
        ? { status: 'CANCELED', cancellation: 'VOLUNTARY', changeStatus: 'CLOSED', refunds: 0, total: 0 }
        : {
            status: 'CANCELED',
            cancellation: 'INVOLUNTARY',
            changeStatus: 'CANCELED',
            refunds: 2,
            total: FLOWN_OPEN + FULL,
          };
    assert.ok(
      [untouched, done].some((expected) => JSON.stringify(expected) === JSON.stringify(state)),
      `${target.reference}: ${JSON.stringify(state)}`,
    );
    if (acknowledged.has(target.reference)) assert.deepEqual(state, done);
  }

  // The service starts again on the same store and serves: a retry refunds nothing twice.
  const restarted = await sandbox.serve();
  try {
    assert.equal((await restarted.get('/readyz')).status, 200);
    const retried = [...acknowledged.values()].find(({ target }) => target.operation === 'involuntaryCancel')!;
    const retry = await restarted.post(
      '/AirOrderInvoluntaryCancel',
      involuntaryCancelRQ(retried.target.orderId, [retried.target.reference]),
      bearer(token),
    );
    assert.equal(retry.status, 200, retry.text);
    // The same answer as the first time (only the response id differs).
    const withoutId = (rs: any) => ({ ...rs, ShoppingResponseId: null });
    assert.deepEqual(withoutId(retry.body.OrderInvoluntaryCancelRS), withoutId(retried.body.OrderInvoluntaryCancelRS));
    assert.equal(
      sandbox.query('select count(*) as n from refunds where reference = ?', retried.target.reference)[0].n,
      2,
    );

    const fresh = targets.slice(next).find((target) => target.operation === 'involuntaryCancel')!;
    const served = await restarted.post(
      '/AirOrderInvoluntaryCancel',
      involuntaryCancelRQ(fresh.orderId, [fresh.reference]),
      bearer(token),
    );
    assert.equal(served.status, 200, served.text);
    assert.equal(served.body.OrderInvoluntaryCancelRS.Result[0].Status, 'SUCCESS', served.text);
    assert.equal(served.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, (FLOWN_OPEN + FULL) / 100);
    assert.equal(sandbox.query('select count(*) as n from refunds where reference = ?', fresh.reference)[0].n, 2);
  } finally {
    restarted.child.kill('SIGTERM');
    assert.equal((await restarted.exited).code, 0);
  }
});
