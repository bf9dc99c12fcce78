import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentError, FieldError } from '../../src/documents/document-error.js';
import { child, pathOf, pathText } from '../../src/documents/field-path.js';

/** How an import error names the record, the order, the field and the problem, and how a field's path is spelt. */

test('a document error reads "record (order ID): field problem"', () => {
  const error = new DocumentError('line 7', 'bookings[0].status', 'must be one of CONFIRMED, CANCELED', 'ORD-7');
  assert.equal(error.message, 'line 7 (order ORD-7): bookings[0].status must be one of CONFIRMED, CANCELED');
  assert.equal(error.name, 'DocumentError');
  assert.deepEqual(
    [error.record, error.field, error.problem, error.orderId],
    ['line 7', 'bookings[0].status', 'must be one of CONFIRMED, CANCELED', 'ORD-7'],
  );
  assert.ok(error instanceof Error);
});

test('a document error without an order leaves "(order …)" out, and without a field the problem follows the record', () => {
  assert.equal(new DocumentError('record 3', 'currency', 'is required').message, 'record 3: currency is required');
  assert.equal(new DocumentError('record 3', 'currency', 'is required', null).orderId, null);
  assert.equal(new DocumentError('line 2', '', 'is not valid JSON').message, 'line 2: is not valid JSON');
  assert.equal(
    new DocumentError('line 2', '', 'is not valid JSON', 'ORD-1').message,
    'line 2 (order ORD-1): is not valid JSON',
  );
});

test('a field error is the field path and the problem, the path spelt out', () => {
  const error = new FieldError(child(child(child('bookings', 0), 'passengers'), 1), 'is required');
  assert.equal(error.message, 'bookings[0].passengers[1] is required');
  assert.equal(error.field, 'bookings[0].passengers[1]');
  assert.equal(error.problem, 'is required');
  assert.equal(error.name, 'FieldError');
  assert.ok(error instanceof Error);
});

test('a path is its text; a number key is an index in brackets, a name follows a dot, or stands alone at the start', () => {
  assert.equal(pathText('currency'), 'currency');
  assert.equal(pathText(''), '');
  assert.equal(pathText(child('bookings', 3)), 'bookings[3]');
  assert.equal(pathText(child('bookings', 'status')), 'bookings.status');
  assert.equal(pathText(child('', 'orderId')), 'orderId');
  assert.equal(pathText(child('', 0)), '[0]');
  assert.equal(pathText(child(child(child('', 'a'), 0), 'b')), 'a[0].b');
});

test('pathOf spells the keys from the document root; no keys is the root itself', () => {
  assert.equal(pathText(pathOf(['bookings', 0, 'passengers', 2, 'ticket'])), 'bookings[0].passengers[2].ticket');
  assert.equal(pathText(pathOf([])), '');
  assert.equal(pathText(pathOf([4])), '[4]');
});
