import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { errors } from '../../src/errors/api-error.js';
import { itemErrors, type ItemError } from '../../src/errors/item-error.js';

/**
 * docs/errors.md shows agencies each failure with its text; that text is written once, in
 * src/errors/ (api-error.ts, error-codes.ts, item-error.ts). Each example there is what the catalogue writes.
 */
const errorsDoc = fs.readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

function shownInDocs(error: ItemError): void {
  const shown = `"Errors":[{"Code":"${error.code}","Message":"${error.message}"}]`;
  assert.ok(errorsDoc.includes(shown), `docs/errors.md does not show ${shown}`);
  assert.ok(errorsDoc.includes(`"${error.code}: ${error.message}"`), `docs/errors.md shows ${error.code} in no item`);
}

test("docs/errors.md's item-level examples are the catalogue's texts", () => {
  shownInDocs(itemErrors.bookingNotFound('NOPE12', 'ORD-1001'));
  shownInDocs(itemErrors.bookingCancelled('DEF456'));
  shownInDocs(itemErrors.cancelledVoluntarily('DEF456'));
  shownInDocs(itemErrors.noPendingChange('ABC123'));
  shownInDocs(itemErrors.noReplacementOffered('AIC-77'));
  shownInDocs(itemErrors.passengerNotFound(['P9'], 'ABC123'));
  shownInDocs(itemErrors.everyoneRefunded('ABC123'));
  shownInDocs(itemErrors.noFareRules('2201234567891'));
  shownInDocs(itemErrors.partlyFlown('2201234567892'));
  shownInDocs(itemErrors.quoteNotFound('rfq_0123456789abcdef01234567', 'ABC123'));
  shownInDocs(itemErrors.quoteOutdated('rfq_1f0b1ec32be129ac751c2144', 'JKL012'));
});

test('QUOTE_EXPIRED names the quote and when it expired', () => {
  const expired = itemErrors.quoteExpired('rfq_5f0c2a9e41b7d3866e1a0c4f', '2026-11-21T09:45:00.000Z');
  assert.equal(expired.code, 'QUOTE_EXPIRED');
  assert.ok(errorsDoc.includes(`"ErrorMsg":"QUOTE_EXPIRED: ${expired.message}"`), expired.message);
});

test('the item-level texts docs/errors.md does not show', () => {
  assert.deepEqual(itemErrors.passengerNotFound(['P8', 'P9'], 'ABC123'), {
    code: 'PASSENGER_NOT_FOUND',
    message: 'Passenger P8, P9 are not part of booking ABC123.',
  });
  assert.deepEqual(itemErrors.ticketRefunded('2201234567890'), {
    code: 'ALREADY_REFUNDED',
    message: 'Ticket 2201234567890 has no OPEN coupon left: it was refunded or voided already.',
  });
  assert.deepEqual(itemErrors.passengerRefunded('P1', 'ABC123'), {
    code: 'ALREADY_REFUNDED',
    message: 'Passenger P1 left booking ABC123 with a refund already.',
  });
});

test("docs/errors.md's request-level examples are the catalogue's texts, with their status and headers", () => {
  const shown = (error: { code: string; message: string }) => {
    const text = `"Errors":[{"Code":"${error.code}","Message":${JSON.stringify(error.message)}}]`;
    assert.ok(errorsDoc.includes(text), `docs/errors.md does not show ${text}`);
  };
  const cases = [
    [errors.authMissing(), 401, { 'www-authenticate': 'Bearer' }],
    [errors.authInvalid(), 401, { 'www-authenticate': 'Bearer error="invalid_token"' }],
    [errors.senderMismatch('Party.Sender.TravelAgencySender.AgencyID'), 403, {}],
    [
      errors.forbidden(
        'The metrics are served to loopback, to the addresses of METRICS_ALLOW, and with the METRICS_TOKEN bearer token only.',
      ),
      403,
      {},
    ],
    [errors.invalidJson(), 400, {}],
    [errors.unsupportedMediaType(), 415, {}],
    [errors.payloadTooLarge(), 413, {}],
    [errors.orderNotFound('ORD-404'), 404, {}],
    [errors.routeNotFound('GET', '/AirOrderCancel'), 404, {}],
    [errors.idempotencyKeyReused(), 422, {}],
    [errors.idempotencyKeyInUse(), 409, { 'retry-after': '1' }],
    [errors.idempotencyKeysExhausted(7), 429, { 'retry-after': '7' }],
    [errors.rateLimited({ 'retry-after': '2' }), 429, { 'retry-after': '2' }],
    [errors.refused(405, 'The request is for something the service does not serve.'), 405, {}],
    [errors.internal(), 500, {}],
    [errors.unavailable(3), 503, { 'retry-after': '3' }],
  ] as const;
  for (const [error, status, headers] of cases) {
    shown(error);
    assert.equal(error.status, status, error.code);
    assert.deepEqual(error.headers, headers, error.code);
    assert.equal(error.name, 'ApiError');
  }
  assert.equal(errors.invalidJson('Unexpected end').message, 'The body is not valid JSON: Unexpected end');
  assert.equal(errors.invalidRequest('X must be Y.').message, 'X must be Y.');
});
