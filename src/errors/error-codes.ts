/** Request-level failures: the whole request is refused with this HTTP status. */
export const REQUEST_ERRORS = {
  AUTH_MISSING: { status: 401, message: 'The Authorization header is missing. Send "Authorization: Bearer <token>".' },
  AUTH_INVALID: { status: 401, message: 'The access token is unknown, revoked or expired.' },
  SENDER_MISMATCH: { status: 403, message: 'The request names an agency other than the one the token belongs to.' },
  FORBIDDEN: { status: 403, message: 'This client may not use this path.' },
  INVALID_JSON: { status: 400, message: 'The body is not valid JSON.' },
  INVALID_REQUEST: { status: 400, message: 'The request does not match the schema.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The body is larger than 64 KiB.' },
  ORDER_NOT_FOUND: { status: 404, message: 'No such order for this agency.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such route.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was used with a different body.' },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    message: 'Another request with this Idempotency-Key is being processed; retry shortly.',
  },
  IDEMPOTENCY_KEYS_EXHAUSTED: {
    status: 429,
    message:
      'This agency keeps as many responses under Idempotency-Keys as it may; retry a new key after the delay in Retry-After, or send the request without one.',
  },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in full in time.' },
  REQUEST_HEADER_TOO_LARGE: { status: 431, message: 'The request headers are too large.' },
  REQUEST_REFUSED: { status: 403, message: 'The request was refused.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests for this token; retry after the delay in Retry-After.' },
  INTERNAL_ERROR: { status: 500, message: 'An internal error occurred; nothing was changed.' },
  UNAVAILABLE: {
    status: 503,
    message: 'The service is temporarily unavailable; retry after the delay in Retry-After.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type RequestErrorCode = keyof typeof REQUEST_ERRORS;

/**
 * Item-level failures: HTTP 200, the item is FAILED, the rest of the request proceeds. The one list
 * of their codes (the domain's outcomes, the schemas' enums and the OpenAPI examples all derive from
 * it), each with what it means; the text a failed item carries is made by `itemErrors` (item-error.ts).
 */
export const ITEM_ERRORS = {
  BOOKING_NOT_FOUND: 'The booking reference is not part of this order.',
  BOOKING_CANCELED: 'The booking is already cancelled.',
  NO_PENDING_CHANGE: 'No airline-initiated change awaits action on this booking.',
  NO_REPLACEMENT_OFFERED: 'The pending change only removes flights; it cannot be accepted.',
  PASSENGER_NOT_FOUND: 'A requested PassengerID is not a passenger of this booking.',
  ALREADY_REFUNDED: 'A ticket to refund has no OPEN coupon left: it was refunded or voided already.',
  NO_FARE_RULES: 'A ticket has no fare rules: it can be voided in its void window, not refunded.',
  PARTLY_FLOWN: 'A ticket has a flown coupon: the airline prices what was flown, not this service.',
  QUOTE_NOT_FOUND: "The refund quote is unknown, another agency's, or does not cover this booking.",
  QUOTE_EXPIRED: 'The refund quote expired before it was confirmed; nothing was refunded.',
  QUOTE_OUTDATED: 'The booking changed after the quote; nothing was refunded. Ask for a new quote.',
} as const;

export type ItemErrorCode = keyof typeof ITEM_ERRORS;
