/**
 * Amounts past what the service adds up exactly (2^53 - 1 minor units), through the real CLI: an
 * order any of whose sums would pass it is refused at import, naming the record and the field, with
 * one line and exit code 1, storing nothing; the largest order that fits imports, changes, refunds
 * and reads back exactly; an order stored before the bound existed makes `changes import` refuse
 * the file the same way instead of overflowing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { asJsonArray, asNdjson, CliSandbox } from '../helpers/cli.js';
import { booking, change, involuntaryCancelRQ, order, passenger, segment, simpleOrder, bearer } from '../helpers/documents.js';

const sandbox = new CliSandbox();
const LIMIT = 'more than 90071992547409.91 EUR (9007199254740991 minor units), the largest sum the service keeps exact';
let counter = 0;
const ticketNumber = () => `24${String(++counter).padStart(11, '0')}`;
const reference = () => `AMT${String(++counter).padStart(3, '0')}`;

function ticketed(baseFare: string, taxes: string, segmentIds = ['S1', 'S2'], values?: string[]) {
  return { ticketNumber: ticketNumber(), baseFare, taxes, coupons: segmentIds.map((segmentId, index) => ({ segmentId, ...(values ? { value: values[index] } : {}) })) };
}

/** An order of one booking per list of tickets, each booking over S1 and S2, its passengers holding those tickets. */
function orderOf(orderId: string, tickets: object[][]) {
  return order(orderId, 'AG1', 'EUR', tickets.map((bookingTickets) =>
    booking(reference(), [segment('S1', 1), segment('S2', 2)], bookingTickets.map((ticket, index) => passenger(`P${index + 1}`, ticket as never)))));
}

before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
});
after(() => sandbox.cleanup());

/** Every row of every table: what a refused file must leave exactly as it was. */
function everything(): Record<string, unknown[]> {
  const db = new Database(sandbox.dbFile, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[];
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

describe('orders import refuses amounts whose sums would pass 2^53 - 1 minor units', () => {
  test('two tickets of 90071992547409.91 EUR in one booking: the booking\'s refund would overflow', async () => {
    const tickets = [ticketed('90071992547409.91', '0.00'), ticketed('90071992547409.91', '0.00')];
    const overflowing = orderOf('AMT-TWO', [tickets]);
    await refused(['orders', 'import'], asJsonArray([simpleOrder('AMT-OK1', 'AG1', reference(), ticketNumber()), overflowing]),
      `record 2: bookings[0].passengers[1].ticket brings the tickets of its booking to ${LIMIT}`);
    await refused(['orders', 'import'], asNdjson([overflowing]), `line 1: bookings[0].passengers[1].ticket brings the tickets of its booking to ${LIMIT}`);
    // The same tickets in two bookings: the order's total is bounded too.
    await refused(['orders', 'import'], JSON.stringify(orderOf('AMT-TWO-B', [[tickets[0]!], [tickets[1]!]])),
      `line 1: bookings[1] brings the tickets of the order to ${LIMIT}`);
  });

  test('baseFare and taxes of 45035996273704.96 EUR each: the ticket\'s total would overflow', async () => {
    const half = '45035996273704.96';
    await refused(['orders', 'import'], asNdjson([simpleOrder('AMT-OK2', 'AG1', reference(), ticketNumber()), orderOf('AMT-HALF', [[ticketed(half, half)]])]),
      `line 2: bookings[0].passengers[0].ticket has baseFare + taxes of ${LIMIT}`);
    // With coupon values that add up to that total, the total is what is named.
    await refused(['orders', 'import'], JSON.stringify(orderOf('AMT-HALF-V', [[ticketed(half, half, ['S1', 'S2'], [half, half])]])),
      `line 1: bookings[0].passengers[0].ticket has baseFare + taxes of ${LIMIT}`);
  });

  test('coupon values that would overflow on a small ticket do not sum to its total', async () => {
    await refused(['orders', 'import'], JSON.stringify(orderOf('AMT-CPN', [[ticketed('1.00', '0.00', ['S1', 'S2'], ['90071992547409.91', '90071992547409.91'])]])),
      'line 1: bookings[0].passengers[0].ticket.coupons values must sum to baseFare + taxes');
  });

  test('one amount past the bound, or not a decimal string: 1e400, -0, 1.005, numbers', async () => {
    const field = 'line 1: bookings[0].passengers[0].ticket.baseFare';
    const withBaseFare = (baseFare: unknown) => JSON.stringify(orderOf('AMT-ONE', [[{ ...ticketed('0', '0.00'), baseFare }]]));
    await refused(['orders', 'import'], withBaseFare('90071992547409.92'), `${field} must be at most 90071992547409.91 EUR (9007199254740991 minor units), got "90071992547409.92"`);
    await refused(['orders', 'import'], withBaseFare(`1${'0'.repeat(400)}`), `${field} must be at most 90071992547409.91 EUR (9007199254740991 minor units), got "1${'0'.repeat(79)}"`);
    for (const text of ['1e400', '-0', '1.005']) {
      await refused(['orders', 'import'], withBaseFare(text), `${field} must be a non-negative decimal with at most the decimals of EUR, got ${JSON.stringify(text)}`);
    }
    // As JSON numbers (1e400 parses as Infinity) they are not decimal strings at all.
    for (const number of ['1e400', '-0', '1.005']) {
      await refused(['orders', 'import'], withBaseFare('__AMOUNT__').replace('"__AMOUNT__"', number), `${field} must be a decimal string such as "450.00"`);
    }
  });
});

describe('the largest order that fits', () => {
  // 3000000000000001 + 3000000000000000 + 3007199254740990 = 9007199254740991 minor units, exactly the bound.
  const fits = order('AMT-MAX', 'AG1', 'EUR', [
    booking('MAXA01', [segment('S1', 1), segment('S2', 2)], [
      passenger('P1', { ticketNumber: '2490000000001', baseFare: '30000000000000.00', taxes: '0.01', coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }] }),
      passenger('P2', { ticketNumber: '2490000000002', baseFare: '29999999999999.99', taxes: '0.01', coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }] }),
    ]),
    booking('MAXB01', [segment('S1', 1)], [
      passenger('P1', { ticketNumber: '2490000000003', baseFare: '30071992547409.90', taxes: '0.00', coupons: [{ segmentId: 'S1', value: '30071992547409.90' }] }),
    ]),
  ]);

  test('imports, takes changes and an involuntary cancel, and reads back exactly', async () => {
    // One minor unit more is refused.
    const oneMore = structuredClone(fits) as any;
    oneMore.bookings[1].passengers[0].ticket.taxes = '0.01';
    oneMore.bookings[1].passengers[0].ticket.coupons[0].value = '30071992547409.91';
    await refused(['orders', 'import'], JSON.stringify(oneMore), `line 1: bookings[1] brings the tickets of the order to ${LIMIT}`);

    const imported = await sandbox.ok(['orders', 'import', '-'], { stdin: JSON.stringify(fits) });
    assert.deepEqual(JSON.parse(imported.stdout), { imported: 1, replaced: 0 });
    const shown = await sandbox.show('AMT-MAX');
    assert.deepEqual(shown.bookings[0].passengers[0].ticket.coupons.map((coupon: { value: string }) => coupon.value), ['15000000000000.01', '15000000000000.00']);
    assert.deepEqual(shown.bookings[1].passengers[0].ticket, { ticketNumber: '2490000000003', baseFare: '30071992547409.90', taxes: '0.00', coupons: [{ segmentId: 'S1', status: 'OPEN', value: '30071992547409.90' }] });

    await sandbox.ok(['changes', 'import', '-'], { stdin: asNdjson([
      change('AMT-CHA', 'AMT-MAX', 'MAXA01', ['S2'], [], 'FLIGHT_CANCELLATION'),
      change('AMT-CHB', 'AMT-MAX', 'MAXB01', ['S1'], [segment('S1B', 1, 14)]),
    ]) });
    const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
    const server = await sandbox.serve();
    const response = await server.post('/AirOrderInvoluntaryCancel', involuntaryCancelRQ('AMT-MAX', ['MAXA01', 'MAXB01']), bearer(token));
    server.child.kill('SIGTERM');
    await server.exited;
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.OrderInvoluntaryCancelRS.Result.map((item: { RefundText: string }) => item.RefundText), [
      'TicketNumber:2490000000001 QuoteType:FULL RefundAmount:30000000000000.01 TicketNumber:2490000000002 QuoteType:FULL RefundAmount:30000000000000.00',
      'TicketNumber:2490000000003 QuoteType:FULL RefundAmount:30071992547409.90',
    ]);
    // JSON numbers of up to 15 significant digits, and these, print back as the decimal they are.
    assert.match(response.text, /"RefundAmount":60000000000000\.01,/);
    assert.match(response.text, /"RefundAmount":30071992547409\.9,/);
    const refunds = (await sandbox.show('AMT-MAX')).bookings.map((shownBooking: { refunds: { amount: string }[] }) => shownBooking.refunds.map((refund) => refund.amount));
    assert.deepEqual(refunds, [['30000000000000.01', '30000000000000.00'], ['30071992547409.90']]);
  });
});

describe('changes import for an order stored before amounts were bounded', () => {
  test('refuses the file with one line naming the record and the order, and stores nothing of it', async () => {
    await sandbox.ok(['orders', 'import', '-'], { stdin: asNdjson([
      simpleOrder('AMT-FINE', 'AG1', 'FINE01', ticketNumber()),
      orderOf('AMT-OLD', [[ticketed('1.00', '0.00'), ticketed('1.00', '0.00')]]),
    ]) });
    // Written as an import before the bound would have stored it: two tickets of 2^53 - 1 minor units in one booking.
    const db = new Database(sandbox.dbFile);
    try {
      const row = db.prepare("select reference, passengers from bookings where order_id = 'AMT-OLD'").get() as { reference: string; passengers: string };
      const passengers = JSON.parse(row.passengers) as { ticket: { baseFare: number; taxes: number; coupons: { value: number }[] } }[];
      for (const { ticket } of passengers) {
        ticket.baseFare = Number.MAX_SAFE_INTEGER;
        ticket.taxes = 0;
        ticket.coupons.forEach((coupon, index) => { coupon.value = index === 0 ? Number.MAX_SAFE_INTEGER : 0; });
      }
      db.prepare("update bookings set passengers = ? where order_id = 'AMT-OLD'").run(JSON.stringify(passengers));
      const oldReference = row.reference;
      db.close();

      await refused(['changes', 'import'], asJsonArray([
        change('AMT-C1', 'AMT-FINE', 'FINE01', ['S1'], [segment('S1B', 1, 14)]),
        change('AMT-C2', 'AMT-OLD', oldReference, ['S1'], [], 'FLIGHT_CANCELLATION'),
      ]), `record 2: orderId AMT-OLD was stored before imports bounded its amounts: in booking ${oldReference}, `
        + `passengers[1].ticket brings the tickets of its booking to ${LIMIT}; correct the order and import it again (orders import --upsert)`);
    } finally {
      if (db.open) db.close();
    }
  });
});
