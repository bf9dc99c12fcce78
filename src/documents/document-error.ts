import { pathText, type FieldPath } from './field-path.js';

/**
 * A problem with one imported document, named by record (`line 7`, `record 3`), by the order it is
 * for when the record has a readable orderId, and by field, so the operator can fix it. Every import
 * error, of orders or of changes, in the CLI or the console, is worded here:
 * `line 7 (order ORD-7): bookings[0].passengers[1].ticket.baseFare must be …`.
 */
export class DocumentError extends Error {
  constructor(
    readonly record: string,
    readonly field: string,
    readonly problem: string,
    readonly orderId: string | null = null,
  ) {
    super(`${record}${orderId === null ? '' : ` (order ${orderId})`}: ${field ? `${field} ` : ''}${problem}`);
    this.name = 'DocumentError';
  }
}

/** Thrown by field readers; the caller adds which record it was. */
export class FieldError extends Error {
  readonly field: string;

  constructor(
    path: FieldPath,
    readonly problem: string,
  ) {
    const field = pathText(path);
    super(`${field} ${problem}`);
    this.field = field;
    this.name = 'FieldError';
  }
}
