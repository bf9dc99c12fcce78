import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEnvelope, DEFAULT_REFERENCE_VERSION } from '../../src/http/envelope.js';
import { OPERATIONS } from '../../src/http/operations.js';

/** docs/contract.md §4: the response envelope, the same shape on every outcome. */
const AGENCY = { agencyId: 'AG1', name: 'Agency One', iataNumber: '12345678', email: 'desk@agency.example' };

test('a success: the document, the sender as the token knows it, the request id, the items, Success', () => {
  const envelope = buildEnvelope({
    operation: OPERATIONS.cancel,
    serviceName: 'airorder',
    referenceVersion: '2.1',
    requestId: 'req-1',
    agency: AGENCY,
    items: [{ OrderID: 'ORD-1' }],
    failures: [],
  });
  assert.deepEqual(JSON.parse(JSON.stringify(envelope)), {
    OrderViewRS: {
      Document: { Name: 'airorder', ReferenceVersion: '2.1' },
      Party: {
        Sender: {
          TravelAgencySender: {
            Name: 'Agency One',
            IATA_Number: '12345678',
            AgencyID: 'AG1',
            Contacts: { Contact: [{ EmailContact: 'desk@agency.example' }] },
          },
        },
      },
      ShoppingResponseId: 'req-1',
      Response: [{ OrderID: 'ORD-1' }],
      Success: {},
    },
  });
  assert.deepEqual(Object.keys(envelope.OrderViewRS!), [
    'Document',
    'Party',
    'ShoppingResponseId',
    'Response',
    'Success',
  ]);
});

test('failures: one error per distinct code and message, in order; no Success; no agency, an empty sender', () => {
  const envelope = buildEnvelope({
    operation: OPERATIONS.involuntaryCancel,
    serviceName: 'airorder',
    referenceVersion: null,
    requestId: 'req-2',
    agency: null,
    items: [],
    extra: { Order: { OrderID: 'ORD-2' } },
    failures: [
      { code: 'BOOKING_CANCELED', message: 'Booking A was cancelled.' },
      { code: 'NO_PENDING_CHANGE', message: 'Booking B has none.' },
      { code: 'BOOKING_CANCELED', message: 'Booking A was cancelled.' },
      { code: 'BOOKING_CANCELED', message: 'Booking C was cancelled.' },
      { code: 'NO_PENDING_CHANGE', message: 'Booking B has none.' },
    ],
  });
  const root = JSON.parse(JSON.stringify(envelope)).OrderInvoluntaryCancelRS;
  assert.deepEqual(root.Document, { Name: 'airorder', ReferenceVersion: DEFAULT_REFERENCE_VERSION });
  assert.equal(DEFAULT_REFERENCE_VERSION, '1.0');
  assert.deepEqual(root.Party.Sender.TravelAgencySender, {
    Name: '',
    IATA_Number: '',
    AgencyID: '',
    Contacts: { Contact: [] },
  });
  assert.deepEqual(root.Errors, [
    { Code: 'BOOKING_CANCELED', Message: 'Booking A was cancelled.' },
    { Code: 'NO_PENDING_CHANGE', Message: 'Booking B has none.' },
    { Code: 'BOOKING_CANCELED', Message: 'Booking C was cancelled.' },
  ]);
  assert.equal('Success' in root, false);
  assert.deepEqual(Object.keys(root), ['Document', 'Party', 'ShoppingResponseId', 'Order', 'Result', 'Errors']);
});

test('a code and message that only look alike joined are still distinct', () => {
  const envelope = buildEnvelope({
    operation: OPERATIONS.cancel,
    serviceName: 'airorder',
    referenceVersion: null,
    requestId: 'req-3',
    agency: { ...AGENCY, iataNumber: null, email: null },
    items: [],
    failures: [
      { code: 'AB', message: 'C' },
      { code: 'A', message: 'BC' },
    ],
  });
  const root = JSON.parse(JSON.stringify(envelope)).OrderViewRS;
  assert.equal(root.Errors.length, 2);
  assert.deepEqual(root.Party.Sender.TravelAgencySender, {
    Name: 'Agency One',
    IATA_Number: '',
    AgencyID: 'AG1',
    Contacts: { Contact: [] },
  });
});
