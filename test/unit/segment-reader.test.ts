import assert from 'node:assert/strict';
import { test } from 'node:test';
import { child } from '../../src/documents/field-path.js';
import { readSegment } from '../../src/documents/segment-reader.js';
import { fieldRefusal } from '../helpers/refusals.js';

/** A flight segment of an order or of an airline change: each field at its bounds, and the arrival after the departure. */

const PATH = child(child('bookings', 0), 'segments');
const AT = 'bookings[0].segments';

const FLIGHT = {
  segmentId: 'S1',
  carrier: 'LH',
  flightNumber: '400',
  origin: 'FRA',
  destination: 'JFK',
  departure: '2026-12-01T10:00:00Z',
  arrival: '2026-12-01T18:55:00Z',
};

function read(fields: Record<string, unknown>) {
  return readSegment({ ...FLIGHT, ...fields }, PATH);
}

function refusal(fields: Record<string, unknown>) {
  return fieldRefusal(() => read(fields));
}

test('a segment is read with every field as given, its times not rewritten', () => {
  const flight = { ...FLIGHT, departure: '2026-12-01T12:00:00+02:00', arrival: '2026-12-01T14:00-05:00' };
  assert.deepEqual(readSegment({ ...flight, extra: 'ignored' }, PATH), flight);
});

test('a segment that is not an object is refused at its path', () => {
  assert.deepEqual(
    fieldRefusal(() => readSegment('S1', PATH)),
    { field: AT, problem: 'must be a JSON object' },
  );
});

test('segmentId: 1 to 16 letters, digits, - or _', () => {
  for (const segmentId of ['S', 'aZ09-_', 'A'.repeat(16)]) assert.equal(read({ segmentId }).segmentId, segmentId);
  for (const segmentId of ['', 'A'.repeat(17), 'S 1', 'S.1', 'S/1', 'Sé']) {
    assert.deepEqual(refusal({ segmentId }), {
      field: `${AT}.segmentId`,
      problem: `must be 1 to 16 letters, digits, - or _, got ${JSON.stringify(segmentId)}`,
    });
  }
  assert.deepEqual(refusal({ segmentId: undefined }), { field: `${AT}.segmentId`, problem: 'is required' });
});

test('carrier: two capital letters or digits', () => {
  for (const carrier of ['LH', '4U', 'U2', '99']) assert.equal(read({ carrier }).carrier, carrier);
  for (const carrier of ['L', 'LHX', 'lh', 'L-', '']) {
    assert.deepEqual(refusal({ carrier }), {
      field: `${AT}.carrier`,
      problem: `must be a two-character airline code, got ${JSON.stringify(carrier)}`,
    });
  }
});

test('flightNumber: 1 to 4 digits, then at most one capital letter', () => {
  for (const flightNumber of ['1', '0400', '9999', '400A', '1Z']) {
    assert.equal(read({ flightNumber }).flightNumber, flightNumber);
  }
  for (const flightNumber of ['', '12345', 'A400', '400a', '400AB', '40 0', 'A']) {
    assert.deepEqual(refusal({ flightNumber }), {
      field: `${AT}.flightNumber`,
      problem: `must be 1 to 4 digits, optionally a letter, got ${JSON.stringify(flightNumber)}`,
    });
  }
});

test('origin and destination: three capital letters', () => {
  assert.deepEqual([read({ origin: 'CDG' }).origin, read({ destination: 'NRT' }).destination], ['CDG', 'NRT']);
  for (const field of ['origin', 'destination']) {
    for (const code of ['FR', 'FRAX', 'fra', 'FR1', '']) {
      assert.deepEqual(refusal({ [field]: code }), {
        field: `${AT}.${field}`,
        problem: `must be a three-letter airport code, got ${JSON.stringify(code)}`,
      });
    }
  }
});

test('departure and arrival are date-times with a zone, each named when it is not', () => {
  const rule = 'must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z';
  assert.deepEqual(refusal({ departure: '2026-12-01T10:00:00' }), {
    field: `${AT}.departure`,
    problem: `${rule}, got "2026-12-01T10:00:00"`,
  });
  assert.deepEqual(refusal({ arrival: '2026-12-01' }), {
    field: `${AT}.arrival`,
    problem: `${rule}, got "2026-12-01"`,
  });
  assert.deepEqual(refusal({ arrival: undefined }), { field: `${AT}.arrival`, problem: 'is required' });
});

test('an arrival before the departure is refused at the arrival; one at the same instant is read', () => {
  assert.deepEqual(refusal({ arrival: '2026-12-01T09:59:59Z' }), {
    field: `${AT}.arrival`,
    problem: 'is before the departure',
  });
  assert.equal(read({ arrival: FLIGHT.departure }).arrival, FLIGHT.departure);
});

test('departure and arrival are compared as instants, not as text', () => {
  // As text the arrival sorts first; as instants it is an hour after the departure (08:00Z, 09:00Z).
  const flight = read({ departure: '2026-12-01T10:00:00+02:00', arrival: '2026-12-01T09:00:00Z' });
  assert.equal(flight.arrival, '2026-12-01T09:00:00Z');
  // As text the arrival sorts last; as instants it is before the departure (10:00Z, 09:00Z).
  assert.deepEqual(refusal({ departure: '2026-12-01T10:00:00Z', arrival: '2026-12-01T10:30:00+01:30' }), {
    field: `${AT}.arrival`,
    problem: 'is before the departure',
  });
});
