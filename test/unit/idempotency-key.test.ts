import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../src/errors/api-error.js';
import { IDEMPOTENCY_KEY_PATTERN, jsonText, readIdempotencyKey } from '../../src/http/idempotency-key.js';

/** docs/contract.md §8.1: the Idempotency-Key header and the digest of the body it is kept with. */

/** A request as Fastify hands it over: the headers Node joined, the raw ones as sent, the parsed body. */
function request(rawHeaders: string[], body: unknown = {}, joined?: Record<string, unknown>): FastifyRequest {
  const headers: Record<string, unknown> = {};
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    const value = rawHeaders[index + 1]!;
    headers[name] = name in headers ? `${String(headers[name])}, ${value}` : value;
  }
  return { headers: joined ?? headers, raw: { rawHeaders }, body } as unknown as FastifyRequest;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  assert.fail('the key was taken');
}

const REFUSED = 'The Idempotency-Key header must be 1 to 255 printable ASCII characters, sent once.';

test('no Idempotency-Key header: no key', () => {
  assert.equal(readIdempotencyKey(request(['Content-Type', 'application/json'])), null);
});

test('a key sent once: the key as sent and the digest of the body as canonical JSON', () => {
  const body = { b: [1, 'two', null], a: { y: true, x: 1.5 } };
  const read = readIdempotencyKey(
    request(['Host', 'example', 'Idempotency-Key', 'key 1', 'X-Note', 'idempotency-key'], body),
  );
  assert.deepEqual(read, {
    key: 'key 1',
    requestHash: sha256('{"a":{"x":1.5,"y":true},"b":[1,"two",null]}'),
  });
});

test('a key sent twice, under any spelling of the name, is refused with 400 INVALID_REQUEST', () => {
  for (const raw of [
    ['Idempotency-Key', 'a', 'Idempotency-Key', 'b'],
    ['idempotency-key', 'a', 'IDEMPOTENCY-KEY', 'a'],
  ]) {
    const error = refusal(() => readIdempotencyKey(request(raw)));
    assert.equal(error.code, 'INVALID_REQUEST');
    assert.equal(error.status, 400);
    assert.equal(error.message, REFUSED);
  }
});

test('a value that is not one string is refused', () => {
  const error = refusal(() => readIdempotencyKey(request(['Idempotency-Key', 'a'], {}, { 'idempotency-key': ['a'] })));
  assert.equal(error.message, REFUSED);
});

test('1 to 255 printable ASCII characters, neither the first nor the last a space', () => {
  const taken = (key: string) => readIdempotencyKey(request(['Idempotency-Key', key]))?.key;
  for (const key of ['k', '!', '~', 'a b', 'x'.repeat(255), '!'.repeat(200) + '~'.repeat(55)]) {
    assert.equal(taken(key), key);
  }
  for (const key of ['', ' ', ' a', 'a ', 'x'.repeat(256), 'caf\u00e9', 'a\tb', 'a\u007fb', '\u0001']) {
    assert.equal(refusal(() => taken(key)).message, REFUSED, JSON.stringify(key));
  }
  assert.equal(IDEMPOTENCY_KEY_PATTERN, '^[\\x21-\\x7E]([\\x20-\\x7E]{0,253}[\\x21-\\x7E])?$');
});

test("canonical JSON: JSON.stringify's text with every object's keys in code-unit order", () => {
  assert.equal(jsonText({}), '{}');
  assert.equal(jsonText([]), '[]');
  assert.equal(jsonText(null), 'null');
  assert.equal(jsonText('a"b'), '"a\\"b"');
  assert.equal(jsonText(12), '12');
  assert.equal(jsonText([1, [2, 3], {}]), '[1,[2,3],{}]');
  // Upper case before lower case, "é" after both: the order of code units, not of a locale.
  assert.equal(jsonText({ b: 1, a: 2, B: 3, é: 4, A: 5 }), '{"A":5,"B":3,"a":2,"b":1,"é":4}');
  assert.equal(
    jsonText({ z: { d: null, c: [{ f: 1, e: 2 }] }, y: 'x' }),
    '{"y":"x","z":{"c":[{"e":2,"f":1}],"d":null}}',
  );
  assert.equal(jsonText({ 'a"': 1 }), '{"a\\"":1}');
});

test('the same value in any key order or spacing gives the same text', () => {
  const parsed = JSON.parse('{ "Query": {"OrderID": "ORD-1", "GdsBookingReference": ["B", "A"]}, "Document": {} }');
  const reordered = { Document: {}, Query: { GdsBookingReference: ['B', 'A'], OrderID: 'ORD-1' } };
  assert.equal(jsonText(parsed), jsonText(reordered));
  assert.notEqual(
    jsonText(parsed),
    jsonText({ ...reordered, Query: { ...reordered.Query, GdsBookingReference: ['A', 'B'] } }),
  );
});

test('a value nested thousands deep is written without overflowing the stack', () => {
  const depth = 20_000;
  let nested: unknown = 0;
  for (let level = 0; level < depth; level++) nested = level % 2 === 0 ? [nested] : { k: nested };
  assert.equal(jsonText(nested), '{"k":['.repeat(depth / 2) + '0' + ']}'.repeat(depth / 2));
});
