/**
 * The client's wire types are the service's: src/generated/openapi.ts is exactly what
 * openapi-typescript makes of the OpenAPI document the running service serves, so any change of a
 * route's schema that was not regenerated (`npm run client:types`) fails here. src/wire.ts takes
 * every envelope, item and order type from that file.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { CLIENT_TYPES_FILE, clientTypesSource } from '../../../scripts/client-types-source.js';
import { servedOpenApiDocument, startTestService, type TestService } from './support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

let service: TestService;
let document: unknown;

before(async () => {
  service = await startTestService();
  document = await servedOpenApiDocument(service);
});
after(() => service.close());

test('src/generated/openapi.ts is what openapi-typescript makes of the served document', async () => {
  const committed = fs.readFileSync(path.join(ROOT, CLIENT_TYPES_FILE), 'utf8');
  const generated = await clientTypesSource(document);
  assert.ok(
    generated.includes('AirOrderRetrieveResponse') && generated.includes('AirOrderEventListResponse'),
    'every operation is in it',
  );
  assert.equal(committed, generated, 'run `npm run client:types` and commit the result');
});

test('the comparison sees a change of the document: a renamed field makes other types', async () => {
  const changed = structuredClone(document) as { components: { schemas: Record<string, any> } };
  const envelope = changed.components.schemas.AirOrderCancelResponse.properties.OrderViewRS;
  envelope.properties.ShoppingResponseID = envelope.properties.ShoppingResponseId;
  delete envelope.properties.ShoppingResponseId;
  assert.notEqual(await clientTypesSource(changed), await clientTypesSource(document));
});

test('wire.ts takes its envelopes from the generated types, and writes none by hand', () => {
  const wire = fs.readFileSync(path.join(ROOT, 'packages', 'client', 'src', 'wire.ts'), 'utf8');
  assert.match(wire, /from '\.\/generated\/openapi\.js'/);
  for (const name of [
    'OrderViewRS',
    'OrderInvoluntaryAcceptRS',
    'OrderInvoluntaryCancelRS',
    'WireCancelItem',
    'WireOrder',
    'WireBooking',
    'WireStatus',
  ]) {
    assert.match(wire, new RegExp(`export type ${name}\\b[^=]*= `), `${name} is an alias of a generated type`);
  }
});
