import type { FastifyRequest } from 'fastify';

/**
 * The console's notices after a form, by key: a link can pick one (`?notice=token-revoked`) but never
 * put its own words in the console's status box. Data the operator needs once (an issued token) is
 * shown on the answer to the POST itself, never carried in a URL.
 */
const NOTICES = {
  'agency-added': 'Agency added.',
  'token-revoked': 'Token revoked.',
  'token-already-revoked': 'The token was revoked already.',
  'redelivery-queued': 'The event was queued again for its endpoint.',
  'change-accepted': 'Change accepted.',
  'cancelled-with-refund': 'Cancelled with refund.',
} as const;

export type NoticeKey = keyof typeof NOTICES;

/** Notices about one booking name it, when the URL's `booking` is one of the page's own bookings. */
const BOOKING_NOTICES = new Set<NoticeKey>(['change-accepted', 'cancelled-with-refund']);

function isNoticeKey(value: unknown): value is NoticeKey {
  return typeof value === 'string' && Object.hasOwn(NOTICES, value);
}

/** The notice the URL asks for, in the console's own words; the booking named only if the page shows it. */
export function noticeOf(request: FastifyRequest, bookings: readonly string[] = []): string | null {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const key = query.notice;
  if (!isNoticeKey(key)) return null;
  if (!BOOKING_NOTICES.has(key)) return NOTICES[key];
  const booking = bookings.find((reference) => reference === query.booking);
  const words = NOTICES[key];
  return booking ? `Booking ${booking}: ${words.charAt(0).toLowerCase()}${words.slice(1)}` : words;
}

/** The query that asks a page for a notice (and the booking it is about, from the store's own references). */
export function noticeQuery(key: NoticeKey, booking?: string): string {
  return `notice=${key}${booking ? `&booking=${encodeURIComponent(booking)}` : ''}`;
}
