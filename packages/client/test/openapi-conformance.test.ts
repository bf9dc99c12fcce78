/**
 * The client checked against the service's own OpenAPI document: every operation the client
 * knows is a path of the document with the same request and response root keys and result array,
 * and every error code the document shows an example of is one the client maps to a typed error.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OPERATIONS } from '../src/operations.js';
import { startTestService, type TestService } from './support.js';
import { isApiErrorCode } from '../src/errors.js';

let service: TestService;
let document: any;

before(async () => {
  service = await startTestService();
  const response = await service.request('/openapi.json', { method: 'GET' });
  assert.equal(response.status, 200);
  document = response.body;
});
after(() => service.close());

function resolve(schema: any): any {
  if (schema?.$ref) {
    const path = schema.$ref.replace(/^#\//, '').split('/');
    return resolve(path.reduce((node: any, key: string) => node[key], document));
  }
  return schema;
}

test('each client operation matches the document: path, request root, response root, result array', () => {
  for (const spec of Object.values(OPERATIONS)) {
    const operation = document.paths[spec.path]?.post;
    assert.ok(operation, `${spec.path} is in the document`);
    const request = resolve(operation.requestBody.content['application/json'].schema);
    assert.deepEqual(request.required, [spec.requestRoot], `${spec.path} request root`);
    const ok = resolve(operation.responses['200'].content['application/json'].schema);
    assert.deepEqual(Object.keys(ok.properties), [spec.responseRoot], `${spec.path} response root`);
    const envelope = resolve(ok.properties[spec.responseRoot]);
    assert.ok(envelope.properties[spec.resultKey], `${spec.path} has the result array ${spec.resultKey}`);
  }
});

test('every error code of the document maps to a typed error of the client', () => {
  const codes = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (typeof record.Code === 'string') codes.add(record.Code);
      Object.values(record).forEach(collect);
    }
  };
  collect(document.paths);
  assert.ok(codes.size >= 10, `the document's examples show the error codes (${[...codes].join(', ')})`);
  for (const code of codes) {
    // Item-level codes are results, not errors.
    if (['BOOKING_NOT_FOUND', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE', 'NO_REPLACEMENT_OFFERED'].includes(code)) continue;
    assert.ok(isApiErrorCode(code), `the client knows the request-level code ${code}`);
  }
});
