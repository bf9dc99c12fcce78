import { REQUEST_ERRORS, type RequestErrorCode } from './error-codes.js';

/** A request-level failure. Rendered into the operation's envelope by the HTTP error handler. */
export class ApiError extends Error {
  readonly code: RequestErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  /** `status` differs from the catalogue's only for REQUEST_REFUSED, which keeps the 4xx it was refused with. */
  constructor(
    code: RequestErrorCode,
    message?: string,
    headers: Record<string, string> = {},
    status: number = REQUEST_ERRORS[code].status,
  ) {
    super(message ?? REQUEST_ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.headers = headers;
  }
}

export const errors = {
  authMissing: () => new ApiError('AUTH_MISSING', undefined, { 'www-authenticate': 'Bearer' }),
  authInvalid: () => new ApiError('AUTH_INVALID', undefined, { 'www-authenticate': 'Bearer error="invalid_token"' }),
  senderMismatch: (field: string) => new ApiError('SENDER_MISMATCH', `${field} names another agency than the token's.`),
  forbidden: (message: string) => new ApiError('FORBIDDEN', message),
  invalidJson: (detail?: string) =>
    new ApiError('INVALID_JSON', detail ? `The body is not valid JSON: ${detail}` : undefined),
  invalidRequest: (message: string) => new ApiError('INVALID_REQUEST', message),
  unsupportedMediaType: () => new ApiError('UNSUPPORTED_MEDIA_TYPE'),
  payloadTooLarge: () => new ApiError('PAYLOAD_TOO_LARGE'),
  orderNotFound: (orderId: string) => new ApiError('ORDER_NOT_FOUND', `Order ${orderId} was not found.`),
  routeNotFound: (method: string, path: string) => new ApiError('ROUTE_NOT_FOUND', `No route ${method} ${path}.`),
  idempotencyKeyReused: () => new ApiError('IDEMPOTENCY_KEY_REUSED'),
  idempotencyKeyInUse: () => new ApiError('IDEMPOTENCY_KEY_IN_USE', undefined, { 'retry-after': '1' }),
  idempotencyKeysExhausted: (retryAfterSeconds: number) =>
    new ApiError('IDEMPOTENCY_KEYS_EXHAUSTED', undefined, { 'retry-after': String(retryAfterSeconds) }),
  rateLimited: (headers: Record<string, string>) => new ApiError('RATE_LIMITED', undefined, headers),
  refused: (status: number, message: string) => new ApiError('REQUEST_REFUSED', message, {}, status),
  internal: () => new ApiError('INTERNAL_ERROR'),
  unavailable: (retryAfterSeconds: number) =>
    new ApiError('UNAVAILABLE', undefined, { 'retry-after': String(retryAfterSeconds) }),
};
