import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asJsonArray, asNdjson, CliSandbox } from '../helpers/cli.js';
import { booking, order, passenger, segment, simpleOrder } from '../helpers/documents.js';

const sandbox = new CliSandbox();
before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG2', '--name', 'Agency Two']);
});
after(() => sandbox.cleanup());

function orderIds(prefix: string): string[] {
  return sandbox
    .query<{ order_id: string }>('select order_id from orders where order_id like ? order by order_id', `${prefix}%`)
    .map((row) => row.order_id);
}

type Form = 'JSON array' | 'single object' | 'NDJSON';
const FORMS: { form: Form; write: (documents: object[]) => string }[] = [
  { form: 'JSON array', write: asJsonArray },
  { form: 'single object', write: (documents) => JSON.stringify(documents[0], null, 2) },
  { form: 'NDJSON', write: (documents) => `\n${asNdjson(documents)}\n\n` },
];

describe('orders import, all three forms, from a file and from stdin', () => {
  let serial = 0;
  for (const source of ['file', 'stdin'] as const) {
    for (const { form, write } of FORMS) {
      test(`${form} from ${source}`, async () => {
        serial += 1;
        const prefix = `F${serial}-`;
        const count = form === 'single object' ? 1 : 3;
        const documents = Array.from({ length: count }, (_, index) =>
          simpleOrder(
            `${prefix}${index + 1}`,
            'AG1',
            `R${serial}X${index + 1}AB`,
            `22${String(serial).padStart(3, '0')}0000000${index + 1}`,
          ),
        );
        const content = write(documents);
        const result =
          source === 'file'
            ? await sandbox.run(['orders', 'import', sandbox.write(`orders-${serial}.json`, content)])
            : await sandbox.run(['orders', 'import', '-'], { stdin: content });
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(JSON.parse(result.stdout), { imported: count, replaced: 0 });
        assert.deepEqual(
          orderIds(prefix),
          documents.map((document) => document.orderId),
        );
        const bookings = sandbox.query(
          'select order_id, reference, status from bookings where order_id like ? order by order_id',
          `${prefix}%`,
        );
        assert.deepEqual(
          bookings,
          documents.map((document, index) => ({
            order_id: document.orderId,
            reference: `R${serial}X${index + 1}AB`,
            status: 'CONFIRMED',
          })),
        );
      });
    }
  }

  test('an empty input imports nothing', async () => {
    const before = sandbox.query('select count(*) as n from orders')[0].n;
    const result = await sandbox.run(['orders', 'import', '-'], { stdin: '' });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { imported: 0, replaced: 0 });
    assert.equal(sandbox.query('select count(*) as n from orders')[0].n, before);
  });

  test('a missing file is an error that names it', async () => {
    const result = await sandbox.run(['orders', 'import', 'no-such-file.json']);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /no-such-file\.json/);
  });
});

describe('orders show', () => {
  test('prints the order document with statuses, empty changes and refunds, amounts as decimal strings', async () => {
    await sandbox.ok(['orders', 'import', '-'], { stdin: JSON.stringify(simpleOrder('SHOW-1', 'AG1', 'abc123')) });
    const result = await sandbox.run(['orders', 'show', 'SHOW-1']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      orderId: 'SHOW-1',
      agencyId: 'AG1',
      currency: 'EUR',
      bookings: [
        {
          gdsBookingReference: 'ABC123',
          status: 'CONFIRMED',
          segments: [segment('S1')],
          passengers: [
            {
              passengerId: 'P1',
              type: 'ADT',
              givenName: 'ADA',
              surname: 'LOVELACE',
              ticket: {
                ticketNumber: '2201234567890',
                baseFare: '450.00',
                taxes: '120.50',
                coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
              },
            },
          ],
          changes: [],
          refunds: [],
        },
      ],
    });
  });

  test('coupon values default to an even split in minor units, remainder to the first; amounts keep the currency decimals', async () => {
    const documents = [
      order('SPLIT-KWD', 'AG1', 'KWD', [
        booking(
          'KWD001',
          [segment('S1', 1), segment('S2', 2), segment('S3', 3)],
          [
            passenger('P1', {
              ticketNumber: '2290000000001',
              baseFare: '100.001',
              taxes: '0',
              coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }, { segmentId: 'S3' }],
            }),
          ],
        ),
      ]),
      order('SPLIT-JPY', 'AG1', 'JPY', [
        booking(
          'JPY001',
          [segment('S1', 1), segment('S2', 2)],
          [
            passenger('P1', {
              ticketNumber: '2290000000002',
              baseFare: '1000',
              taxes: '1',
              coupons: [{ segmentId: 'S1', status: 'USED' }, { segmentId: 'S2' }],
            }),
            passenger('P2', null, 'INF'),
          ],
        ),
      ]),
      order('SPLIT-EUR', 'AG1', 'EUR', [
        booking(
          'EUR001',
          [segment('S1')],
          [
            passenger('P1', {
              ticketNumber: '2290000000003',
              baseFare: '450.5',
              taxes: '0.5',
              coupons: [{ segmentId: 'S1' }],
            }),
          ],
        ),
      ]),
    ];
    await sandbox.ok(['orders', 'import', sandbox.write('split.ndjson', asNdjson(documents))]);

    const kwd = await sandbox.show('SPLIT-KWD');
    assert.equal(kwd.currency, 'KWD');
    assert.deepEqual(kwd.bookings[0].passengers[0].ticket, {
      ticketNumber: '2290000000001',
      baseFare: '100.001',
      taxes: '0.000',
      coupons: [
        { segmentId: 'S1', status: 'OPEN', value: '33.335' },
        { segmentId: 'S2', status: 'OPEN', value: '33.333' },
        { segmentId: 'S3', status: 'OPEN', value: '33.333' },
      ],
    });

    const jpy = await sandbox.show('SPLIT-JPY');
    assert.deepEqual(jpy.bookings[0].passengers[0].ticket.coupons, [
      { segmentId: 'S1', status: 'USED', value: '501' },
      { segmentId: 'S2', status: 'OPEN', value: '500' },
    ]);
    assert.equal(jpy.bookings[0].passengers[0].ticket.baseFare, '1000');
    // An unticketed passenger has no ticket key at all.
    assert.deepEqual(jpy.bookings[0].passengers[1], {
      passengerId: 'P2',
      type: 'INF',
      givenName: 'ADA',
      surname: 'LOVELACE',
    });

    const eur = await sandbox.show('SPLIT-EUR');
    assert.deepEqual(eur.bookings[0].passengers[0].ticket, {
      ticketNumber: '2290000000003',
      baseFare: '450.50',
      taxes: '0.50',
      coupons: [{ segmentId: 'S1', status: 'OPEN', value: '451.00' }],
    });
  });

  test('an unknown order is an error with a non-zero exit and nothing on stdout', async () => {
    const result = await sandbox.run(['orders', 'show', 'NO-SUCH-ORDER']);
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /NO-SUCH-ORDER/);
  });
});

describe('orders import --upsert', () => {
  test('replaces an existing order whole and counts it as replaced, alongside new ones', async () => {
    await sandbox.ok(['orders', 'import', '-'], { stdin: JSON.stringify(simpleOrder('UPS-1', 'AG1', 'UPS001')) });
    await sandbox.ok(['changes', 'import', '-'], {
      stdin: JSON.stringify({
        changeId: 'AIC-UPS',
        orderId: 'UPS-1',
        gdsBookingReference: 'UPS001',
        kind: 'FLIGHT_CANCELLATION',
        detectedAt: '2026-11-20T08:00:00Z',
        removedSegments: ['S1'],
      }),
    });
    assert.equal((await sandbox.show('UPS-1')).bookings[0].changes.length, 1);

    const replacement = order('UPS-1', 'AG2', 'GBP', [
      booking(
        'UPS002',
        [segment('S1', 5), segment('S2', 6)],
        [
          passenger('P1', {
            ticketNumber: '2280000000001',
            baseFare: '100.00',
            taxes: '20.01',
            coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
          }),
        ],
      ),
      booking('UPS003', [segment('S1', 7)], [passenger('P1', null)], 'CANCELED'),
    ]);
    const fresh = simpleOrder('UPS-2', 'AG1', 'UPS004', '2280000000002');
    const result = await sandbox.run(['orders', 'import', '--upsert', '-'], {
      stdin: asJsonArray([replacement, fresh]),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { imported: 2, replaced: 1 });

    const shown = await sandbox.show('UPS-1');
    assert.equal(shown.agencyId, 'AG2');
    assert.equal(shown.currency, 'GBP');
    assert.deepEqual(
      shown.bookings.map((b: any) => [b.gdsBookingReference, b.status, b.changes.length]),
      [
        ['UPS002', 'CONFIRMED', 0],
        ['UPS003', 'CANCELED', 0],
      ],
    );
    assert.deepEqual(
      shown.bookings[0].passengers[0].ticket.coupons.map((c: any) => c.value),
      ['60.01', '60.00'],
    );
    assert.deepEqual(sandbox.query("select reference from bookings where order_id = 'UPS-1' order by position"), [
      { reference: 'UPS002' },
      { reference: 'UPS003' },
    ]);
    assert.deepEqual(sandbox.query("select change_id from airline_changes where order_id = 'UPS-1'"), []);
    assert.deepEqual(orderIds('UPS-'), ['UPS-1', 'UPS-2']);
  });
});
