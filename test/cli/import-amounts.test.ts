/**
 * Amounts past what the service keeps exact (10^15 - 1 minor units: exact as a JSON number on the
 * wire, and far within the 2^53 - 1 where integer sums stay exact), through the real CLI: an order
 * any of whose sums would pass it is refused at import, naming the record and the field, with one
 * line and exit code 1, storing nothing; the largest order that fits imports, changes, refunds and
 * reads back exactly, on the wire too; in EUR, JPY and KWD the largest amount comes back over HTTP as
 * the decimal imported; an order stored before the bound makes `changes import` refuse the file the
 * same way instead of overflowing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { asJsonArray, asNdjson, CliSandbox } from '../helpers/cli.js';
import {
  booking,
  change,
  involuntaryCancelRQ,
  order,
  passenger,
  segment,
  simpleOrder,
  bearer,
} from '../helpers/documents.js';

function retrieveRQ(orderId: string, references: string[]) {
  return { OrderRetrieveRQ: { Query: { OrderID: orderId, GdsBookingReference: references } } };
}

const sandbox = new CliSandbox();
const LIMIT = 'more than 9999999999999.99 EUR (999999999999999 minor units), the largest sum the service keeps exact';
const AT_MOST = 'must be at most 9999999999999.99 EUR (999999999999999 minor units)';
let counter = 0;
const ticketNumber = () => `24${String(++counter).padStart(11, '0')}`;
const reference = () => `AMT${String(++counter).padStart(3, '0')}`;

function ticketed(baseFare: string, taxes: string, segmentIds = ['S1', 'S2'], values?: string[]) {
  return {
    ticketNumber: ticketNumber(),
    baseFare,
    taxes,
    coupons: segmentIds.map((segmentId, index) => ({ segmentId, ...(values ? { value: values[index] } : {}) })),
  };
}

/** An order of one booking per list of tickets, each booking over S1 and S2, its passengers holding those tickets. */
function orderOf(orderId: string, tickets: object[][]) {
  return order(
    orderId,
    'AG1',
    'EUR',
    tickets.map((bookingTickets) =>
      booking(
        reference(),
        [segment('S1', 1), segment('S2', 2)],
        bookingTickets.map((ticket, index) => passenger(`P${index + 1}`, ticket as never)),
      ),
    ),
  );
}

before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
});
after(() => sandbox.cleanup());

/** Every row of every table: what a refused file must leave exactly as it was. */
function everything(): Record<string, unknown[]> {
  const db = new Database(sandbox.dbFile, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as {
      name: string;
    }[];
    return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`select * from "${name}"`).all()]));
  } finally {
    db.close();
  }
}

/** A run that must fail with exactly `line` on stderr (one line, no stack frame), exit code 1, and nothing stored. */
async function refused(args: string[], content: string, line: string): Promise<void> {
  const before = everything();
  for (const fromFile of [false, true]) {
    const result = fromFile
      ? await sandbox.run([...args, sandbox.write(`refused-${++counter}.json`, content)])
      : await sandbox.run([...args, '-'], { stdin: content });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.doesNotMatch(result.stderr, /^ {4}at /m, 'no stack trace');
    assert.equal(result.stderr, `error: ${line}\n`);
  }
  assert.deepEqual(everything(), before, 'a refused file stores nothing');
}

describe('orders import refuses amounts whose sums would pass 10^15 - 1 minor units', () => {
  test("the finding's two tickets of 90071992547409.91 EUR (2^53 - 1 minor units each): each amount is past the bound", async () => {
    const tickets = [ticketed('90071992547409.91', '0.00'), ticketed('90071992547409.91', '0.00')];
    const overflowing = orderOf('AMT-TWO', [tickets]);
    const field = 'bookings[0].passengers[0].ticket.baseFare';
    await refused(
      ['orders', 'import'],
      asJsonArray([simpleOrder('AMT-OK1', 'AG1', reference(), ticketNumber()), overflowing]),
      `record 2 (order AMT-TWO): ${field} ${AT_MOST}, got "90071992547409.91"`,
    );
    await refused(
      ['orders', 'import'],
      asNdjson([overflowing]),
      `line 1 (order AMT-TWO): ${field} ${AT_MOST}, got "90071992547409.91"`,
    );
  });

  test("two tickets of 9999999999999.99 EUR in one booking: the booking's refund would pass the bound", async () => {
    const tickets = [ticketed('9999999999999.99', '0.00'), ticketed('9999999999999.99', '0.00')];
    const overflowing = orderOf('AMT-TWO9', [tickets]);
    await refused(
      ['orders', 'import'],
      asJsonArray([simpleOrder('AMT-OK3', 'AG1', reference(), ticketNumber()), overflowing]),
      `record 2 (order AMT-TWO9): bookings[0].passengers[1].ticket brings the tickets of its booking to ${LIMIT}`,
    );
    await refused(
      ['orders', 'import'],
      asNdjson([overflowing]),
      `line 1 (order AMT-TWO9): bookings[0].passengers[1].ticket brings the tickets of its booking to ${LIMIT}`,
    );
    // The same tickets in two bookings: the order's total is bounded too.
    await refused(
      ['orders', 'import'],
      JSON.stringify(orderOf('AMT-TWO9-B', [[tickets[0]!], [tickets[1]!]])),
      `line 1 (order AMT-TWO9-B): bookings[1] brings the tickets of the order to ${LIMIT}`,
    );
  });

  test("the finding's baseFare and taxes of 45035996273704.96 EUR each: each amount is past the bound", async () => {
    const half = '45035996273704.96';
    await refused(
      ['orders', 'import'],
      asNdjson([
        simpleOrder('AMT-OK2', 'AG1', reference(), ticketNumber()),
        orderOf('AMT-HALF', [[ticketed(half, half)]]),
      ]),
      `line 2 (order AMT-HALF): bookings[0].passengers[0].ticket.baseFare ${AT_MOST}, got "${half}"`,
    );
    await refused(
      ['orders', 'import'],
      JSON.stringify(orderOf('AMT-HALF-V', [[ticketed(half, half, ['S1', 'S2'], [half, half])]])),
      `line 1 (order AMT-HALF-V): bookings[0].passengers[0].ticket.baseFare ${AT_MOST}, got "${half}"`,
    );
  });

  test("baseFare and taxes of 5000000000000.00 EUR each: the ticket's total would pass the bound by one minor unit", async () => {
    const half = '5000000000000.00';
    await refused(
      ['orders', 'import'],
      asNdjson([
        simpleOrder('AMT-OK4', 'AG1', reference(), ticketNumber()),
        orderOf('AMT-HALF5', [[ticketed(half, half)]]),
      ]),
      `line 2 (order AMT-HALF5): bookings[0].passengers[0].ticket has baseFare + taxes of ${LIMIT}`,
    );
    // With coupon values that add up to that total, the total is what is named.
    await refused(
      ['orders', 'import'],
      JSON.stringify(orderOf('AMT-HALF5-V', [[ticketed(half, half, ['S1', 'S2'], [half, half])]])),
      `line 1 (order AMT-HALF5-V): bookings[0].passengers[0].ticket has baseFare + taxes of ${LIMIT}`,
    );
  });

  test('coupon values that would pass the bound on a small ticket do not sum to its total', async () => {
    await refused(
      ['orders', 'import'],
      JSON.stringify(
        orderOf('AMT-CPN', [[ticketed('1.00', '0.00', ['S1', 'S2'], ['9999999999999.99', '9999999999999.99'])]]),
      ),
      'line 1 (order AMT-CPN): bookings[0].passengers[0].ticket.coupons values must sum to baseFare + taxes',
    );
    await refused(
      ['orders', 'import'],
      JSON.stringify(
        orderOf('AMT-CPN2', [[ticketed('1.00', '0.00', ['S1', 'S2'], ['90071992547409.91', '90071992547409.91'])]]),
      ),
      `line 1 (order AMT-CPN2): bookings[0].passengers[0].ticket.coupons[0].value ${AT_MOST}, got "90071992547409.91"`,
    );
  });

  test('one amount past the bound, or not a decimal string: 1e400, -0, 1.005, numbers', async () => {
    const field = 'line 1 (order AMT-ONE): bookings[0].passengers[0].ticket.baseFare';
    const withBaseFare = (baseFare: unknown) =>
      JSON.stringify(orderOf('AMT-ONE', [[{ ...ticketed('0', '0.00'), baseFare }]]));
    await refused(
      ['orders', 'import'],
      withBaseFare('10000000000000.00'),
      `${field} ${AT_MOST}, got "10000000000000.00"`,
    );
    await refused(
      ['orders', 'import'],
      withBaseFare('90071992547409.92'),
      `${field} ${AT_MOST}, got "90071992547409.92"`,
    );
    await refused(
      ['orders', 'import'],
      withBaseFare(`1${'0'.repeat(400)}`),
      `${field} ${AT_MOST}, got "1${'0'.repeat(79)}"`,
    );
    for (const text of ['1e400', '-0', '1.005']) {
      await refused(
        ['orders', 'import'],
        withBaseFare(text),
        `${field} must be a non-negative decimal with at most the decimals of EUR, got ${JSON.stringify(text)}`,
      );
    }
    // As JSON numbers (1e400 parses as Infinity) they are not decimal strings at all.
    for (const number of ['1e400', '-0', '1.005']) {
      await refused(
        ['orders', 'import'],
        withBaseFare('__AMOUNT__').replace('"__AMOUNT__"', number),
        `${field} must be a decimal string such as "450.00"`,
      );
    }
  });
});

/** The numbers a JSON text gives `key`, as written in it: what an agency's parser reads. */
function wireNumbers(text: string, key: string): string[] {
  return [...text.matchAll(new RegExp(`"${key}":(-?[0-9][0-9.eE+-]*)`, 'g'))].map((match) => match[1]!);
}

describe('the largest order that fits', () => {
  // 300000000000001 + 300000000000000 + 399999999999998 = 999999999999999 minor units, exactly the bound.
  const fits = order('AMT-MAX', 'AG1', 'EUR', [
    booking(
      'MAXA01',
      [segment('S1', 1), segment('S2', 2)],
      [
        passenger('P1', {
          ticketNumber: '2490000000001',
          baseFare: '3000000000000.00',
          taxes: '0.01',
          coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
        }),
        passenger('P2', {
          ticketNumber: '2490000000002',
          baseFare: '2999999999999.99',
          taxes: '0.01',
          coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
        }),
      ],
    ),
    booking(
      'MAXB01',
      [segment('S1', 1)],
      [
        passenger('P1', {
          ticketNumber: '2490000000003',
          baseFare: '3999999999999.98',
          taxes: '0.00',
          coupons: [{ segmentId: 'S1', value: '3999999999999.98' }],
        }),
      ],
    ),
  ]);

  test('imports, takes changes and an involuntary cancel, and reads back exactly, on the wire too', async () => {
    // One minor unit more is refused.
    const oneMore = structuredClone(fits) as any;
    oneMore.bookings[1].passengers[0].ticket.taxes = '0.01';
    oneMore.bookings[1].passengers[0].ticket.coupons[0].value = '3999999999999.99';
    await refused(
      ['orders', 'import'],
      JSON.stringify(oneMore),
      `line 1 (order AMT-MAX): bookings[1] brings the tickets of the order to ${LIMIT}`,
    );

    const imported = await sandbox.ok(['orders', 'import', '-'], { stdin: JSON.stringify(fits) });
    assert.deepEqual(JSON.parse(imported.stdout), { imported: 1, replaced: 0 });
    const shown = await sandbox.show('AMT-MAX');
    assert.deepEqual(
      shown.bookings[0].passengers[0].ticket.coupons.map((coupon: { value: string }) => coupon.value),
      ['1500000000000.01', '1500000000000.00'],
    );
    assert.deepEqual(shown.bookings[1].passengers[0].ticket, {
      ticketNumber: '2490000000003',
      baseFare: '3999999999999.98',
      taxes: '0.00',
      coupons: [{ segmentId: 'S1', status: 'OPEN', value: '3999999999999.98' }],
    });

    const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
    let server = await sandbox.serve();
    try {
      const read = await server.post('/AirOrderRetrieve', retrieveRQ('AMT-MAX', ['MAXA01', 'MAXB01']), bearer(token));
      assert.equal(read.status, 200, read.text);
      // Each amount as the JSON number it is written as: the decimal imported (JSON drops trailing zeros).
      assert.deepEqual(wireNumbers(read.text, 'BaseFare'), ['3000000000000', '2999999999999.99', '3999999999999.98']);
      assert.deepEqual(wireNumbers(read.text, 'Taxes'), ['0.01', '0.01', '0']);
      assert.deepEqual(wireNumbers(read.text, 'Value'), [
        '1500000000000.01',
        '1500000000000',
        '1500000000000',
        '1500000000000',
        '3999999999999.98',
      ]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    await sandbox.ok(['changes', 'import', '-'], {
      stdin: asNdjson([
        change('AMT-CHA', 'AMT-MAX', 'MAXA01', ['S2'], [], 'FLIGHT_CANCELLATION'),
        change('AMT-CHB', 'AMT-MAX', 'MAXB01', ['S1'], [segment('S1B', 1, 14)]),
      ]),
    });
    server = await sandbox.serve();
    try {
      const quoted = await server.post('/AirOrderRetrieve', retrieveRQ('AMT-MAX', ['MAXA01', 'MAXB01']), bearer(token));
      assert.equal(quoted.status, 200, quoted.text);
      // RefundQuote: the booking's amount, then its tickets', per booking.
      assert.deepEqual(wireNumbers(quoted.text, 'Amount'), [
        '6000000000000.01',
        '3000000000000.01',
        '3000000000000',
        '3999999999999.98',
        '3999999999999.98',
      ]);

      const response = await server.post(
        '/AirOrderInvoluntaryCancel',
        involuntaryCancelRQ('AMT-MAX', ['MAXA01', 'MAXB01']),
        bearer(token),
      );
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(
        response.body.OrderInvoluntaryCancelRS.Result.map((item: { RefundText: string }) => item.RefundText),
        [
          'TicketNumber:2490000000001 QuoteType:FULL RefundAmount:3000000000000.01 TicketNumber:2490000000002 QuoteType:FULL RefundAmount:3000000000000.00',
          'TicketNumber:2490000000003 QuoteType:FULL RefundAmount:3999999999999.98',
        ],
      );
      // JSON numbers of up to 15 significant digits print back as the decimal they are.
      assert.deepEqual(wireNumbers(response.text, 'RefundAmount'), ['6000000000000.01', '3999999999999.98']);
      assert.deepEqual(wireNumbers(response.text, 'Amount'), ['3000000000000.01', '3000000000000', '3999999999999.98']);

      const after = await server.post('/AirOrderRetrieve', retrieveRQ('AMT-MAX', ['MAXA01', 'MAXB01']), bearer(token));
      assert.equal(after.status, 200, after.text);
      assert.deepEqual(wireNumbers(after.text, 'Amount'), ['3000000000000.01', '3000000000000', '3999999999999.98']);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const refunds = (await sandbox.show('AMT-MAX')).bookings.map((shownBooking: { refunds: { amount: string }[] }) =>
      shownBooking.refunds.map((refund) => refund.amount),
    );
    assert.deepEqual(refunds, [['3000000000000.01', '3000000000000.00'], ['3999999999999.98']]);
  });
});

describe("the import's bound and the wire agree", () => {
  // The largest amount of each currency, one minor unit more, and a zero with the currency's decimals.
  const cases = [
    { currency: 'EUR', largest: '9999999999999.99', oneMore: '10000000000000.00', zero: '0.00' },
    { currency: 'JPY', largest: '999999999999999', oneMore: '1000000000000000', zero: '0' },
    { currency: 'KWD', largest: '999999999999.999', oneMore: '1000000000000.000', zero: '0.000' },
  ];
  const ticketOf = (index: number, baseFare: string, taxes: string) => ({
    ticketNumber: `249100000000${index}`,
    baseFare,
    taxes,
    coupons: [{ segmentId: 'S1' }],
  });

  test('in EUR, JPY and KWD the largest amount imports, and comes back over HTTP as the decimal imported', async () => {
    const orders = cases.map(({ currency, largest, zero }, index) =>
      order(`AMT-W${currency}`, 'AG1', currency, [
        booking(`WIRE${currency}`, [segment('S1')], [passenger('P1', ticketOf(index, largest, zero))]),
      ]),
    );
    for (const [index, { currency, largest, oneMore, zero }] of cases.entries()) {
      const past = order(`AMT-P${currency}`, 'AG1', currency, [
        booking(`PAST${currency}`, [segment('S1')], [passenger('P1', ticketOf(index, oneMore, zero))]),
      ]);
      await refused(
        ['orders', 'import'],
        JSON.stringify(past),
        `line 1 (order AMT-P${currency}): bookings[0].passengers[0].ticket.baseFare must be at most ${largest} ${currency} (999999999999999 minor units), got "${oneMore}"`,
      );
      // At the bound through baseFare + taxes: one minor unit of taxes more is refused as the ticket's total.
      const minorUnit = currency === 'JPY' ? '1' : `0.${'0'.repeat(currency === 'EUR' ? 1 : 2)}1`;
      const summed = order(`AMT-S${currency}`, 'AG1', currency, [
        booking(`SUM${currency}`, [segment('S1')], [passenger('P1', ticketOf(index, largest, minorUnit))]),
      ]);
      await refused(
        ['orders', 'import'],
        JSON.stringify(summed),
        `line 1 (order AMT-S${currency}): bookings[0].passengers[0].ticket has baseFare + taxes of more than ${largest} ${currency} (999999999999999 minor units), the largest sum the service keeps exact`,
      );
    }
    await sandbox.ok(['orders', 'import', '-'], { stdin: asNdjson(orders) });
    await sandbox.ok(['changes', 'import', '-'], {
      stdin: asNdjson(
        cases.map(({ currency }) =>
          change(`AMT-WC${currency}`, `AMT-W${currency}`, `WIRE${currency}`, ['S1'], [], 'FLIGHT_CANCELLATION'),
        ),
      ),
    });
    const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
    const server = await sandbox.serve();
    try {
      for (const [index, { currency, largest }] of cases.entries()) {
        const read = await server.post(
          '/AirOrderRetrieve',
          retrieveRQ(`AMT-W${currency}`, [`WIRE${currency}`]),
          bearer(token),
        );
        assert.equal(read.status, 200, read.text);
        assert.ok(
          read.text.includes(
            `"BaseFare":${largest},"Taxes":0,"Coupons":[{"SegmentID":"S1","Status":"OPEN","Value":${largest}}]`,
          ),
          read.text,
        );
        assert.deepEqual(wireNumbers(read.text, 'Amount'), [largest, largest], 'RefundQuote: the booking, its ticket');
        assert.equal(String(read.body.OrderViewRS.Order.Bookings[0].Passengers[0].Ticket.BaseFare), largest);

        const cancelled = await server.post(
          '/AirOrderInvoluntaryCancel',
          involuntaryCancelRQ(`AMT-W${currency}`, [`WIRE${currency}`]),
          bearer(token),
        );
        assert.equal(cancelled.status, 200, cancelled.text);
        const [item] = cancelled.body.OrderInvoluntaryCancelRS.Result;
        assert.equal(item.Status, 'SUCCESS', cancelled.text);
        assert.equal(item.RefundText, `TicketNumber:249100000000${index} QuoteType:FULL RefundAmount:${largest}`);
        assert.deepEqual(wireNumbers(cancelled.text, 'RefundAmount'), [largest]);
        assert.ok(
          cancelled.text.includes(`"RefundPaxWiseFare":[{"TicketNumber":"249100000000${index}","Amount":${largest}}]`),
          cancelled.text,
        );
        assert.equal(String(item.RefundAmount), largest);

        const after = await server.post(
          '/AirOrderRetrieve',
          retrieveRQ(`AMT-W${currency}`, [`WIRE${currency}`]),
          bearer(token),
        );
        assert.deepEqual(wireNumbers(after.text, 'Amount'), [largest], 'the refund');
        assert.deepEqual(wireNumbers(after.text, 'Value'), [largest]);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});

describe('changes import for an order stored before amounts were bounded', () => {
  test('refuses the file with one line naming the record and the order, and stores nothing of it', async () => {
    await sandbox.ok(['orders', 'import', '-'], {
      stdin: asNdjson([
        simpleOrder('AMT-FINE', 'AG1', 'FINE01', ticketNumber()),
        orderOf('AMT-OLD', [[ticketed('1.00', '0.00'), ticketed('1.00', '0.00')]]),
      ]),
    });
    const oldReference = sandbox.query<{ reference: string }>(
      "select reference from bookings where order_id = 'AMT-OLD'",
    )[0]!.reference;
    /** Writes both tickets of AMT-OLD as `minor` on its first coupon, as an import before this bound would have stored them. */
    const storeTickets = (minor: number) => {
      const db = new Database(sandbox.dbFile);
      try {
        const row = db.prepare("select passengers from bookings where order_id = 'AMT-OLD'").get() as {
          passengers: string;
        };
        const passengers = JSON.parse(row.passengers) as {
          ticket: { baseFare: number; taxes: number; coupons: { value: number }[] };
        }[];
        for (const { ticket } of passengers) {
          ticket.baseFare = minor;
          ticket.taxes = 0;
          ticket.coupons.forEach((coupon, index) => {
            coupon.value = index === 0 ? minor : 0;
          });
        }
        // The order's one booking, in its record (src/store/order-record.ts).
        db.prepare(
          "update order_records set record = jsonb_set(record, '$.bookings[0].passengers', jsonb(?)) where order_id = 'AMT-OLD'",
        ).run(JSON.stringify(passengers));
      } finally {
        db.close();
      }
    };
    const file = asJsonArray([
      change('AMT-C1', 'AMT-FINE', 'FINE01', ['S1'], [segment('S1B', 1, 14)]),
      change('AMT-C2', 'AMT-OLD', oldReference, ['S1'], [], 'FLIGHT_CANCELLATION'),
    ]);
    const refusal = (problem: string) =>
      `record 2 (order AMT-OLD): orderId AMT-OLD was stored before imports bounded its amounts: in booking ${oldReference}, ` +
      `${problem}; correct the order and import it again (orders import --upsert)`;

    // Before any bound: two tickets of 2^53 - 1 minor units in one booking; the first is past the bound on its own.
    storeTickets(Number.MAX_SAFE_INTEGER);
    await refused(['changes', 'import'], file, refusal(`passengers[0].ticket has baseFare + taxes of ${LIMIT}`));
    // Under the earlier bound (2^53 - 1): two tickets of 5000000000000.00 EUR, each within this bound, the booking past it.
    storeTickets(500_000_000_000_000);
    await refused(
      ['changes', 'import'],
      file,
      refusal(`passengers[1].ticket brings the tickets of its booking to ${LIMIT}`),
    );
  });
});
