import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameOperationSchemas, type OpenApiObject } from '../../src/http/openapi/openapi-document.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => json({ $ref: `#/components/schemas/${name}` });

test("each operation's request and response schemas are named once in components and referred to", () => {
  const request = { type: 'object', title: 'request' };
  const envelope = { type: 'object', title: 'envelope' };
  const named = nameOperationSchemas({
    paths: {
      '/Cancel': {
        post: {
          operationId: 'Cancel',
          requestBody: json(request),
          responses: { 200: json(envelope), 400: json({ type: 'object', title: 'another shape' }) },
        },
      },
    },
  });
  assert.deepEqual(named.components?.schemas, { CancelRequest: request, CancelResponse: envelope });
  assert.deepEqual(named.paths!['/Cancel']!.post, {
    operationId: 'Cancel',
    requestBody: ref('CancelRequest'),
    responses: { 200: ref('CancelResponse'), 400: ref('CancelResponse') },
  });
});

test('schemas already in components stay, beside the named ones, and a name taken keeps its schema', () => {
  const shared = { type: 'string' };
  const taken = { type: 'object', title: 'first' };
  const named = nameOperationSchemas({
    paths: {
      '/Retrieve': { post: { operationId: 'Retrieve', requestBody: json({ type: 'object', title: 'second' }) } },
    },
    components: { schemas: { Shared: shared, RetrieveRequest: taken } },
  });
  assert.deepEqual(named.components?.schemas, { Shared: shared, RetrieveRequest: taken });
  assert.deepEqual(named.paths!['/Retrieve']!.post!.requestBody, ref('RetrieveRequest'));
});

test('what has no operation id, no JSON content or no schema is left as it is', () => {
  const document: OpenApiObject = {
    paths: {
      '/healthz': { get: { requestBody: json({ type: 'object' }), responses: { 200: json({ type: 'string' }) } } },
      '/Accept': {
        post: {
          operationId: 'Accept',
          responses: {
            200: { content: { 'text/plain': { schema: { type: 'string' } } } },
            204: {},
            400: { content: { 'application/json': {} } },
          },
        },
      },
    },
  };
  const before = structuredClone(document);
  const named = nameOperationSchemas(document);
  assert.deepEqual(named.paths, before.paths);
  assert.deepEqual(named.components, { schemas: {} });
  assert.deepEqual(nameOperationSchemas({}), { components: { schemas: {} } });
});
