import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wireOrderSerializer } from '../../src/http/schemas/wire-order-serializer.js';

/**
 * src/http/schemas/wire-order-serializer.ts: a response envelope is written in the order of its
 * schema's properties, where fast-json-stringify alone would write the required fields first.
 */
const text = { type: 'string' } as const;

/** A response under `RS` whose envelope lists these properties in this order, with these required. */
function responseSchema(required: string[] | undefined, keys: readonly string[]) {
  return {
    type: 'object',
    properties: {
      RS: {
        type: 'object',
        ...(required === undefined ? {} : { required }),
        properties: Object.fromEntries(keys.map((key) => [key, text])),
      },
    },
  };
}

test('a field sent only sometimes stays where the schema puts it, before the required ones after it', () => {
  const serialize = wireOrderSerializer({
    schema: responseSchema(['Lead', 'Response'], ['Lead', 'Order', 'Response']),
  });
  assert.equal(
    serialize({ RS: { Response: 'r', Order: 'o', Lead: 'l' } }),
    '{"RS":{"Lead":"l","Order":"o","Response":"r"}}',
  );
  assert.equal(serialize({ RS: { Response: 'r', Lead: 'l' } }), '{"RS":{"Lead":"l","Response":"r"}}');
});

test('the required fields before the first optional one are still required on the wire', () => {
  const serialize = wireOrderSerializer({
    schema: responseSchema(['Lead', 'Response'], ['Lead', 'Order', 'Response']),
  });
  assert.throws(() => serialize({ RS: { Order: 'o', Response: 'r' } }), /Lead/);
});

test('an envelope whose fields are all required keeps them all required, in the schema order', () => {
  const serialize = wireOrderSerializer({ schema: responseSchema(['Second', 'First'], ['First', 'Second']) });
  assert.equal(serialize({ RS: { Second: '2', First: '1' } }), '{"RS":{"First":"1","Second":"2"}}');
  assert.throws(() => serialize({ RS: { First: '1' } }), /Second/);
});

test('an envelope with no required list writes the fields present, in the schema order', () => {
  const serialize = wireOrderSerializer({ schema: responseSchema(undefined, ['First', 'Second']) });
  assert.equal(serialize({ RS: { Second: '2', First: '1' } }), '{"RS":{"First":"1","Second":"2"}}');
  assert.equal(serialize({ RS: {} }), '{"RS":{}}');
});

test('a response schema with no properties compiles, to a serialiser that writes an empty object', () => {
  const serialize = wireOrderSerializer({ schema: { type: 'object' } });
  assert.equal(serialize({ RS: { First: '1' } }), '{}');
});
