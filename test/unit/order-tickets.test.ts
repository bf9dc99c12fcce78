import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readOrderDocument } from '../../src/documents/order-document.js';
import { booking, order, passenger, segment } from '../helpers/documents.js';
import { fieldRefusal } from '../helpers/refusals.js';

/**
 * A ticket of an order document (docs/contract.md §6, §11): its number and amounts, one coupon per
 * segment of its booking, the coupon values given on all or none (then the total split evenly,
 * the remainder to the first), and the optional issue time, tax breakdown and fare rules.
 */

const IMPORTED_AT = Date.parse('2026-11-01T00:00:00Z');
const AT = 'bookings[0].passengers[0].ticket';

/** Booking ABC123 over S1 and S2 (or the segments given), its one passenger P1 holding the ticket given. */
function withTicket(
  ticket: Record<string, unknown>,
  segments = [segment('S1', 1), segment('S2', 8)],
  currency = 'EUR',
) {
  return order('ORD-1001', 'AGT042', currency, [booking('ABC123', segments, [{ ...passenger('P1', null), ticket }])]);
}

const TICKET = {
  ticketNumber: '2201234567890',
  baseFare: '100.00',
  taxes: '20.01',
  coupons: [{ segmentId: 'S1' }, { segmentId: 'S2' }],
};

function read(fields: Record<string, unknown>, segments?: ReturnType<typeof segment>[], currency?: string) {
  return readOrderDocument(withTicket({ ...TICKET, ...fields }, segments, currency), IMPORTED_AT).bookings[0]!
    .passengers[0]!.ticket!;
}

function refusal(fields: Record<string, unknown>, segments?: ReturnType<typeof segment>[], currency?: string) {
  return fieldRefusal(() => read(fields, segments, currency));
}

test('a ticket without coupon values shares its total evenly, the remainder to the first coupon', () => {
  assert.deepEqual(read({}), {
    ticketNumber: '2201234567890',
    baseFare: 10000,
    taxes: 2001,
    coupons: [
      { segmentId: 'S1', status: 'OPEN', value: 6001 },
      { segmentId: 'S2', status: 'OPEN', value: 6000 },
    ],
  });
  const three = [segment('S1', 1), segment('S2', 8), segment('S3', 9)];
  const coupons = [{ segmentId: 'S1' }, { segmentId: 'S2' }, { segmentId: 'S3' }];
  assert.deepEqual(
    read({ baseFare: '100.00', taxes: '0', coupons }, three).coupons.map((coupon) => coupon.value),
    [3334, 3333, 3333],
  );
  assert.deepEqual(
    read({ baseFare: '1', taxes: '0', coupons: [{ segmentId: 'S1' }] }, [segment('S1')], 'JPY').coupons,
    [{ segmentId: 'S1', status: 'OPEN', value: 1 }],
  );
});

test('coupon values, when given on every coupon, are kept if they add up to baseFare + taxes', () => {
  const coupons = [
    { segmentId: 'S1', value: '0.01' },
    { segmentId: 'S2', value: '120.00' },
  ];
  assert.deepEqual(read({ coupons }).coupons, [
    { segmentId: 'S1', status: 'OPEN', value: 1 },
    { segmentId: 'S2', status: 'OPEN', value: 12000 },
  ]);
});

test('coupon values that do not add up to baseFare + taxes are refused, by one minor unit either way', () => {
  for (const last of ['120.01', '119.99']) {
    assert.deepEqual(
      refusal({
        coupons: [
          { segmentId: 'S1', value: '0.01' },
          { segmentId: 'S2', value: last },
        ],
      }),
      {
        field: `${AT}.coupons`,
        problem: 'values must sum to baseFare + taxes',
      },
    );
  }
});

test('coupon values are given on every coupon or on none', () => {
  for (const coupons of [
    [{ segmentId: 'S1', value: '120.01' }, { segmentId: 'S2' }],
    [{ segmentId: 'S1' }, { segmentId: 'S2', value: '120.01' }],
  ]) {
    assert.deepEqual(refusal({ coupons }), {
      field: `${AT}.coupons`,
      problem: 'must give a value on every coupon or on none',
    });
  }
  assert.deepEqual(
    refusal({
      coupons: [
        { segmentId: 'S1', value: '120.01' },
        { segmentId: 'S2', value: 1 },
      ],
    }),
    {
      field: `${AT}.coupons[1].value`,
      problem: 'must be a decimal string such as "450.00"',
    },
  );
});

test('a coupon status is OPEN when missing, or one of OPEN, USED, REFUNDED', () => {
  const statuses = ['USED', 'REFUNDED'].map(
    (status) =>
      read({
        coupons: [
          { segmentId: 'S1', status },
          { segmentId: 'S2', status: 'OPEN' },
        ],
      }).coupons[0]!.status,
  );
  assert.deepEqual(statuses, ['USED', 'REFUNDED']);
  assert.deepEqual(refusal({ coupons: [{ segmentId: 'S1' }, { segmentId: 'S2', status: 'FLOWN' }] }), {
    field: `${AT}.coupons[1].status`,
    problem: 'must be one of OPEN, USED, REFUNDED, got "FLOWN"',
  });
});

test('1 to 16 coupons, each a JSON object', () => {
  const sixteen = Array.from({ length: 16 }, (_, index) => segment(`S${index + 1}`, index + 1));
  const coupons = sixteen.map((flight) => ({ segmentId: flight.segmentId }));
  assert.equal(read({ coupons }, sixteen).coupons.length, 16);
  assert.deepEqual(refusal({ coupons: [...coupons, { segmentId: 'S1' }] }, sixteen), {
    field: `${AT}.coupons`,
    problem: 'must have 1 to 16 entries, has 17',
  });
  assert.deepEqual(refusal({ coupons: [] }), { field: `${AT}.coupons`, problem: 'must have 1 to 16 entries, has 0' });
  assert.deepEqual(refusal({ coupons: undefined }), { field: `${AT}.coupons`, problem: 'must be an array' });
  assert.deepEqual(refusal({ coupons: [{ segmentId: 'S1' }, 'S2'] }), {
    field: `${AT}.coupons[1]`,
    problem: 'must be a JSON object',
  });
});

test('a coupon names a segment of its own booking', () => {
  assert.deepEqual(refusal({ coupons: [{ segmentId: 'S1' }, {}] }), {
    field: `${AT}.coupons[1].segmentId`,
    problem: 'is required',
  });
  assert.deepEqual(refusal({ coupons: [{ segmentId: 'S1' }, { segmentId: '' }] }), {
    field: `${AT}.coupons[1].segmentId`,
    problem: 'must name a segment, got ""',
  });
  for (const segmentId of ['S2\n', '\nS2']) {
    assert.deepEqual(refusal({ coupons: [{ segmentId: 'S1' }, { segmentId }] }), {
      field: `${AT}.coupons[1].segmentId`,
      problem: `must name a segment, got ${JSON.stringify(segmentId)}`,
    });
  }
  assert.deepEqual(refusal({ coupons: [{ segmentId: 'S1' }, { segmentId: 'S9' }] }), {
    field: `${AT}.coupons[1].segmentId`,
    problem: 'names no segment of this booking: S9',
  });
});

test('one coupon per segment: a segment twice, or a segment without its coupon, is refused', () => {
  assert.deepEqual(refusal({ coupons: [{ segmentId: 'S1' }, { segmentId: 'S1' }] }), {
    field: `${AT}.coupons[1]`,
    problem: 'repeats the segment S1',
  });
  for (const covered of ['S1', 'S2']) {
    const uncovered = covered === 'S1' ? 'S2' : 'S1';
    assert.deepEqual(refusal({ coupons: [{ segmentId: covered }] }), {
      field: `${AT}.coupons`,
      problem: `has no coupon for segment ${uncovered}: a ticket has one coupon per segment of its booking`,
    });
  }
});

test('ticketNumber: 13 digits', () => {
  assert.equal(read({ ticketNumber: '0000000000000' }).ticketNumber, '0000000000000');
  for (const ticketNumber of ['220123456789', '22012345678901', '220123456789X', '']) {
    assert.deepEqual(refusal({ ticketNumber }), {
      field: `${AT}.ticketNumber`,
      problem: `must be 13 digits, got ${JSON.stringify(ticketNumber)}`,
    });
  }
  assert.deepEqual(refusal({ ticketNumber: 2201234567890 }), {
    field: `${AT}.ticketNumber`,
    problem: 'must be a string',
  });
});

test("baseFare and taxes are amounts of the order's currency", () => {
  assert.deepEqual(refusal({ baseFare: '100.001' }), {
    field: `${AT}.baseFare`,
    problem: 'must be a non-negative decimal with at most the decimals of EUR, got "100.001"',
  });
  assert.deepEqual(refusal({ taxes: 20 }), {
    field: `${AT}.taxes`,
    problem: 'must be a decimal string such as "450.00"',
  });
  assert.deepEqual(refusal({ baseFare: '100', taxes: '1.5' }, undefined, 'JPY'), {
    field: `${AT}.taxes`,
    problem: 'must be a non-negative decimal with at most the decimals of JPY, got "1.5"',
  });
});

test('issuedAt, taxBreakdown and fareRules are kept only when given', () => {
  const plain = read({});
  assert.deepEqual(Object.keys(plain), ['ticketNumber', 'baseFare', 'taxes', 'coupons']);
  const full = read({
    issuedAt: '2026-10-01T10:00:00+02:00',
    taxBreakdown: [
      { code: 'YQ', amount: '20.00', refundable: false },
      { code: 'DE', amount: '0.01' },
    ],
    fareRules: { refundable: true, penaltyPercent: '12.5' },
  });
  assert.equal(full.issuedAt, '2026-10-01T10:00:00+02:00');
  assert.deepEqual(full.taxBreakdown, [
    { code: 'YQ', amount: 2000, refundable: false },
    { code: 'DE', amount: 1 },
  ]);
  assert.deepEqual(full.fareRules, { refundable: true, penaltyBasisPoints: 1250 });
});

test('issuedAt, taxBreakdown and fareRules are checked at their path when given', () => {
  assert.deepEqual(refusal({ issuedAt: '2026-10-01' }), {
    field: `${AT}.issuedAt`,
    problem: 'must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z, got "2026-10-01"',
  });
  assert.deepEqual(refusal({ taxBreakdown: [{ code: 'YQ', amount: '20.00' }] }), {
    field: `${AT}.taxBreakdown`,
    problem: "amounts add up to 20.00, not to the ticket's taxes 20.01",
  });
  assert.deepEqual(refusal({ fareRules: { refundable: true, penalty: '1.001' } }), {
    field: `${AT}.fareRules.penalty`,
    problem: 'must be a non-negative decimal with at most the decimals of EUR, got "1.001"',
  });
});

test('coupon values of a ticket at the largest amount must still add up to it', () => {
  const coupons = [
    { segmentId: 'S1', value: '1.00' },
    { segmentId: 'S2', value: '1.00' },
  ];
  assert.deepEqual(refusal({ baseFare: '9999999999999.98', taxes: '0.01', coupons }), {
    field: `${AT}.coupons`,
    problem: 'values must sum to baseFare + taxes',
  });
});

test('a ticket past the largest amount is refused for its total, whatever its coupon values', () => {
  const coupons = [
    { segmentId: 'S1', value: '1.00' },
    { segmentId: 'S2', value: '1.00' },
  ];
  assert.deepEqual(refusal({ baseFare: '9999999999999.99', taxes: '0.01', coupons }), {
    field: AT,
    problem:
      'has baseFare + taxes of more than 9999999999999.99 EUR (999999999999999 minor units), the largest sum the service keeps exact',
  });
});
