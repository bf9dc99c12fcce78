import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { CsrfRefusal, expectCsrf } from '../../src/console/csrf-check.js';
import { FORM_LIMIT_BYTES, LOGIN_FORM_LIMIT_BYTES, readUrlEncodedForm } from '../../src/console/form-body.js';

/**
 * The console's form reader, fed chunk by chunk: its size limit on both sides, and the CSRF token that
 * must come first, checked as soon as the first field has arrived (docs/security.md).
 */

const request = (options: { bodyLimit?: number; contentLength?: number; token?: string } = {}) => {
  const r = {
    headers: options.contentLength === undefined ? {} : { 'content-length': String(options.contentLength) },
    routeOptions: { bodyLimit: options.bodyLimit },
  } as unknown as FastifyRequest;
  if (options.token !== undefined) assert.equal(expectCsrf(r, options.token), null);
  return r;
};

const tooLarge = (error: unknown) => (error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE';
const settled = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

async function read(r: FastifyRequest, chunks: string[]) {
  const payload = new PassThrough();
  const form = readUrlEncodedForm(r, payload);
  for (const chunk of chunks) payload.write(chunk);
  payload.end();
  return form;
}

test('the limits are 16 KiB for a form and 4 KiB for the sign-in form', () => {
  assert.equal(FORM_LIMIT_BYTES, 16_384);
  assert.equal(LOGIN_FORM_LIMIT_BYTES, 4_096);
});

test('a form is read whole and decoded', async () => {
  const form = await read(request(), ['a=x+y%26&', 'b=2&a=3']);
  assert.deepEqual(
    [...form],
    [
      ['a', 'x y&'],
      ['b', '2'],
      ['a', '3'],
    ],
  );
  assert.deepEqual([...(await read(request(), []))], []);
});

test('a declared length over the limit is refused before anything is read; at the limit it is read', async () => {
  const payload = new PassThrough();
  await assert.rejects(readUrlEncodedForm(request({ bodyLimit: 10, contentLength: 11 }), payload), tooLarge);
  assert.equal(payload.listenerCount('data'), 0);
  const body = 'a=12345678';
  assert.deepEqual([...(await read(request({ bodyLimit: 10, contentLength: 10 }), [body]))], [['a', '12345678']]);
  await assert.rejects(readUrlEncodedForm(request({ contentLength: 16_385 }), new PassThrough()), tooLarge);
  const atDefault = readUrlEncodedForm(request({ contentLength: 16_384 }), new PassThrough());
  assert.equal(await settled(atDefault), 'pending');
});

test('a body past the limit is refused as it arrives, and its reading stops; at the limit it is read', async () => {
  assert.equal((await read(request({ bodyLimit: 10 }), ['a=12', '345678'])).get('a'), '12345678');
  const payload = new PassThrough();
  const form = readUrlEncodedForm(request({ bodyLimit: 10 }), payload);
  payload.write('a=12');
  payload.write('3456789');
  await assert.rejects(form, tooLarge);
  assert.equal(payload.isPaused(), true);
  assert.equal(payload.listenerCount('data'), 0);
  assert.equal(payload.listenerCount('end'), 0);
  assert.equal(payload.listenerCount('error'), 0);
  const byDefault = new PassThrough();
  const big = readUrlEncodedForm(request(), byDefault);
  byDefault.write(`a=${'x'.repeat(16_382)}`);
  assert.equal(await settled(big), 'pending');
  byDefault.write('y');
  await assert.rejects(big, tooLarge);
});

test('a stream error is the form error, and reading stops', async () => {
  const payload = new PassThrough();
  const form = readUrlEncodedForm(request(), payload);
  payload.write('a=1');
  const failure = new Error('connection reset');
  payload.destroy(failure);
  await assert.rejects(form, (error) => error === failure);
  assert.equal(payload.listenerCount('data'), 0);
  assert.equal(payload.listenerCount('end'), 0);
});

test('a form whose first field is the token is read whole, the token split across chunks included', async () => {
  const form = await read(request({ token: 'tok' }), ['_cs', 'rf=t', 'ok&reason=', 'why']);
  assert.deepEqual(
    [...form],
    [
      ['_csrf', 'tok'],
      ['reason', 'why'],
    ],
  );
  assert.deepEqual([...(await read(request({ token: 'tok' }), ['_csrf=tok']))], [['_csrf', 'tok']]);
  assert.equal((await read(request({ token: 'tok' }), ['_csrf=tok&_csrf=bad'])).getAll('_csrf').length, 2);
});

test('a first field that is not the token stops the reading as soon as it has arrived', async () => {
  for (const first of ['_csrf=bad&', 'reason=x&', '&', '=tok&', '&_csrf=tok&']) {
    const payload = new PassThrough();
    const form = readUrlEncodedForm(request({ token: 'tok' }), payload);
    payload.write(first);
    assert.equal(await settled(form), 'rejected', first);
    await assert.rejects(form, (error) => error instanceof CsrfRefusal, first);
    assert.equal(payload.isPaused(), true, first);
    assert.equal(payload.listenerCount('data'), 0, first);
    assert.equal(payload.listenerCount('end'), 0, first);
  }
});

test('a first field not yet ended waits for more; the body ending settles it', async () => {
  const payload = new PassThrough();
  const form = readUrlEncodedForm(request({ token: 'tok' }), payload);
  payload.write('_csrf=to');
  assert.equal(await settled(form), 'pending');
  payload.end('kx');
  await assert.rejects(form, (error) => error instanceof CsrfRefusal);
  await assert.rejects(read(request({ token: 'tok' }), []), (error) => error instanceof CsrfRefusal);
  await assert.rejects(read(request({ token: 'tok' }), ['_csrf=to']), (error) => error instanceof CsrfRefusal);
});
