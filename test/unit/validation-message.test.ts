/**
 * The INVALID_REQUEST message made of a schema violation (src/http/validation-message.ts): the
 * field's path as the agency wrote it, and the field's rule in words.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { FIELD_RULES } from '../../src/http/schemas/field-rules.js';
import { validationMessage } from '../../src/http/validation-message.js';

const ROOT = 'OrderCancelRQ';

function issue(
  instancePath: string,
  keyword: string,
  params: Record<string, unknown> = {},
  message?: string,
): FastifySchemaValidationError {
  return { instancePath, keyword, params, message, schemaPath: '#/unused' } as FastifySchemaValidationError;
}

test('a field with a rule: its dotted path, then the rule', () => {
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/Query/OrderID', 'pattern', {}, 'must match pattern'), ROOT),
    `OrderCancelRQ.Query.OrderID ${FIELD_RULES.OrderID}.`,
  );
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/Document/ReferenceVersion', 'type', {}, 'must be string'), ROOT),
    `OrderCancelRQ.Document.ReferenceVersion ${FIELD_RULES.ReferenceVersion}.`,
  );
});

test('an array element: its index in brackets, and the rule of the array it belongs to', () => {
  // An index of several digits stays one index, not a name.
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/Query/GdsBookingReference/12', 'pattern', {}, 'must match pattern'), ROOT),
    `OrderCancelRQ.Query.GdsBookingReference[12] ${FIELD_RULES.GdsBookingReference}.`,
  );
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/Query/PassengerID/3', 'maxLength', {}, 'must NOT have more'), ROOT),
    `OrderCancelRQ.Query.PassengerID[3] ${FIELD_RULES.PassengerID}.`,
  );
});

test("a field without a rule of its own: the validator's words, or 'is invalid' without them", () => {
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/Query/Other1', 'type', {}, 'must be object'), ROOT),
    'OrderCancelRQ.Query.Other1 must be object.',
  );
  assert.equal(validationMessage(issue('/OrderCancelRQ/Party', 'type'), ROOT), 'OrderCancelRQ.Party is invalid.');
  // A name that objects inherit is no rule.
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/constructor', 'type', {}, 'must be object'), ROOT),
    'OrderCancelRQ.constructor must be object.',
  );
});

test('a name with / or ~ in it is shown as sent, not in its JSON Pointer escapes', () => {
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/a~1b~0c~01', 'type', {}, 'must be object'), ROOT),
    'OrderCancelRQ.a/b~c~1 must be object.',
  );
});

test('a missing field: the path of the object that lacks it, then its name', () => {
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/Query', 'required', { missingProperty: 'OrderID' }, 'must have'), ROOT),
    'OrderCancelRQ.Query.OrderID is required.',
  );
  assert.equal(
    validationMessage(issue('/OrderCancelRQ/Query/GdsBookingReference/0', 'required', { missingProperty: 'X' }), ROOT),
    'OrderCancelRQ.Query.GdsBookingReference[0].X is required.',
  );
});

test('the root: the single root key it must have, and what was found instead', () => {
  assert.equal(
    validationMessage(issue('', 'additionalProperties', { additionalProperty: 'OrderRetrieveRQ' }), ROOT),
    'The body must have the single root key OrderCancelRQ; found OrderRetrieveRQ.',
  );
  for (const keyword of ['type', 'required']) {
    assert.equal(
      validationMessage(issue('', keyword, { missingProperty: ROOT }), ROOT),
      'The body must be a JSON object with the root key OrderCancelRQ.',
    );
  }
  // Below the root, an unknown field is named by its path.
  assert.equal(
    validationMessage(
      issue('/OrderCancelRQ', 'additionalProperties', { additionalProperty: 'Extra' }, 'must NOT'),
      ROOT,
    ),
    'OrderCancelRQ must NOT.',
  );
});

test('a name that begins or ends with digits is a name, not an index', () => {
  for (const name of ['1a', 'a1']) {
    assert.equal(
      validationMessage(issue(`/OrderCancelRQ/Query/OrderID/${name}`, 'type', {}, 'must be string'), ROOT),
      `OrderCancelRQ.Query.OrderID.${name} must be string.`,
    );
  }
});

test("each field's rule, word for word as the agency reads it", () => {
  const rules: Record<string, string> = {
    OrderID: 'must be a string of 1 to 64 letters, digits or the characters - _ . /',
    GdsBookingReference: 'must be 1 to 20 booking references, each 5 to 8 letters or digits',
    ReferenceVersion:
      'must be a decimal number such as "1.0" (a string of up to 9 digits, optionally a point and up to 9 more) or a number from 0 to below 1000000000',
    IATA_Number: 'must be 7 or 8 digits',
    AgencyID: 'must be a string of 1 to 64 characters',
    EmailContact: 'must be an e-mail address',
    Name: 'must be a string of at most 200 characters',
    After: 'must be an event id (evt_ and 28 hexadecimal digits), the NextAfter of a previous page',
    Limit: 'must be a whole number from 1 to 500',
    PassengerID: 'must be 1 to 20 passenger ids, each 1 to 32 letters, digits, - or _',
    QuoteID: 'must be the QuoteID of an AirOrderRefundQuote answer (rfq_ and 24 hexadecimal digits)',
  };
  assert.deepEqual(Object.keys(FIELD_RULES).sort(), Object.keys(rules).sort());
  for (const [field, rule] of Object.entries(rules)) {
    assert.equal(
      validationMessage(issue(`/OrderCancelRQ/Query/${field}`, 'pattern', {}, 'must match pattern'), ROOT),
      `OrderCancelRQ.Query.${field} ${rule}.`,
    );
  }
});
