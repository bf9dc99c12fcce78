import type { FastifyError } from 'fastify';
import { ApiError, errors } from '../errors/api-error.js';
import type { OperationRefusal } from '../service/order-operations.js';
import { validationMessage } from './validation-message.js';

/** Seconds a client should wait before retrying when the store is away or busy. */
export const STORE_RETRY_AFTER_SECONDS = 1;

/**
 * The catalogue's answer to a request the service refused as a whole (it did nothing of it). A request
 * out of time has its 503 already (with-timeout.ts); the same error stands here should it come first.
 */
export function refusalError(refusal: OperationRefusal, retryAfterSeconds = STORE_RETRY_AFTER_SECONDS): ApiError {
  switch (refusal) {
    case 'idempotency-key-reused':
      return errors.idempotencyKeyReused();
    case 'idempotency-key-in-use':
      return errors.idempotencyKeyInUse();
    case 'out-of-time':
      return errors.unavailable(STORE_RETRY_AFTER_SECONDS);
    case 'kept-responses-exhausted':
      return errors.idempotencyKeysExhausted(retryAfterSeconds);
  }
}

/**
 * Maps anything thrown while serving a request to the catalogue: the store being unreachable or
 * overloaded is UNAVAILABLE (503, retry later); unknown errors are INTERNAL_ERROR.
 */
export function toApiError(
  error: unknown,
  rootKey: string | undefined,
  isStoreUnavailable: (error: unknown) => boolean,
): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreUnavailable(error)) return errors.unavailable(STORE_RETRY_AFTER_SECONDS);
  // Whatever was thrown: `throw null` included, which has no fields to read.
  const fastifyError = (error ?? {}) as Partial<FastifyError> & { validation?: unknown[] };
  if (fastifyError.validation && fastifyError.validation.length > 0) {
    return errors.invalidRequest(validationMessage(fastifyError.validation[0] as never, rootKey ?? ''));
  }
  // Node's "aborted": the client closed the connection before its whole body arrived; not a bug of ours.
  if (fastifyError.code === 'ECONNRESET' && fastifyError.message === 'aborted') {
    return errors.invalidJson('the connection closed before the whole body arrived');
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return errors.unsupportedMediaType();
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.invalidJson();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson('the body is empty');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.invalidJson('the body is shorter or longer than its Content-Length');
    // Request bodies may be sent compressed (@fastify/compress); an unknown or broken coding is the client's.
    case 'FST_CP_ERR_INVALID_CONTENT_ENCODING':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding must be gzip, deflate, br or identity.');
    case 'FST_CP_ERR_INVALID_CONTENT':
      return errors.invalidJson('it could not be decompressed as its Content-Encoding says');
    default:
      break;
  }
  // A body the JSON parser refused (Fastify marks it 400). Any other SyntaxError is ours, e.g. a
  // stored document that does not parse, and must not be blamed on the client.
  if (error instanceof SyntaxError && (error as SyntaxError & { statusCode?: number }).statusCode === 400)
    return errors.invalidJson(error.message);
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return clientRefusal(status, fastifyError.message ?? '');
  return errors.internal();
}

/**
 * An error that Fastify or a plugin (the docs' static files, say) marked as the client's keeps its
 * 4xx: a path outside the served folder is the client's mistake, never a 500 of ours.
 */
function clientRefusal(status: number, message: string): ApiError {
  switch (status) {
    case 400:
      return errors.invalidRequest(message || 'The request could not be read.');
    case 404:
      return new ApiError('ROUTE_NOT_FOUND');
    case 408:
      return new ApiError('REQUEST_TIMEOUT');
    case 413:
      return errors.payloadTooLarge();
    case 415:
      return errors.unsupportedMediaType();
    case 431:
      return new ApiError('REQUEST_HEADER_TOO_LARGE');
    default:
      return errors.refused(
        status,
        status === 403
          ? 'The request is for something the service does not serve.'
          : `The request was refused (${message || status}).`,
      );
  }
}
