import { ITEM_ERRORS, REQUEST_ERRORS, type ItemErrorCode, type RequestErrorCode } from '../errors/error-codes.js';
import type { OperationWire, WireOperationName } from './operations.js';

/** The item-level failures (HTTP 200, item FAILED) each operation can answer (docs/contract.md §5, §6). */
export const OPERATION_ITEM_ERRORS: Record<WireOperationName, readonly ItemErrorCode[]> = {
  cancel: ['BOOKING_NOT_FOUND'],
  involuntaryAccept: ['BOOKING_NOT_FOUND', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE', 'NO_REPLACEMENT_OFFERED'],
  involuntaryCancel: ['BOOKING_NOT_FOUND', 'BOOKING_CANCELED', 'NO_PENDING_CHANGE'],
  refundQuote: ['BOOKING_NOT_FOUND', 'PASSENGER_NOT_FOUND', 'ALREADY_REFUNDED', 'NO_FARE_RULES', 'PARTLY_FLOWN'],
  refund: ['BOOKING_NOT_FOUND', 'QUOTE_NOT_FOUND', 'QUOTE_EXPIRED', 'QUOTE_OUTDATED'],
  retrieve: ['BOOKING_NOT_FOUND'],
  eventList: [],
};

const READ_ERRORS: readonly RequestErrorCode[] = [
  'INVALID_JSON',
  'INVALID_REQUEST',
  'AUTH_MISSING',
  'AUTH_INVALID',
  'SENDER_MISMATCH',
  'ORDER_NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'UNAVAILABLE',
];
const IDEMPOTENCY_ERRORS: readonly RequestErrorCode[] = [
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEYS_EXHAUSTED',
];

/** The request-level codes an operation can answer; the idempotency ones only where a key is taken. */
export function requestErrorsOf(operation: OperationWire): RequestErrorCode[] {
  // The feed names no order, so it never answers ORDER_NOT_FOUND.
  const read = operation.name === 'eventList' ? READ_ERRORS.filter((code) => code !== 'ORDER_NOT_FOUND') : READ_ERRORS;
  return [...read, ...(operation.changesOrders ? IDEMPOTENCY_ERRORS : [])];
}

/**
 * Every code an operation's `Errors[].Code` can hold, in the catalogue's order: the request-level
 * ones it answers and its item-level ones. The response schema's enum, so the document and the
 * types generated from it list exactly these.
 */
export function errorCodesOf(operation: OperationWire): (RequestErrorCode | ItemErrorCode)[] {
  const request = new Set<string>(requestErrorsOf(operation));
  const items = new Set<string>(OPERATION_ITEM_ERRORS[operation.name]);
  return [
    ...(Object.keys(REQUEST_ERRORS) as RequestErrorCode[]).filter((code) => request.has(code)),
    ...(Object.keys(ITEM_ERRORS) as ItemErrorCode[]).filter((code) => items.has(code)),
  ];
}
