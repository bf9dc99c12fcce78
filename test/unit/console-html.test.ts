import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, html, Html } from '../../src/console/html.js';
import { csrfField, csrfRefused, page } from '../../src/console/layout.js';
import { noticeOf, noticeQuery } from '../../src/console/notices.js';

/** The console's markup builder: what it escapes, what it leaves alone, and the notices a URL may ask for. */

test('escapeHtml replaces each of & < > " \' and nothing else', () => {
  assert.equal(escapeHtml(`a&b<c>d"e'f`), 'a&amp;b&lt;c&gt;d&quot;e&#39;f');
  assert.equal(escapeHtml('&&<<'), '&amp;&amp;&lt;&lt;');
  assert.equal(escapeHtml('plain é / = ` text'), 'plain é / = ` text');
  assert.equal(escapeHtml(''), '');
});

test('html escapes interpolated text, keeps Html as it is, and joins lists', () => {
  const inner = html`<i>${'<x>'}</i>`;
  assert.ok(inner instanceof Html);
  assert.equal(inner.text, '<i>&lt;x&gt;</i>');
  assert.equal(String(inner), '<i>&lt;x&gt;</i>');
  assert.equal(`${inner}`, '<i>&lt;x&gt;</i>');
  assert.equal(html`a${inner}b`.text, 'a<i>&lt;x&gt;</i>b');
  assert.equal(html`[${['<', inner, ['&', html`<br>`]]}]`.text, '[&lt;<i>&lt;x&gt;</i>&amp;<br>]');
  assert.equal(html`${'first'} and ${'second'}`.text, 'first and second');
  assert.equal(html`no values`.text, 'no values');
});

test('html prints nothing for null, undefined and false, but prints 0, true and an empty string as such', () => {
  assert.equal(html`(${null}|${undefined}|${false})`.text, '(||)');
  assert.equal(html`(${0}|${true}|${''}|${NaN})`.text, '(0|true||NaN)');
  assert.equal(html`(${{ toString: () => '<o>' }})`.text, '(&lt;o&gt;)');
});

function fakeReply() {
  const sent: { code?: number; type?: string; body?: string } = {};
  const reply = {
    code(value: number) {
      sent.code = value;
      return reply;
    },
    type(value: string) {
      sent.type = value;
      return reply;
    },
    send(value: string) {
      sent.body = value;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

test('a form refused for its CSRF token is answered 403 in HTML with the console words, without navigation', () => {
  const { reply, sent } = fakeReply();
  assert.equal(csrfRefused(reply), reply);
  assert.equal(sent.code, 403);
  assert.equal(sent.type, 'text/html; charset=utf-8');
  assert.equal(
    sent.body,
    page(
      {
        title: 'Refused',
        error:
          'This form did not come from the console (its security token is missing or wrong); nothing was changed. Reload the page and try again.',
      },
      html`<p><a href="/console">Back to the overview</a></p>`,
    ),
  );
  assert.match(sent.body!, /<title>Refused · airorder console<\/title>/);
  assert.match(sent.body!, /<p class="error" role="alert">This form did not come from the console \(its security/);
  assert.match(sent.body!, /<p><a href="\/console">Back to the overview<\/a><\/p>/);
  assert.doesNotMatch(sent.body!, /<nav|Sign out/);
});

test('the CSRF field is the hidden _csrf input with the session token, escaped', () => {
  const field = csrfField({ sessionHash: 'h', email: 'e', name: 'n', csrfToken: 'a"b' });
  assert.equal(field.text, '<input type="hidden" name="_csrf" value="a&quot;b">');
});

test('the navigation marks only the current section, and none when the page names no section', () => {
  const session = { sessionHash: 'h', email: 'e@x.test', name: 'N', csrfToken: 't' };
  const current = (section?: string) =>
    [...page({ title: 'T', section, session }, html``).matchAll(/<a href="([^"]+)" aria-current="page">/g)].map(
      (match) => match[1],
    );
  assert.deepEqual(current('Orders'), ['/console/orders']);
  assert.deepEqual(current('Imports'), ['/console/imports']);
  assert.deepEqual(current(undefined), []);
  assert.deepEqual(current('Nothing'), []);
});

const request = (query: unknown) => ({ query }) as FastifyRequest;

test('a notice is picked by key from the console own words; anything else shows none', () => {
  assert.equal(noticeOf(request({ notice: 'agency-added' })), 'Agency added.');
  assert.equal(noticeOf(request({ notice: 'token-revoked' })), 'Token revoked.');
  assert.equal(noticeOf(request({ notice: 'token-already-revoked' })), 'The token was revoked already.');
  assert.equal(noticeOf(request({ notice: 'redelivery-queued' })), 'The event was queued again for its endpoint.');
  assert.equal(noticeOf(request({ notice: 'change-accepted' })), 'Change accepted.');
  assert.equal(noticeOf(request({ notice: 'cancelled-with-refund' })), 'Cancelled with refund.');
  assert.equal(noticeOf(request({ notice: 'Your account is locked' })), null);
  assert.equal(noticeOf(request({ notice: 'toString' })), null);
  assert.equal(noticeOf(request({ notice: ['agency-added'] })), null);
  assert.equal(noticeOf(request({})), null);
  assert.equal(noticeOf(request(undefined)), null);
});

test('a booking notice names the booking only when it is one of the page own bookings', () => {
  const bookings = ['ABC123', 'XYZ789'];
  assert.equal(
    noticeOf(request({ notice: 'change-accepted', booking: 'XYZ789' }), bookings),
    'Booking XYZ789: change accepted.',
  );
  assert.equal(
    noticeOf(request({ notice: 'cancelled-with-refund', booking: 'ABC123' }), bookings),
    'Booking ABC123: cancelled with refund.',
  );
  assert.equal(noticeOf(request({ notice: 'change-accepted', booking: 'OTHER1' }), bookings), 'Change accepted.');
  assert.equal(noticeOf(request({ notice: 'change-accepted', booking: 'ABC123' })), 'Change accepted.');
  assert.equal(noticeOf(request({ notice: 'change-accepted' }), bookings), 'Change accepted.');
  assert.equal(noticeOf(request({ notice: 'token-revoked', booking: 'ABC123' }), bookings), 'Token revoked.');
});

test('the notice query carries the key, and the booking encoded when there is one', () => {
  assert.equal(noticeQuery('agency-added'), 'notice=agency-added');
  assert.equal(noticeQuery('change-accepted', 'A&B C'), 'notice=change-accepted&booking=A%26B%20C');
  assert.equal(noticeQuery('change-accepted', ''), 'notice=change-accepted');
});
