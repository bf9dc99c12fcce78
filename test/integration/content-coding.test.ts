/**
 * Content codings are case-insensitive (RFC 9110, 8.4.1; src/http/content-coding.ts): a request
 * body sent compressed is read whatever the case its Content-Encoding is written in.
 */
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { bearer, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let token: string;

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('AG1');
  await service.importOrders([simpleOrder('ORD-CC1', 'AG1', 'CCB001', '2207777000011')]);
});
after(() => service.close());

const RETRIEVE = JSON.stringify({
  OrderRetrieveRQ: { Query: { OrderID: 'ORD-CC1', GdsBookingReference: ['CCB001'] } },
});

async function retrieve(coding: string, body: Buffer | string) {
  return service.request('/AirOrderRetrieve', {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json', 'content-encoding': coding },
    body,
  });
}

test('a gzip body is read whether its coding is written "gzip", "GZIP" or "Gzip"', async () => {
  for (const coding of ['gzip', 'GZIP', 'Gzip']) {
    const answer = await retrieve(coding, zlib.gzipSync(RETRIEVE));
    assert.equal(answer.status, 200, `${coding}: ${answer.text}`);
    assert.equal(answer.body.OrderViewRS.Response[0].Status, 'SUCCESS', coding);
  }
});

test('a body sent without a Content-Encoding is read as it is', async () => {
  const answer = await service.post('/AirOrderRetrieve', RETRIEVE, bearer(token));
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.OrderViewRS.Response[0].Status, 'SUCCESS');
});

test('a body sent as "IDENTITY" is read as it is', async () => {
  const answer = await retrieve('IDENTITY', RETRIEVE);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.OrderViewRS.Response[0].Status, 'SUCCESS');
});

test('an unknown coding is still 415 UNSUPPORTED_MEDIA_TYPE', async () => {
  const answer = await retrieve('X-SQUEEZE', RETRIEVE);
  assert.equal(answer.status, 415);
  assert.deepEqual(answer.body.OrderViewRS.Errors, [
    { Code: 'UNSUPPORTED_MEDIA_TYPE', Message: 'Content-Encoding must be gzip, deflate, br or identity.' },
  ]);
});
