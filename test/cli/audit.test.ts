/**
 * `airorder audit --order ORDER_ID`: prints an order's audit trail as JSON, in the order things
 * happened, and answers "who cancelled this, when, and what was refunded" — the operator's imports
 * and the agencies' requests made through a running `airorder serve`.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { asNdjson, CliSandbox, type HttpResult, type ServeProcess } from '../helpers/cli.js';
import {
  bearer,
  booking,
  cancelRQ,
  change,
  involuntaryCancelRQ,
  order,
  passenger,
  segment,
  simpleOrder,
  type TicketDoc,
} from '../helpers/documents.js';

const sandbox = new CliSandbox();
let server: ServeProcess;
let token: string;
let secondToken: string;

const FIELDS = [
  'eventId',
  'orderId',
  'reference',
  'event',
  'detail',
  'actor',
  'agencyId',
  'tokenId',
  'requestId',
  'operation',
  'occurredAt',
];

function tokenIdOf(value: string): string {
  const hash = createHash('sha256').update(value, 'utf8').digest('hex');
  return sandbox.query<{ token_id: string }>('select token_id from access_tokens where token_hash = ?', hash)[0]!
    .token_id;
}

async function audit(orderId: string): Promise<any[]> {
  const result = await sandbox.run(['audit', '--order', orderId]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.ok(result.stdout.endsWith('\n'));
  return JSON.parse(result.stdout);
}

/** The time window a request ran in, to check the recorded time against. */
async function timed(call: () => Promise<HttpResult>): Promise<{ response: HttpResult; from: string; to: string }> {
  const from = new Date().toISOString();
  const response = await call();
  const to = new Date().toISOString();
  assert.equal(response.status, 200, response.text);
  return { response, from, to };
}

before(async () => {
  await sandbox.ok(['migrate']);
  await sandbox.ok([
    'agency',
    'add',
    '--agency-id',
    'AGT042',
    '--name',
    'Blue Sky Travel',
    '--iata',
    '12345678',
    '--email',
    'ops@bluesky.example',
  ]);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AGT043', '--name', 'Other Travel']);
  token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AGT042'])).stdout.trim();
  secondToken = (await sandbox.ok(['token', 'issue', '--agency-id', 'AGT042'])).stdout.trim();
  const ticket = (ticketNumber: string, coupons: TicketDoc['coupons']) => ({
    ticketNumber,
    baseFare: '450.00',
    taxes: '120.50',
    coupons,
  });
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write(
      'orders.ndjson',
      asNdjson([
        order('ORD-1001', 'AGT042', 'EUR', [
          booking(
            'ABC123',
            [segment('S1', 1), segment('S2', 8, 10, ['JFK', 'FRA'])],
            [
              passenger(
                'P1',
                ticket('2201234567890', [
                  { segmentId: 'S1', status: 'USED', value: '285.25' },
                  { segmentId: 'S2', status: 'OPEN', value: '285.25' },
                ]),
              ),
              passenger(
                'P2',
                ticket('2201234567891', [
                  { segmentId: 'S1', status: 'OPEN', value: '300.00' },
                  { segmentId: 'S2', status: 'OPEN', value: '270.50' },
                ]),
                'CHD',
              ),
            ],
          ),
        ]),
        simpleOrder('ORD-1002', 'AGT042', 'DEF456', '2201234567892'),
        simpleOrder('ORD-2001', 'AGT043', 'GHI789', '2201234567893'),
      ]),
    ),
  ]);
  await sandbox.ok(['changes', 'import', '-'], {
    stdin: JSON.stringify([
      change('AIC-77', 'ORD-1001', 'ABC123', ['S2'], [], 'FLIGHT_CANCELLATION', '2026-11-20T08:00:00Z'),
      change(
        'AIC-78',
        'ORD-1002',
        'DEF456',
        ['S1'],
        [segment('S1B', 1, 14)],
        'SCHEDULE_CHANGE',
        '2026-11-20T09:00:00Z',
      ),
    ]),
  });
  server = await sandbox.serve([], { env: { LOG_LEVEL: 'silent' } });
});
after(() => sandbox.cleanup());

test('who cancelled the booking, when, and what was refunded: the trail of an involuntary cancel', async () => {
  const { response, from, to } = await timed(() =>
    server.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('ORD-1001', ['ABC123']), bearer(token)),
  );
  const requestId = response.body.OrderInvoluntaryCancelRS.ShoppingResponseId;
  assert.equal(response.headers.get('x-request-id'), requestId);
  assert.equal(response.body.OrderInvoluntaryCancelRS.Result[0].RefundAmount, 855.75);

  const trail = await audit('ORD-1001');
  for (const event of trail) {
    assert.deepEqual(Object.keys(event).sort(), [...FIELDS].sort());
    assert.match(event.eventId, /^evt_[0-9a-f]+$/);
    assert.equal(event.orderId, 'ORD-1001');
  }
  assert.equal(new Set(trail.map((event) => event.eventId)).size, trail.length, 'every event has its own id');

  assert.match(trail[0].occurredAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.deepEqual(
    { ...trail[0], eventId: null, occurredAt: null },
    {
      eventId: null,
      orderId: 'ORD-1001',
      reference: null,
      event: 'ORDER_IMPORTED',
      detail: { agencyId: 'AGT042', currency: 'EUR', bookings: ['ABC123'] },
      actor: 'operator',
      agencyId: null,
      tokenId: null,
      requestId: null,
      operation: 'orders import',
      occurredAt: null,
    },
  );
  assert.deepEqual(
    trail.map((event) => [event.event, event.actor, event.operation]),
    [
      ['ORDER_IMPORTED', 'operator', 'orders import'],
      ['CHANGE_RECORDED', 'operator', 'changes import'],
      ['BOOKING_STATUS', 'agency', 'AirOrderInvoluntaryCancel'],
      ['CHANGE_STATUS', 'agency', 'AirOrderInvoluntaryCancel'],
      ['TICKET_REFUNDED', 'agency', 'AirOrderInvoluntaryCancel'],
      ['TICKET_REFUNDED', 'agency', 'AirOrderInvoluntaryCancel'],
    ],
  );
  assert.deepEqual(trail[1].detail, { changeId: 'AIC-77', kind: 'FLIGHT_CANCELLATION', status: 'PENDING' });
  const times = trail.map((event) => event.occurredAt);
  assert.deepEqual([...times].sort(), times, 'in the order things happened');

  // Who, when: the agency, through which token (its id), in which request, at what time.
  const agencyEvents = trail.slice(2);
  for (const event of agencyEvents) {
    assert.equal(event.agencyId, 'AGT042');
    assert.equal(event.tokenId, tokenIdOf(token));
    assert.equal(event.requestId, requestId, "the request id is the response's ShoppingResponseId");
    assert.equal(event.reference, 'ABC123');
    assert.ok(event.occurredAt >= from && event.occurredAt <= to, `${event.occurredAt} within ${from}..${to}`);
  }
  assert.deepEqual(
    agencyEvents.map((event) => event.detail),
    [
      { from: 'CONFIRMED', to: 'CANCELED', cancellation: 'INVOLUNTARY' },
      { changeId: 'AIC-77', from: 'PENDING', to: 'CANCELED' },
      // What was refunded, per ticket, in minor units of the order's currency.
      { ticketNumber: '2201234567890', amountMinor: 28525, currency: 'EUR', quoteType: 'PARTIAL' },
      { ticketNumber: '2201234567891', amountMinor: 57050, currency: 'EUR', quoteType: 'FULL' },
    ],
  );

  // A retry changes nothing and adds nothing to the trail.
  const retry = await server.post(
    '/AirOrderInvoluntaryCancel',
    involuntaryCancelRQ('ORD-1001', ['ABC123']),
    bearer(token),
  );
  assert.equal(retry.status, 200);
  assert.deepEqual(await audit('ORD-1001'), trail);

  // Neither the token nor its digest, nor the agency's e-mail address, is in the output.
  const text = (await sandbox.ok(['audit', '--order', 'ORD-1001'])).stdout;
  assert.equal(text.includes(token), false);
  assert.equal(text.includes(createHash('sha256').update(token).digest('hex')), false);
  assert.equal(text.includes('ops@bluesky.example'), false);
});

test("each order has its own trail; the token that acted is told apart from the agency's other tokens", async () => {
  const accepted = await timed(() =>
    server.post(
      '/AirOrderInvoluntaryAccept',
      { OrderInvoluntaryAcceptRQ: { Query: { OrderID: 'ORD-1002', GdsBookingReference: ['DEF456'] } } },
      bearer(secondToken),
    ),
  );
  const cancelled = await timed(() =>
    server.post('/AirOrderCancel', cancelRQ('ORD-1002', ['DEF456']), bearer(secondToken)),
  );
  // Another agency's failed attempt on this order leaves no trace.
  const otherToken = (await sandbox.ok(['token', 'issue', '--agency-id', 'AGT043'])).stdout.trim();
  const refused = await server.post('/AirOrderCancel', cancelRQ('ORD-1001', ['ABC123']), bearer(otherToken));
  assert.equal(refused.status, 404);

  const trail = await audit('ORD-1002');
  assert.deepEqual(
    trail.map((event) => [event.event, event.reference, event.detail]),
    [
      ['ORDER_IMPORTED', null, { agencyId: 'AGT042', currency: 'EUR', bookings: ['DEF456'] }],
      ['CHANGE_RECORDED', 'DEF456', { changeId: 'AIC-78', kind: 'SCHEDULE_CHANGE', status: 'PENDING' }],
      ['CHANGE_STATUS', 'DEF456', { changeId: 'AIC-78', from: 'PENDING', to: 'ACCEPTED' }],
      ['ITINERARY_CHANGED', 'DEF456', { from: ['S1'], to: ['S1B'] }],
      ['BOOKING_STATUS', 'DEF456', { from: 'CONFIRMED', to: 'CANCELED', cancellation: 'VOLUNTARY' }],
    ],
  );
  const acceptId = accepted.response.body.OrderInvoluntaryAcceptRS.ShoppingResponseId;
  const cancelId = cancelled.response.body.OrderViewRS.ShoppingResponseId;
  assert.deepEqual(
    trail.slice(2).map((event) => [event.requestId, event.operation, event.tokenId]),
    [
      [acceptId, 'AirOrderInvoluntaryAccept', tokenIdOf(secondToken)],
      [acceptId, 'AirOrderInvoluntaryAccept', tokenIdOf(secondToken)],
      [cancelId, 'AirOrderCancel', tokenIdOf(secondToken)],
    ],
  );
  assert.notEqual(tokenIdOf(secondToken), tokenIdOf(token));
  assert.ok(trail[4].occurredAt >= cancelled.from && trail[4].occurredAt <= cancelled.to);

  // ORD-1001's trail did not gain the other agency's attempt, nor ORD-1002's events.
  assert.ok((await audit('ORD-1001')).every((event) => event.orderId === 'ORD-1001' && event.agencyId !== 'AGT043'));
  assert.deepEqual(
    (await audit('ORD-2001')).map((event) => event.event),
    ['ORDER_IMPORTED'],
  );
});

test('replacing an order with orders import --upsert keeps its trail and records ORDER_REPLACED', async () => {
  await sandbox.ok([
    'orders',
    'import',
    '--upsert',
    sandbox.write('replace.json', JSON.stringify([simpleOrder('ORD-2001', 'AGT043', 'GHI780', '2201234567894')])),
  ]);
  const trail = await audit('ORD-2001');
  assert.deepEqual(
    trail.map((event) => [event.event, event.actor, event.operation, event.detail]),
    [
      ['ORDER_IMPORTED', 'operator', 'orders import', { agencyId: 'AGT043', currency: 'EUR', bookings: ['GHI789'] }],
      ['ORDER_REPLACED', 'operator', 'orders import', { agencyId: 'AGT043', currency: 'EUR', bookings: ['GHI780'] }],
    ],
  );
});

test('--database-url names the database, like every command', async () => {
  const result = await sandbox.run(['audit', '--order', 'ORD-2001', '--database-url', sandbox.databaseUrl], {
    env: { DATABASE_URL: 'sqlite:./elsewhere.db' },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).length, 2);
});

test('an order without events, or no --order, is an error on stderr with nothing on stdout', async () => {
  const missing = await sandbox.run(['audit', '--order', 'NO-SUCH-ORDER']);
  assert.equal(missing.code, 1);
  assert.equal(missing.stdout, '');
  assert.match(missing.stderr, /^error: .*NO-SUCH-ORDER/);
  assert.doesNotMatch(missing.stderr, /\n\s+at /, 'a known failure prints one line, not a stack');

  const noOrder = await sandbox.run(['audit']);
  assert.notEqual(noOrder.code, 0);
  assert.equal(noOrder.stdout, '');
  assert.match(noOrder.stderr, /--order/);

  const help = await sandbox.run(['audit', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--order/);
});
