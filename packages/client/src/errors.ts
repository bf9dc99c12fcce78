import type { OperationEnvelope, WireError } from './wire.js';

/** Request-level codes of the service's error catalogue (docs/contract.md §5, docs/errors.md). */
export const API_ERROR_CODES = [
  'AUTH_MISSING',
  'AUTH_INVALID',
  'SENDER_MISMATCH',
  'INVALID_JSON',
  'INVALID_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'ORDER_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEYS_EXHAUSTED',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'UNAVAILABLE',
  'REQUEST_HEADER_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'ROUTE_NOT_FOUND',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * Codes of failures the client sees without a catalogue code from the service: the connection
 * failed or timed out, or the answer was not the service's (a proxy's HTML page, a broken body).
 */
export type ClientErrorCode = 'CONNECTION_ERROR' | 'TIMEOUT' | 'INVALID_RESPONSE' | 'HTTP_ERROR';

/** A known code, or (from a newer service) a code this client does not know yet. */
export type AirOrderErrorCode = ApiErrorCode | ClientErrorCode | (string & {});

export interface AirOrderErrorInit {
  code: AirOrderErrorCode;
  message: string;
  status?: number;
  requestId?: string;
  headers?: Headers;
  body?: unknown;
  envelope?: OperationEnvelope;
  errors?: WireError[];
  idempotencyKey?: string;
  attempts?: number;
  retryAfter?: number;
  cause?: unknown;
}

/** Every error the client throws for a request that did not complete with HTTP 2xx. */
export class AirOrderError extends Error {
  /** The catalogue's code (`ORDER_NOT_FOUND`, …) or a client code (`CONNECTION_ERROR`, …). */
  readonly code: AirOrderErrorCode;
  /** HTTP status; undefined when no response arrived. */
  readonly status: number | undefined;
  /** The response's X-Request-Id (equal to its ShoppingResponseId); undefined when no response arrived. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  /** The parsed JSON body, as received. */
  readonly body: unknown;
  /** The operation's envelope (the object under the response root key), when the body was one. */
  readonly envelope: OperationEnvelope | undefined;
  /** The `Errors` list of the body. */
  readonly errors: WireError[];
  /**
   * The Idempotency-Key every attempt of the call carried: retry with it to learn the outcome.
   * Undefined for a read (retrieve, listEvents), which sends none.
   */
  idempotencyKey: string | undefined;
  /** How many HTTP attempts the call made before giving up. */
  attempts: number;
  /** Seconds the server asked to wait before retrying (Retry-After), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: AirOrderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
    this.envelope = init.envelope;
    this.errors = init.errors ?? [];
    this.idempotencyKey = init.idempotencyKey;
    this.attempts = init.attempts ?? 1;
    this.retryAfter = init.retryAfter;
  }
}

/** 401 AUTH_MISSING, AUTH_INVALID: no token, or an unknown, revoked or expired one. */
export class AirOrderAuthenticationError extends AirOrderError {}

/** 403 SENDER_MISMATCH: the request names another agency than the token's. Nothing changed. */
export class AirOrderPermissionError extends AirOrderError {}

/**
 * The request was refused as sent: 400 INVALID_JSON / INVALID_REQUEST (the message names the field),
 * 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 431 REQUEST_HEADER_TOO_LARGE.
 */
export class AirOrderValidationError extends AirOrderError {}

/** 404 ORDER_NOT_FOUND (no such order for this agency), or ROUTE_NOT_FOUND (a wrong base URL). */
export class AirOrderNotFoundError extends AirOrderError {}

/** 422 IDEMPOTENCY_KEY_REUSED (the key was used with another body), 409 IDEMPOTENCY_KEY_IN_USE. */
export class AirOrderIdempotencyError extends AirOrderError {}

/**
 * 429 RATE_LIMITED: over the token's rate; 429 IDEMPOTENCY_KEYS_EXHAUSTED: a new Idempotency-Key past
 * the agency's cap of kept responses. `retryAfter` (seconds) says when to try again.
 */
export class AirOrderRateLimitError extends AirOrderError {}

/** 503 UNAVAILABLE: the store is unreachable or busy, or the request timed out on the server; `retryAfter` in seconds. */
export class AirOrderUnavailableError extends AirOrderError {}

/** 500 INTERNAL_ERROR: a bug in the service; nothing was committed. */
export class AirOrderInternalError extends AirOrderError {}

/**
 * No response arrived (connection refused or reset, DNS failure, TLS failure), or the service did
 * not receive the whole request in time (408 REQUEST_TIMEOUT, a stalled connection): retried.
 */
export class AirOrderConnectionError extends AirOrderError {}

/** No response within the client's time-out. The request may or may not have been applied. */
export class AirOrderTimeoutError extends AirOrderConnectionError {}

/** A response arrived but is not what the contract promises (not JSON, wrong envelope, inconsistent refund). */
export class AirOrderInvalidResponseError extends AirOrderError {}

// ---------------------------------------------------------------------------------------------

type ErrorClass = new (init: AirOrderErrorInit) => AirOrderError;

const CLASS_BY_CODE: Record<ApiErrorCode, ErrorClass> = {
  AUTH_MISSING: AirOrderAuthenticationError,
  AUTH_INVALID: AirOrderAuthenticationError,
  SENDER_MISMATCH: AirOrderPermissionError,
  INVALID_JSON: AirOrderValidationError,
  INVALID_REQUEST: AirOrderValidationError,
  UNSUPPORTED_MEDIA_TYPE: AirOrderValidationError,
  PAYLOAD_TOO_LARGE: AirOrderValidationError,
  REQUEST_HEADER_TOO_LARGE: AirOrderValidationError,
  ORDER_NOT_FOUND: AirOrderNotFoundError,
  ROUTE_NOT_FOUND: AirOrderNotFoundError,
  IDEMPOTENCY_KEY_REUSED: AirOrderIdempotencyError,
  IDEMPOTENCY_KEY_IN_USE: AirOrderIdempotencyError,
  IDEMPOTENCY_KEYS_EXHAUSTED: AirOrderRateLimitError,
  RATE_LIMITED: AirOrderRateLimitError,
  INTERNAL_ERROR: AirOrderInternalError,
  UNAVAILABLE: AirOrderUnavailableError,
  // The request never arrived whole, so nothing was processed: a connection failure, retried.
  REQUEST_TIMEOUT: AirOrderConnectionError,
};

/** For answers without a catalogue code (a proxy's page): the class the HTTP status suggests. */
function classByStatus(status: number): ErrorClass {
  if (status === 401) return AirOrderAuthenticationError;
  if (status === 403) return AirOrderPermissionError;
  if (status === 404) return AirOrderNotFoundError;
  if (status === 429) return AirOrderRateLimitError;
  if (status === 503) return AirOrderUnavailableError;
  if (status === 400 || status === 413 || status === 415 || status === 431) return AirOrderValidationError;
  return AirOrderError;
}

export function isApiErrorCode(code: string): code is ApiErrorCode {
  return (API_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when absent
 * or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readErrors(value: unknown): WireError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is WireError =>
      isRecord(entry) && typeof entry.Code === 'string' && typeof entry.Message === 'string',
  );
}

/**
 * Reads a body that is either an operation's envelope (`{ <ResponseRoot>: { …, Errors } }`) or a
 * plain `{ Errors }` (unknown routes, oversized headers).
 */
export function readErrorBody(body: unknown): { envelope: OperationEnvelope | undefined; errors: WireError[] } {
  if (!isRecord(body)) return { envelope: undefined, errors: [] };
  if ('Errors' in body) return { envelope: undefined, errors: readErrors(body.Errors) };
  const keys = Object.keys(body);
  const inner = keys.length === 1 ? body[keys[0]!] : undefined;
  if (isRecord(inner) && typeof inner.ShoppingResponseId === 'string') {
    return { envelope: inner as unknown as OperationEnvelope, errors: readErrors(inner.Errors) };
  }
  return { envelope: undefined, errors: [] };
}

/** The typed error for a non-2xx response. */
export function errorFromResponse(
  response: { status: number; headers: Headers; text: string },
  idempotencyKey: string | undefined,
): AirOrderError {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    body = undefined;
  }
  const { envelope, errors } = readErrorBody(body);
  const first = errors[0];
  const requestId = response.headers.get('x-request-id') ?? envelope?.ShoppingResponseId ?? undefined;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const code: AirOrderErrorCode = first?.Code ?? 'HTTP_ERROR';
  const ErrorType = first && isApiErrorCode(first.Code) ? CLASS_BY_CODE[first.Code] : classByStatus(response.status);
  const message =
    first?.Message ??
    `HTTP ${response.status} without an error in the service's format${response.text ? `: ${response.text.slice(0, 200)}` : ''}`;
  return new ErrorType({
    code,
    message,
    status: response.status,
    requestId,
    headers: response.headers,
    body,
    envelope,
    errors,
    idempotencyKey,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });
}
