import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEnvelopeInput, relaxRequestBody } from '../../src/http/lenient-input.js';

/** docs/contract.md §1.3: what a request body is read as before validation, and what its answer echoes. */
const ROOT = 'OrderCancelRQ';

function relaxed(body: unknown, rootKey = ROOT): unknown {
  relaxRequestBody(body, rootKey);
  return body;
}

test('a single reference or passenger becomes a one-element list, a numeric ReferenceVersion its decimal string', () => {
  assert.deepEqual(
    relaxed({
      [ROOT]: {
        Document: { ReferenceVersion: 2 },
        Query: { OrderID: 'ORD-1', GdsBookingReference: 'ABC123', PassengerID: 'P1' },
      },
    }),
    {
      [ROOT]: {
        Document: { ReferenceVersion: '2' },
        Query: { OrderID: 'ORD-1', GdsBookingReference: ['ABC123'], PassengerID: ['P1'] },
      },
    },
  );
  assert.deepEqual(relaxed({ [ROOT]: { Document: { ReferenceVersion: 1e-7 } } }), {
    [ROOT]: { Document: { ReferenceVersion: '0.0000001' } },
  });
});

test('lists, strings and numbers the number branch refuses are left as they are', () => {
  const body = {
    [ROOT]: {
      Document: { ReferenceVersion: '1.0' },
      Query: { GdsBookingReference: ['ABC123'], PassengerID: ['P1'] },
    },
  };
  assert.deepEqual(relaxed(structuredClone(body)), body);
  for (const version of [-1, 1_000_000_000, Number.NaN]) {
    assert.deepEqual(relaxed({ [ROOT]: { Document: { ReferenceVersion: version } } }), {
      [ROOT]: { Document: { ReferenceVersion: version } },
    });
  }
  assert.deepEqual(relaxed({ [ROOT]: { Query: { GdsBookingReference: 7, PassengerID: null } } }), {
    [ROOT]: { Query: { GdsBookingReference: 7, PassengerID: null } },
  });
});

test("only the operation's own root object is read; anything else is left alone", () => {
  const other = { Other: { Query: { GdsBookingReference: 'ABC123' } } };
  assert.deepEqual(relaxed(structuredClone(other)), other);
  for (const body of [null, 'text', 3, [{ [ROOT]: { Query: { GdsBookingReference: 'ABC123' } } }]]) {
    assert.deepEqual(relaxed(structuredClone(body)), body);
  }
  // A root, a Query or a Document that is a list or null is no object to change.
  const lists = {
    [ROOT]: {
      Query: Object.assign(['x'], { GdsBookingReference: 'ABC123', PassengerID: 'P1' }),
      Document: Object.assign(['y'], { ReferenceVersion: 3 }),
    },
  };
  relaxRequestBody(lists, ROOT);
  assert.equal(lists[ROOT].Query.GdsBookingReference, 'ABC123');
  assert.equal(lists[ROOT].Query.PassengerID, 'P1');
  assert.equal(lists[ROOT].Document.ReferenceVersion, 3);
  const listRoot = { [ROOT]: Object.assign([], { Query: { GdsBookingReference: 'ABC123' } }) };
  relaxRequestBody(listRoot, ROOT);
  assert.equal(listRoot[ROOT].Query.GdsBookingReference, 'ABC123');
  assert.deepEqual(relaxed({ [ROOT]: { Query: null, Document: null } }), { [ROOT]: { Query: null, Document: null } });
  // An inherited name is no root: Object.prototype is never touched.
  assert.deepEqual(relaxed({ Query: { GdsBookingReference: 'ABC123' } }, 'constructor'), {
    Query: { GdsBookingReference: 'ABC123' },
  });
});

test('the envelope echoes a readable order, its references upper-cased once each, and a well-formed version', () => {
  assert.deepEqual(
    readEnvelopeInput(
      {
        [ROOT]: {
          Document: { ReferenceVersion: '2.5' },
          Query: { OrderID: 'ORD-1', GdsBookingReference: ['abc123', 'DEF456', 'ABC123'] },
        },
      },
      ROOT,
    ),
    { referenceVersion: '2.5', orderId: 'ORD-1', references: ['ABC123', 'DEF456'] },
  );
});

test('what cannot be read is echoed as nothing, each part on its own', () => {
  const none = { referenceVersion: null, orderId: null, references: null };
  for (const body of [null, [], 'x', {}, { [ROOT]: null }, { [ROOT]: [] }, { Other: {} }]) {
    assert.deepEqual(readEnvelopeInput(body, ROOT), none, JSON.stringify(body));
  }
  assert.deepEqual(readEnvelopeInput({}, 'constructor'), none);
  const read = (root: unknown) => readEnvelopeInput({ [ROOT]: root }, ROOT);
  // A version that is no decimal string, or sent as a number: the default stands.
  for (const version of ['1.0.0', 'v1', '', 2]) {
    assert.equal(read({ Document: { ReferenceVersion: version } }).referenceVersion, null, String(version));
  }
  assert.equal(read({ Document: ['1.0'] }).referenceVersion, null);
  assert.equal(read({ Document: Object.assign([], { ReferenceVersion: '1.0' }) }).referenceVersion, null);
  // An order id or a reference list out of shape: neither is echoed.
  const query = { OrderID: 'ORD-1', GdsBookingReference: ['ABC123'] };
  assert.deepEqual(read({ Query: query }), { referenceVersion: null, orderId: 'ORD-1', references: ['ABC123'] });
  assert.deepEqual(read({ Query: { ...query, OrderID: 'ORD 1' } }), none);
  assert.deepEqual(read({ Query: { ...query, GdsBookingReference: 'ABC123' } }), none);
  assert.deepEqual(read({ Query: { ...query, GdsBookingReference: [] } }), none);
  assert.deepEqual(read({ Query: Object.assign([], query) }), none);
  assert.deepEqual(read({ Query: null }), none);
});
