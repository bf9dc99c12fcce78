import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readChangeDocument } from '../../src/documents/change-document.js';
import { fieldRefusal } from '../helpers/refusals.js';

/** The airline-change document (docs/contract.md §11): each field's rule, the defaults, and the id derived from the content. */

/** The contract's example. */
const ADDED = {
  segmentId: 'S1B',
  carrier: 'LH',
  flightNumber: '402',
  origin: 'FRA',
  destination: 'JFK',
  departure: '2026-12-01T14:00:00Z',
  arrival: '2026-12-01T22:55:00Z',
};

const CHANGE = {
  orderId: 'ORD-1001',
  gdsBookingReference: 'ABC123',
  kind: 'SCHEDULE_CHANGE',
  detectedAt: '2026-11-20T08:00:00Z',
  removedSegments: ['S1'],
  addedSegments: [ADDED],
};

function read(fields: Record<string, unknown>) {
  return readChangeDocument({ ...CHANGE, ...fields });
}

function refusal(fields: Record<string, unknown>) {
  return fieldRefusal(() => read(fields));
}

test('a change document is read into a pending change of its order and booking', () => {
  assert.deepEqual(readChangeDocument(CHANGE), {
    orderId: 'ORD-1001',
    reference: 'ABC123',
    change: {
      changeId: 'AIC-373d920bd14c3023a40d',
      kind: 'SCHEDULE_CHANGE',
      detectedAt: '2026-11-20T08:00:00.000Z',
      removedSegments: ['S1'],
      addedSegments: [ADDED],
      status: 'PENDING',
      actionDeadline: null,
      consequenceOfInaction: 'ACCEPT',
    },
  });
});

test('a change that is not a JSON object is refused as the record', () => {
  for (const value of [null, [CHANGE], 'change']) {
    assert.deepEqual(
      fieldRefusal(() => readChangeDocument(value)),
      { field: 'the record', problem: 'must be a JSON object' },
    );
  }
});

test('orderId: 1 to 64 letters, digits or - _ . /', () => {
  for (const orderId of ['O', 'a-Z_0.9/x', 'O'.repeat(64)]) assert.equal(read({ orderId }).orderId, orderId);
  for (const orderId of ['', 'O'.repeat(65), 'ORD 1', 'ORD#1', 'ORDé']) {
    assert.deepEqual(refusal({ orderId }), {
      field: 'orderId',
      problem: `must be 1 to 64 letters, digits or - _ . /, got ${JSON.stringify(orderId)}`,
    });
  }
  assert.deepEqual(refusal({ orderId: undefined }), { field: 'orderId', problem: 'is required' });
});

test('gdsBookingReference: 5 to 8 letters or digits, read in capitals', () => {
  assert.equal(read({ gdsBookingReference: 'abc12' }).reference, 'ABC12');
  assert.equal(read({ gdsBookingReference: 'Abcd1234' }).reference, 'ABCD1234');
  for (const gdsBookingReference of ['ABC1', 'ABCD12345', 'ABC-12', 'ABC 12', '']) {
    assert.deepEqual(refusal({ gdsBookingReference }), {
      field: 'gdsBookingReference',
      problem: `must be 5 to 8 letters or digits, got ${JSON.stringify(gdsBookingReference)}`,
    });
  }
});

test('kind: one of the three kinds of airline change', () => {
  for (const kind of ['SCHEDULE_CHANGE', 'FLIGHT_CANCELLATION', 'ROUTING_CHANGE']) {
    assert.equal(read({ kind }).change.kind, kind);
  }
  for (const kind of ['schedule_change', 'DELAY', undefined]) {
    assert.deepEqual(refusal({ kind }), {
      field: 'kind',
      problem: `must be one of SCHEDULE_CHANGE, FLIGHT_CANCELLATION, ROUTING_CHANGE, got ${JSON.stringify(kind)}`,
    });
  }
});

test('detectedAt: a date-time with a zone, kept as the instant in UTC', () => {
  assert.equal(read({ detectedAt: '2026-11-20T09:30:00.5+01:30' }).change.detectedAt, '2026-11-20T08:00:00.500Z');
  assert.deepEqual(refusal({ detectedAt: '2026-11-20T08:00:00' }), {
    field: 'detectedAt',
    problem: 'must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z, got "2026-11-20T08:00:00"',
  });
  assert.deepEqual(refusal({ detectedAt: undefined }), { field: 'detectedAt', problem: 'is required' });
});

test('removedSegments: missing or null is none; 0 to 16 segment ids, each once', () => {
  assert.deepEqual(read({ removedSegments: undefined }).change.removedSegments, []);
  assert.deepEqual(read({ removedSegments: null }).change.removedSegments, []);
  const sixteen = Array.from({ length: 16 }, (_, index) => `S${index}`);
  assert.deepEqual(read({ removedSegments: sixteen }).change.removedSegments, sixteen);
  assert.deepEqual(refusal({ removedSegments: [...sixteen, 'S16'] }), {
    field: 'removedSegments',
    problem: 'must have 0 to 16 entries, has 17',
  });
  assert.deepEqual(refusal({ removedSegments: 'S1' }), { field: 'removedSegments', problem: 'must be an array' });
  assert.deepEqual(refusal({ removedSegments: ['S1', 'S 2'] }), {
    field: 'removedSegments[1]',
    problem: 'must be a segmentId, got "S 2"',
  });
  assert.deepEqual(refusal({ removedSegments: ['S1', 'A'.repeat(17)] }), {
    field: 'removedSegments[1]',
    problem: `must be a segmentId, got "${'A'.repeat(17)}"`,
  });
  assert.deepEqual(refusal({ removedSegments: ['S1', 'S2', 'S1'] }), {
    field: 'removedSegments[2]',
    problem: 'repeats the segmentId S1',
  });
});

test('addedSegments: missing or null is none; 0 to 16 flights, each read as a segment, each segmentId once', () => {
  const cancellation = { kind: 'FLIGHT_CANCELLATION', consequenceOfInaction: undefined };
  assert.deepEqual(read({ ...cancellation, addedSegments: undefined }).change.addedSegments, []);
  assert.deepEqual(read({ ...cancellation, addedSegments: null }).change.addedSegments, []);
  const sixteen = Array.from({ length: 16 }, (_, index) => ({ ...ADDED, segmentId: `N${index}` }));
  assert.deepEqual(read({ addedSegments: sixteen }).change.addedSegments, sixteen);
  assert.deepEqual(refusal({ addedSegments: [...sixteen, { ...ADDED, segmentId: 'N16' }] }), {
    field: 'addedSegments',
    problem: 'must have 0 to 16 entries, has 17',
  });
  assert.deepEqual(refusal({ addedSegments: [ADDED, { ...ADDED, origin: 'fra' }] }), {
    field: 'addedSegments[1].origin',
    problem: 'must be a three-letter airport code, got "fra"',
  });
  assert.deepEqual(refusal({ addedSegments: [ADDED, { ...ADDED, flightNumber: '9' }] }), {
    field: 'addedSegments[1]',
    problem: 'repeats the segmentId S1B',
  });
});

test('a change that removes nothing and adds nothing is refused', () => {
  for (const fields of [
    { removedSegments: [], addedSegments: [] },
    { removedSegments: undefined, addedSegments: undefined },
  ]) {
    assert.deepEqual(refusal(fields), {
      field: 'removedSegments',
      problem: 'and addedSegments are both empty: the change changes nothing',
    });
  }
  assert.deepEqual(read({ removedSegments: [], addedSegments: [ADDED] }).change.removedSegments, []);
  assert.deepEqual(read({ removedSegments: ['S1'], addedSegments: [] }).change.addedSegments, []);
});

test('actionDeadline: missing or null is no deadline; given, it is a date-time kept as the instant in UTC', () => {
  assert.equal(read({ actionDeadline: undefined }).change.actionDeadline, null);
  assert.equal(read({ actionDeadline: null }).change.actionDeadline, null);
  assert.equal(read({ actionDeadline: '2026-11-25T12:00:00-03:00' }).change.actionDeadline, '2026-11-25T15:00:00.000Z');
  assert.deepEqual(refusal({ actionDeadline: 'tomorrow' }), {
    field: 'actionDeadline',
    problem: 'must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z, got "tomorrow"',
  });
  assert.deepEqual(refusal({ actionDeadline: 1 }), { field: 'actionDeadline', problem: 'must be a string' });
});

test('consequenceOfInaction defaults to ACCEPT when the change adds flights, to CANCEL when it only removes', () => {
  assert.equal(read({}).change.consequenceOfInaction, 'ACCEPT');
  assert.equal(read({ addedSegments: [] }).change.consequenceOfInaction, 'CANCEL');
  assert.equal(
    read({ removedSegments: [], actionDeadline: '2026-11-25T12:00:00Z' }).change.consequenceOfInaction,
    'ACCEPT',
  );
});

test('consequenceOfInaction given is kept: CANCEL with added flights, ACCEPT or CANCEL', () => {
  assert.equal(read({ consequenceOfInaction: 'CANCEL' }).change.consequenceOfInaction, 'CANCEL');
  assert.equal(read({ consequenceOfInaction: 'ACCEPT' }).change.consequenceOfInaction, 'ACCEPT');
  assert.equal(read({ addedSegments: [], consequenceOfInaction: 'CANCEL' }).change.consequenceOfInaction, 'CANCEL');
  assert.deepEqual(refusal({ consequenceOfInaction: 'IGNORE' }), {
    field: 'consequenceOfInaction',
    problem: 'must be one of ACCEPT, CANCEL, got "IGNORE"',
  });
});

test('consequenceOfInaction ACCEPT on a change that adds no flight is refused', () => {
  assert.deepEqual(refusal({ addedSegments: [], consequenceOfInaction: 'ACCEPT' }), {
    field: 'consequenceOfInaction',
    problem: 'is ACCEPT, but the change adds no flight to replace the removed ones: it can only be CANCEL',
  });
});

test('changeId given is kept: 1 to 64 letters, digits, - _ or .', () => {
  for (const changeId of ['A', 'AIC-77', 'a.b_c-9', 'C'.repeat(64)]) {
    assert.equal(read({ changeId }).change.changeId, changeId);
  }
  for (const changeId of ['', 'C'.repeat(65), 'AIC/77', 'AIC 77']) {
    assert.deepEqual(refusal({ changeId }), {
      field: 'changeId',
      problem: `must be 1 to 64 letters, digits, - _ or ., got ${JSON.stringify(changeId)}`,
    });
  }
  assert.deepEqual(refusal({ changeId: 77 }), { field: 'changeId', problem: 'must be a string' });
});

test('without a changeId, the id is AIC- and 20 hex digits derived from the content, the same on every import', () => {
  assert.equal(read({}).change.changeId, 'AIC-373d920bd14c3023a40d');
  assert.equal(read({ changeId: null }).change.changeId, 'AIC-373d920bd14c3023a40d');
  assert.match(read({ kind: 'ROUTING_CHANGE' }).change.changeId, /^AIC-[0-9a-f]{20}$/);
});

test('the derived id is the same for the same change written otherwise: reference case, detectedAt zone, deadline, consequence', () => {
  const id = read({}).change.changeId;
  for (const fields of [
    { gdsBookingReference: 'abc123' },
    { detectedAt: '2026-11-20T09:00:00+01:00' },
    { detectedAt: '2026-11-20T08:00:00.000Z' },
    { actionDeadline: '2026-11-25T12:00:00Z' },
    { consequenceOfInaction: 'CANCEL' },
  ]) {
    assert.equal(read(fields).change.changeId, id, JSON.stringify(fields));
  }
});

test('the derived id differs when any part of the change differs', () => {
  const variants = [
    {},
    { orderId: 'ORD-1002' },
    { gdsBookingReference: 'ABC124' },
    { kind: 'ROUTING_CHANGE' },
    { detectedAt: '2026-11-20T08:00:01Z' },
    { removedSegments: ['S2'] },
    { removedSegments: [] },
    { addedSegments: [{ ...ADDED, flightNumber: '403' }] },
    { addedSegments: [ADDED, { ...ADDED, segmentId: 'S1C' }] },
  ];
  const ids = variants.map((fields) => read(fields).change.changeId);
  assert.equal(new Set(ids).size, variants.length, ids.join(' '));
});
