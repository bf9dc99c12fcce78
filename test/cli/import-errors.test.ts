import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { asJsonArray, asNdjson, CliSandbox } from '../helpers/cli.js';
import { booking, change, order, passenger, segment, simpleOrder } from '../helpers/documents.js';

const sandbox = new CliSandbox();
let counter = 0;
/** Ticket numbers unique across the whole file, so that good records never collide. */
const ticket = () => `23${String(++counter).padStart(11, '0')}`;
const good = (orderId: string) => simpleOrder(orderId, 'AG1', `G${String(++counter).padStart(5, '0')}`, ticket());

before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['orders', 'import', '-'], {
    stdin: asJsonArray([
      simpleOrder('EXIST-1', 'AG1', 'EXI001', '2299999999991'),
      order('FLOWN-1', 'AG1', 'EUR', [
        booking(
          'FLN001',
          [segment('S1', 1), segment('S2', 2)],
          [
            passenger('P1', {
              ticketNumber: '2299999999992',
              baseFare: '100.00',
              taxes: '0.00',
              coupons: [{ segmentId: 'S1', status: 'USED' }, { segmentId: 'S2' }],
            }),
          ],
        ),
      ]),
    ]),
  });
});
after(() => sandbox.cleanup());

/** Everything an import could have written. */
function snapshot() {
  return {
    orders: sandbox.query('select * from orders order by order_id'),
    bookings: sandbox.query('select * from bookings order by order_id, reference'),
    changes: sandbox.query('select * from airline_changes order by change_id'),
  };
}

/**
 * Runs an import that must fail: non-zero exit, one `error: …` line on stderr naming `expected`,
 * nothing written. The content comes on standard input, or from a file with `fromFile`.
 */
async function rejects(args: string[], content: string, expected: string | RegExp, fromFile = false): Promise<string> {
  const before = snapshot();
  const result = fromFile
    ? await sandbox.run([...args, sandbox.write(`rejected-${++counter}.ndjson`, content)])
    : await sandbox.run([...args, '-'], { stdin: content });
  assert.notEqual(result.code, 0, `expected failure, got: ${result.stdout}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line of error, not a stack trace:\n${result.stderr}`);
  if (typeof expected === 'string')
    assert.ok(
      lines[0]!.startsWith(`error: ${expected}`),
      `${JSON.stringify(lines[0])} should start with ${JSON.stringify(`error: ${expected}`)}`,
    );
  else assert.match(lines[0]!, expected);
  assert.deepEqual(snapshot(), before, 'an import with a bad record must store nothing');
  return lines[0]!;
}

function withTicket(orderId: string, currency: string, ticketFields: object, segments = [segment('S1')]) {
  return order(orderId, 'AG1', currency, [
    booking(`B${String(++counter).padStart(5, '0')}`, segments, [
      passenger('P1', {
        ticketNumber: ticket(),
        baseFare: '100',
        taxes: '0',
        coupons: segments.map((s) => ({ segmentId: s.segmentId })),
        ...ticketFields,
      }),
    ]),
  ]);
}

describe('orders import: every error names the record and the field, and stores nothing', () => {
  test('a ticket number that is not 13 digits', async () => {
    const bad = simpleOrder('BAD-TKT', 'AG1', 'BADTK1', '220123456789');
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-A1'), bad, good('OK-A3')]),
      'record 2 (order BAD-TKT): bookings[0].passengers[0].ticket.ticketNumber must be 13 digits',
    );
    await rejects(
      ['orders', 'import'],
      asNdjson([good('OK-A1'), good('OK-A2'), bad]),
      'line 3 (order BAD-TKT): bookings[0].passengers[0].ticket.ticketNumber must be 13 digits',
    );
  });

  test("a ticket issued later than the import, beyond the clocks' 5 minutes, in the file or from the console alike", async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-I1'), withTicket('FUTURE-1', 'EUR', { issuedAt: '2099-01-01T00:00:00Z' })]),
      /^error: record 2 \(order FUTURE-1\): bookings\[0\]\.passengers\[0\]\.ticket\.issuedAt is later than the import \(\d{4}-\d\d-\d\dT[\d:.]+Z\) by more than the 5 minutes clocks may differ: a ticket is issued before it is imported, got 2099-01-01T00:00:00Z$/,
    );
    const tenMinutesAhead = new Date(Date.now() + 10 * 60_000).toISOString();
    await rejects(
      ['orders', 'import'],
      asNdjson([withTicket('FUTURE-2', 'EUR', { issuedAt: tenMinutesAhead })]),
      `line 1 (order FUTURE-2): bookings[0].passengers[0].ticket.issuedAt is later than the import`,
    );
    // Within the clocks' skew, and in the past, a ticket is imported.
    const twoMinutesAhead = new Date(Date.now() + 2 * 60_000).toISOString();
    await sandbox.ok(['orders', 'import', '-'], {
      stdin: asNdjson([
        withTicket('SKEWED-1', 'EUR', { issuedAt: twoMinutesAhead }),
        withTicket('ISSUED-1', 'EUR', { issuedAt: '2026-01-01T00:00:00Z' }),
      ]),
    });
    assert.deepEqual(
      sandbox.query("select order_id from orders where order_id in ('SKEWED-1', 'ISSUED-1') order by order_id"),
      [{ order_id: 'ISSUED-1' }, { order_id: 'SKEWED-1' }],
    );
  });

  test('invalid JSON, as NDJSON names the line', async () => {
    const content = `${JSON.stringify(good('OK-J1'))}\n\n{"orderId": "OK-J2",\n${JSON.stringify(good('OK-J3'))}\n`;
    await rejects(['orders', 'import'], content, /^error: line 3: is not valid JSON/);
  });

  test('invalid JSON in a JSON array names the line where it breaks', async () => {
    const content = `[\n${JSON.stringify(good('OK-J4'))},\n${JSON.stringify(good('OK-J5'))},\n]\n`;
    await rejects(['orders', 'import'], content, /^error: line 4: is not valid JSON/);
  });

  test('invalid JSON in a pretty-printed single object names the line where it breaks, not its first line', async () => {
    const content = '{\n  "orderId": "OK-J6",\n  "agencyId": "AG1"\n  "currency": "EUR"\n}\n';
    await rejects(['orders', 'import'], content, /^error: line 4: is not valid JSON/);
  });

  test('a record larger than one record may be is refused, named, before it is held whole', async () => {
    const values = `[${'0,'.repeat(500_000)}0]`;
    await rejects(
      ['orders', 'import'],
      `[${JSON.stringify(good('OK-L1'))},\n{"orderId": "HUGE-1", "bookings": ${values}}]`,
      'record 2: holds more than 500,000 values, the most one record may hold',
    );
    await rejects(
      ['orders', 'import'],
      `${JSON.stringify(good('OK-L2'))}\n{"orderId": "HUGE-2", "bookings": ${values}}\n`,
      'line 2: holds more than 500,000 values, the most one record may hold',
    );
    await rejects(
      ['orders', 'import'],
      `{\n"orderId": "HUGE-3",\n"agencyId": "${'A'.repeat(17 * 1024 * 1024)}"\n}\n`,
      'record 1: is larger than 16 MiB, the most one record may take',
      true,
    );
  });

  test('a record that is not an object', async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-N1'), 42 as unknown as object]),
      'record 2: the record must be a JSON object',
    );
  });

  test('a record without a readable orderId is named without one', async () => {
    const withoutId: Record<string, unknown> = good('NO-ID');
    delete withoutId.orderId;
    await rejects(['orders', 'import'], asNdjson([good('OK-N2'), withoutId]), 'line 2: orderId is required');
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-N2'), good('BAD ID')]),
      'record 2: orderId must be 1 to 64 letters, digits or - _ . /, got "BAD ID"',
    );
    // An error in another field of such a record is named without the order, too.
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-N2'), { ...good('BAD ID'), currency: 'XYZ' }]),
      'record 2: currency is not an ISO 4217 currency: XYZ',
    );
  });

  test('an unknown agency, after a good record that would have been written first', async () => {
    const bad = { ...good('BAD-AGENCY'), agencyId: 'NOBODY' };
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-B1'), bad, good('OK-B3')]),
      'record 2 (order BAD-AGENCY): agencyId names no agency: NOBODY',
    );
  });

  test('an existing orderId without --upsert', async () => {
    await rejects(
      ['orders', 'import'],
      asNdjson([good('OK-C1'), good('EXIST-1'), good('OK-C3')]),
      'line 2 (order EXIST-1): orderId EXIST-1 exists already',
    );
  });

  test('with --upsert, a bad record leaves the order that would have been replaced as it was', async () => {
    const before = await sandbox.show('EXIST-1');
    await rejects(
      ['orders', 'import', '--upsert'],
      asJsonArray([
        { ...good('EXIST-1'), currency: 'USD' },
        { ...good('BAD-UP'), agencyId: 'NOBODY' },
      ]),
      'record 2 (order BAD-UP): agencyId names no agency: NOBODY',
    );
    assert.deepEqual(await sandbox.show('EXIST-1'), before);
  });

  test('the same orderId twice in one file', async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('DUP-1'), good('OK-D2'), good('DUP-1')]),
      'record 3 (order DUP-1): orderId repeats DUP-1 of record 1',
    );
    await rejects(
      ['orders', 'import', '--upsert'],
      asNdjson([good('DUP-1'), good('DUP-1')]),
      'line 2 (order DUP-1): orderId repeats DUP-1 of line 1',
    );
  });

  test('an unknown currency', async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-E1'), { ...good('BAD-CUR'), currency: 'XYZ' }]),
      'record 2 (order BAD-CUR): currency is not an ISO 4217 currency: XYZ',
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-E1'), { ...good('BAD-CUR'), currency: 'eur' }]),
      'record 2 (order BAD-CUR): currency must be an ISO 4217 code',
    );
  });

  test('an amount with more decimals than JPY has (none)', async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-F1'), withTicket('BAD-JPY', 'JPY', { baseFare: '1000.5', taxes: '0' })]),
      /^error: record 2 \(order BAD-JPY\): bookings\[0\]\.passengers\[0\]\.ticket\.baseFare must be .*decimals of JPY/,
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-F1'),
        withTicket('BAD-JPY', 'JPY', { baseFare: '1000', taxes: '0', coupons: [{ segmentId: 'S1', value: '1000.0' }] }),
      ]),
      /^error: record 2 \(order BAD-JPY\): bookings\[0\]\.passengers\[0\]\.ticket\.coupons\[0\]\.value must be .*decimals of JPY/,
    );
  });

  test('an amount with more decimals than KWD has (three)', async () => {
    await rejects(
      ['orders', 'import'],
      asNdjson([good('OK-G1'), withTicket('BAD-KWD', 'KWD', { baseFare: '10.000', taxes: '1.0005' })]),
      /^error: line 2 \(order BAD-KWD\): bookings\[0\]\.passengers\[0\]\.ticket\.taxes must be .*decimals of KWD/,
    );
    // Three decimals are fine for KWD.
    const fine = await sandbox.run(['orders', 'import', '-'], {
      stdin: JSON.stringify(withTicket('OK-KWD', 'KWD', { baseFare: '10.125', taxes: '1.005' })),
    });
    assert.equal(fine.code, 0, fine.stderr);
    assert.equal((await sandbox.show('OK-KWD')).bookings[0].passengers[0].ticket.coupons[0].value, '11.130');
  });

  test('amounts that are not decimal strings', async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-H1'), withTicket('BAD-NUM', 'EUR', { baseFare: 450 })]),
      'record 2 (order BAD-NUM): bookings[0].passengers[0].ticket.baseFare must be a decimal string',
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-H1'), withTicket('BAD-NEG', 'EUR', { taxes: '-1.00' })]),
      'record 2 (order BAD-NEG): bookings[0].passengers[0].ticket.taxes must be a non-negative decimal',
    );
  });

  test('coupon values that do not sum to base fare + taxes', async () => {
    const segments = [segment('S1', 1), segment('S2', 2)];
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-I1'),
        withTicket(
          'BAD-SUM',
          'EUR',
          {
            baseFare: '100.00',
            taxes: '20.00',
            coupons: [
              { segmentId: 'S1', value: '60.00' },
              { segmentId: 'S2', value: '59.99' },
            ],
          },
          segments,
        ),
      ]),
      'record 2 (order BAD-SUM): bookings[0].passengers[0].ticket.coupons values must sum to baseFare + taxes',
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-I1'),
        withTicket(
          'BAD-PART',
          'EUR',
          {
            baseFare: '100.00',
            taxes: '20.00',
            coupons: [{ segmentId: 'S1', value: '120.00' }, { segmentId: 'S2' }],
          },
          segments,
        ),
      ]),
      'record 2 (order BAD-PART): bookings[0].passengers[0].ticket.coupons must give a value on every coupon or on none',
    );
  });

  test('a coupon on a segment the booking does not have', async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([good('OK-K1'), withTicket('BAD-SEG', 'EUR', { coupons: [{ segmentId: 'S9' }] })]),
      'record 2 (order BAD-SEG): bookings[0].passengers[0].ticket.coupons[0].segmentId names no segment of this booking: S9',
    );
  });

  test('duplicate references: booking references (case-insensitive), ticket numbers, segments, passengers, coupons', async () => {
    const ticketDoc = (number: string) => ({
      ticketNumber: number,
      baseFare: '10.00',
      taxes: '0.00',
      coupons: [{ segmentId: 'S1' }],
    });
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-L1'),
        order('BAD-REF', 'AG1', 'EUR', [
          booking('DUPREF', [segment('S1')], [passenger('P1', ticketDoc(ticket()))]),
          booking('dupref', [segment('S1')], [passenger('P1', ticketDoc(ticket()))]),
        ]),
      ]),
      'record 2 (order BAD-REF): bookings[1] repeats the gdsBookingReference DUPREF',
    );
    const same = ticket();
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-L1'),
        order('BAD-TKT2', 'AG1', 'EUR', [
          booking('TKTA01', [segment('S1')], [passenger('P1', ticketDoc(same))]),
          booking('TKTB01', [segment('S1')], [passenger('P1', ticketDoc(same))]),
        ]),
      ]),
      `record 2 (order BAD-TKT2): bookings[1].passengers[0].ticket.ticketNumber repeats the ticketNumber ${same} of bookings[0].passengers[0]`,
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-L1'),
        order('BAD-TKT1', 'AG1', 'EUR', [
          booking('TKTC01', [segment('S1')], [passenger('P1', ticketDoc(same)), passenger('P2', ticketDoc(same))]),
        ]),
      ]),
      `record 2 (order BAD-TKT1): bookings[0].passengers[1].ticket.ticketNumber repeats the ticketNumber ${same} of bookings[0].passengers[0]`,
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-L1'),
        order('BAD-SEG2', 'AG1', 'EUR', [
          booking('SEGD01', [segment('S1', 1), segment('S1', 2)], [passenger('P1', null)]),
        ]),
      ]),
      'record 2 (order BAD-SEG2): bookings[0].segments[1] repeats the segmentId S1',
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-L1'),
        order('BAD-PAX', 'AG1', 'EUR', [
          booking('PAXD01', [segment('S1')], [passenger('P1', null), passenger('P1', null)]),
        ]),
      ]),
      'record 2 (order BAD-PAX): bookings[0].passengers[1] repeats the passengerId P1',
    );
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-L1'),
        withTicket('BAD-CPN', 'EUR', { coupons: [{ segmentId: 'S1' }, { segmentId: 'S1' }] }),
      ]),
      'record 2 (order BAD-CPN): bookings[0].passengers[0].ticket.coupons[1] repeats the segment S1',
    );
  });

  test('a ticket without a coupon for every segment of its booking', async () => {
    await rejects(
      ['orders', 'import'],
      asJsonArray([
        good('OK-M1'),
        withTicket('BAD-COVER', 'EUR', { coupons: [{ segmentId: 'S2' }] }, [segment('S1', 1), segment('S2', 2)]),
      ]),
      'record 2 (order BAD-COVER): bookings[0].passengers[0].ticket.coupons has no coupon for segment S1: a ticket has one coupon per segment of its booking',
    );
  });

  test('nothing of any rejected file was stored', () => {
    assert.deepEqual(
      sandbox.query(
        "select order_id from orders where order_id not in ('EXIST-1', 'FLOWN-1', 'OK-KWD', 'ISSUED-1', 'SKEWED-1') order by order_id",
      ),
      [],
    );
  });
});

describe('changes import: every error names the record and the field, and stores nothing', () => {
  const goodChange = (changeId: string) => change(changeId, 'EXIST-1', 'EXI001', ['S1'], [segment('S1B', 1, 14)]);

  test('a change naming an unknown order', async () => {
    await rejects(
      ['changes', 'import'],
      asJsonArray([goodChange('AIC-G1'), change('AIC-X', 'NO-ORDER', 'EXI001', ['S1'], [])]),
      'record 2 (order NO-ORDER): orderId names no order: NO-ORDER',
    );
  });

  test('a change naming an unknown booking', async () => {
    await rejects(
      ['changes', 'import'],
      asNdjson([goodChange('AIC-G1'), change('AIC-X', 'EXIST-1', 'NOBOOK', ['S1'], [])]),
      'line 2 (order EXIST-1): gdsBookingReference is not a booking of order EXIST-1: NOBOOK',
    );
  });

  test('a change removing a segment the booking does not have', async () => {
    await rejects(
      ['changes', 'import'],
      asJsonArray([goodChange('AIC-G1'), change('AIC-X', 'FLOWN-1', 'FLN001', ['S2', 'S7'], [])]),
      'record 2 (order FLOWN-1): removedSegments[1] names no segment of booking FLN001: S7',
    );
  });

  test('a change removing a segment an earlier change of the same file removed already', async () => {
    await rejects(
      ['changes', 'import'],
      asJsonArray([
        goodChange('AIC-G1'),
        change('AIC-G2', 'EXIST-1', 'EXI001', ['S1'], [], 'FLIGHT_CANCELLATION', '2026-11-21T08:00:00Z'),
      ]),
      'record 2 (order EXIST-1): removedSegments[0] names no segment of booking EXI001: S1',
    );
  });

  test('changes are checked in the order they were detected, which is the order they are accepted in', async () => {
    // Arrived second but detected first, AIC-E0 would remove S1B before AIC-E1 has added it.
    await rejects(
      ['changes', 'import'],
      asJsonArray([
        change(
          'AIC-E1',
          'EXIST-1',
          'EXI001',
          ['S1'],
          [segment('S1B', 1, 14)],
          'SCHEDULE_CHANGE',
          '2026-11-20T08:00:00Z',
        ),
        change(
          'AIC-E0',
          'EXIST-1',
          'EXI001',
          ['S1B'],
          [segment('S1C', 1, 16)],
          'SCHEDULE_CHANGE',
          '2026-11-19T08:00:00Z',
        ),
      ]),
      'record 2 (order EXIST-1): removedSegments[0] names no segment of booking EXI001: S1B',
    );
    // Detected first, AIC-E0 takes S1 away before AIC-E1, detected later, could remove it.
    await rejects(
      ['changes', 'import'],
      asJsonArray([
        change(
          'AIC-E1',
          'EXIST-1',
          'EXI001',
          ['S1'],
          [segment('S1B', 1, 14)],
          'SCHEDULE_CHANGE',
          '2026-11-20T08:00:00Z',
        ),
        change(
          'AIC-E0',
          'EXIST-1',
          'EXI001',
          ['S1'],
          [segment('S1X', 1, 16)],
          'SCHEDULE_CHANGE',
          '2026-11-19T08:00:00Z',
        ),
      ]),
      'record 2 (order EXIST-1): removedSegments removes S1, which change AIC-E1, detected later (2026-11-20T08:00:00.000Z), removes too',
    );
  });

  test('a changeId stored, or earlier in the file, for another booking: not a resend, an error', async () => {
    await rejects(
      ['changes', 'import'],
      asJsonArray([
        change('AIC-R1', 'EXIST-1', 'EXI001', ['S1'], [segment('S1B', 1, 14)]),
        change('AIC-R1', 'FLOWN-1', 'FLN001', ['S2'], [segment('S2B', 2, 14)]),
      ]),
      'record 2 (order FLOWN-1): changeId AIC-R1 is already the id of a change of order EXIST-1, booking EXI001',
    );
  });

  test('a change adding a segment id the booking already has', async () => {
    await rejects(
      ['changes', 'import'],
      asJsonArray([goodChange('AIC-G1'), change('AIC-X', 'FLOWN-1', 'FLN001', ['S2'], [segment('S1', 3)])]),
      'record 2 (order FLOWN-1): addedSegments[0].segmentId S1 is already a segment of booking FLN001',
    );
  });

  test('a change removing a flown segment', async () => {
    await rejects(
      ['changes', 'import'],
      asJsonArray([goodChange('AIC-G1'), change('AIC-X', 'FLOWN-1', 'FLN001', ['S1'], [segment('S1B', 1, 14)])]),
      'record 2 (order FLOWN-1): removedSegments[0] S1 has been flown and cannot be changed',
    );
  });

  test('field errors in the change document itself', async () => {
    await rejects(
      ['changes', 'import'],
      asJsonArray([goodChange('AIC-G1'), { ...goodChange('AIC-X'), kind: 'STRIKE' }]),
      'record 2 (order EXIST-1): kind must be one of SCHEDULE_CHANGE, FLIGHT_CANCELLATION, ROUTING_CHANGE',
    );
    await rejects(
      ['changes', 'import'],
      asJsonArray([
        goodChange('AIC-G1'),
        { ...goodChange('AIC-X'), addedSegments: [{ ...segment('S1B'), departure: 'tomorrow' }] },
      ]),
      'record 2 (order EXIST-1): addedSegments[0].departure must be an ISO-8601 date-time',
    );
    await rejects(
      ['changes', 'import'],
      asJsonArray([goodChange('AIC-G1'), { ...goodChange('AIC-X'), removedSegments: [], addedSegments: [] }]),
      'record 2 (order EXIST-1): removedSegments and addedSegments are both empty',
    );
    await rejects(
      ['changes', 'import'],
      `${JSON.stringify(goodChange('AIC-G1'))}\nnot json\n`,
      /^error: line 2: is not valid JSON/,
    );
  });

  test('nothing of any rejected file was stored', () => {
    assert.deepEqual(sandbox.query('select change_id from airline_changes'), []);
  });
});

describe('orders import of more records than one batch (500)', () => {
  const many = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => good(`${prefix}-${index + 1}`));

  test('a bad record after two batches of good ones stores nothing, from a file as from standard input', async () => {
    const content = asNdjson([...many('LATE', 1_100), simpleOrder('BAD-LATE', 'AG1', 'BADLT1', '12345')]);
    const expected = 'line 1101 (order BAD-LATE): bookings[0].passengers[0].ticket.ticketNumber must be 13 digits';
    await rejects(['orders', 'import'], content, expected, true);
    await rejects(['orders', 'import'], content, expected);
  });

  test('a record of an unknown agency in the third batch stores nothing', async () => {
    await rejects(
      ['orders', 'import'],
      asNdjson([...many('LATE', 1_050), { ...good('BAD-AG'), agencyId: 'NOBODY' }]),
      'line 1051 (order BAD-AG): agencyId names no agency: NOBODY',
      true,
    );
  });

  test("a directory instead of a file: the system's reason on one line", async () => {
    const before = snapshot();
    const result = await sandbox.run(['orders', 'import', path.dirname(sandbox.write('probe.ndjson', ''))]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'error: EISDIR: illegal operation on a directory, read\n');
    assert.deepEqual(snapshot(), before);
  });

  test('every record of a file of three batches is stored, each with its audit event, in file order', async () => {
    const result = await sandbox.ok(['orders', 'import', sandbox.write('many.ndjson', asNdjson(many('MANY', 1_234)))]);
    assert.deepEqual(JSON.parse(result.stdout), { imported: 1_234, replaced: 0 });
    const stored = sandbox
      .query<{ order_id: string }>("select order_id from orders where order_id like 'MANY-%'")
      .map((row) => row.order_id);
    assert.deepEqual(new Set(stored), new Set(many('MANY', 1_234).map((document) => document.orderId)));
    // The log's keys grow in the order the entries were made: the file's.
    const audit = sandbox.query<{ order_id: string; sequence: number }>(
      "select order_id, sequence from audit_events where order_id like 'MANY-%' and event = 'ORDER_IMPORTED' order by event_id",
    );
    assert.deepEqual(
      audit.map((row) => row.order_id),
      Array.from({ length: 1_234 }, (_, index) => `MANY-${index + 1}`),
    );
    // Each order's import is its own row of the log, of one entry.
    assert.deepEqual(new Set(audit.map((row) => row.sequence)), new Set([0]));
  });
});
