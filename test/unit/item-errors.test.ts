import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { itemErrors, type ItemError } from '../../src/errors/item-error.js';

/**
 * docs/errors.md ("Item level") shows agencies each item-level failure with its text; that text is
 * written once, in src/errors/item-error.ts. Each example there is what the catalogue writes.
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
