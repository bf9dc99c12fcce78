/**
 * Typed results of the operations: the whole envelope as received, and views of its items that
 * read the same whatever the operation (status, parsed failure, refunds in minor units).
 */
import { AirOrderInvalidResponseError, type ApiErrorCode } from './errors.js';
import { currencyExponent, decimalToMinor, minorToDecimal } from './money.js';
import type { OperationSpec } from './operations.js';
import type {
  CancelResponseBody,
  InvoluntaryAcceptResponseBody,
  InvoluntaryCancelResponseBody,
  OrderInvoluntaryAcceptRS,
  OrderInvoluntaryCancelRS,
  OrderViewRS,
  WireCancelItem,
  WireError,
  WireInvoluntaryAcceptItem,
  WireInvoluntaryCancelItem,
} from './wire.js';

/** Item-level codes of the catalogue (HTTP 200, the item FAILED). */
export type ItemErrorCode =
  | 'BOOKING_NOT_FOUND'
  | 'BOOKING_CANCELED'
  | 'NO_PENDING_CHANGE'
  | 'NO_REPLACEMENT_OFFERED'
  | 'PASSENGER_NOT_FOUND'
  | 'ALREADY_REFUNDED'
  | 'NO_FARE_RULES'
  | 'PARTLY_FLOWN'
  | 'QUOTE_NOT_FOUND'
  | 'QUOTE_EXPIRED'
  | 'QUOTE_OUTDATED';

export interface ItemFailure {
  /** The code before the colon of `Msg` / `ErrorMsg`; `UNKNOWN` when the text has no code. */
  code: ItemErrorCode | ApiErrorCode | 'UNKNOWN' | (string & {});
  message: string;
}

/** FAILED (and the documented variant FAILURE, read the same) carries a parsed failure. */
export type ItemOutcome = { status: 'SUCCESS'; failure?: undefined } | { status: 'FAILED'; failure: ItemFailure };

export type BookingStatus = 'CONFIRMED' | 'CANCELED';

export type CancelItem = ItemOutcome & {
  orderId: string;
  bookingReference: string;
  /** The booking's status after the call; undefined on a failed item (which never claims one). */
  bookingStatus: BookingStatus | (string & {}) | undefined;
  raw: WireCancelItem;
};

export type InvoluntaryAcceptItem = ItemOutcome & {
  orderId: string;
  bookingReferences: string[];
  raw: WireInvoluntaryAcceptItem;
};

export interface TicketRefund {
  ticketNumber: string;
  /** FULL when nothing of the ticket was flown, PARTIAL otherwise. */
  quoteType: 'FULL' | 'PARTIAL' | (string & {});
  /** The JSON number of RefundPaxWiseFare[].Amount. For display; do arithmetic on `amountMinor`. */
  amount: number;
  /** The amount exactly as RefundText writes it, with the currency's decimals ("570.50"). */
  amountText: string;
  /** Integer minor units (cents, fils, yen), when the call was given the currency. */
  amountMinor: number | undefined;
}

export interface Refund {
  /** The JSON number of RefundAmount. For display; do arithmetic on `amountMinor`. */
  amount: number;
  /** Integer minor units: the exact sum of the tickets' `amountMinor`, when the call was given the currency. */
  amountMinor: number | undefined;
  /** The currency the call was given, if any. */
  currency: string | undefined;
  /** One per ticket, in passenger order. Empty on a failed item or a booking without tickets. */
  tickets: TicketRefund[];
}

export type InvoluntaryCancelItem = ItemOutcome & {
  orderId: string;
  bookingReferences: string[];
  refund: Refund;
  raw: WireInvoluntaryCancelItem;
};

/** What every result carries: the envelope as received and what identifies the response. */
export interface EnvelopeResult<Body, Envelope> {
  /** The whole response body as received: `{ <ResponseRoot>: envelope }`. */
  body: Body;
  /** The object under the response root key. */
  envelope: Envelope;
  /** True exactly when every item succeeded (the envelope has `Success: {}`). */
  success: boolean;
  /** The envelope's `Errors`, as codes and messages: one per distinct failure. */
  errors: { code: string; message: string }[];
  /** X-Request-Id, equal to ShoppingResponseId; quote it to the operator. */
  requestId: string;
  /** HTTP attempts made (1 + retries). */
  attempts: number;
  httpStatus: number;
}

/** What the result of an operation that changes orders carries besides its items. */
export interface ResultBase<Body, Envelope, Item> extends EnvelopeResult<Body, Envelope> {
  /** One per requested booking reference (after the service's de-duplication), in request order. */
  items: Item[];
  /** The Idempotency-Key every attempt carried. */
  idempotencyKey: string;
  /** True when the service replayed the stored response of an earlier call with this key. */
  replayed: boolean;
}

export type CancelResult = ResultBase<CancelResponseBody, OrderViewRS, CancelItem>;
export type InvoluntaryAcceptResult = ResultBase<
  InvoluntaryAcceptResponseBody,
  OrderInvoluntaryAcceptRS,
  InvoluntaryAcceptItem
>;
export type InvoluntaryCancelResult = ResultBase<
  InvoluntaryCancelResponseBody,
  OrderInvoluntaryCancelRS,
  InvoluntaryCancelItem
>;

/** What the transport knows of the response a result is read from. */
export interface ResponseContext {
  status: number;
  headers: Headers;
  requestId: string | undefined;
  /** Undefined for a read, which sends none. */
  idempotencyKey: string | undefined;
  replayed: boolean;
  attempts: number;
}

// ---------------------------------------------------------------------------------------------

const FAILURE_TEXT = /^([A-Z][A-Z0-9_]*): ?([\s\S]*)$/;

/** "BOOKING_NOT_FOUND: Booking NOPE12 is not part of order ORD-1001." → { code, message }. */
export function parseFailureText(text: string): ItemFailure {
  const match = FAILURE_TEXT.exec(text);
  if (!match) return { code: 'UNKNOWN', message: text };
  return { code: match[1]!, message: match[2]! };
}

/** SUCCESS is success; FAILED, FAILURE, or anything else is a failure: never claim a success not stated. */
export function itemOutcome(status: unknown, message: unknown): ItemOutcome {
  if (status === 'SUCCESS') return { status: 'SUCCESS' };
  return { status: 'FAILED', failure: parseFailureText(typeof message === 'string' ? message : '') };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one response body against the contract; whatever is off becomes AirOrderInvalidResponseError. */
export class Reader {
  constructor(
    private readonly body: unknown,
    private readonly context: ResponseContext,
  ) {}

  invalid(message: string): AirOrderInvalidResponseError {
    return new AirOrderInvalidResponseError({
      code: 'INVALID_RESPONSE',
      message: `The response does not follow the contract: ${message}`,
      status: this.context.status,
      headers: this.context.headers,
      body: this.body,
      idempotencyKey: this.context.idempotencyKey,
      attempts: this.context.attempts,
      ...(this.context.requestId === undefined ? {} : { requestId: this.context.requestId }),
    });
  }

  envelope(operation: OperationSpec): Record<string, unknown> {
    const root = isRecord(this.body) ? this.body[operation.responseRoot] : undefined;
    if (!isRecord(root)) throw this.invalid(`expected a JSON object with the root key ${operation.responseRoot}`);
    if (typeof root.ShoppingResponseId !== 'string') throw this.invalid('ShoppingResponseId is missing');
    if (!Array.isArray(root[operation.resultKey])) throw this.invalid(`${operation.resultKey} is not an array`);
    return root;
  }

  string(item: Record<string, unknown>, field: string, where: string): string {
    const value = item[field];
    if (typeof value !== 'string') throw this.invalid(`${where}.${field} is not a string`);
    return value;
  }

  number(item: Record<string, unknown>, field: string, where: string): number {
    const value = item[field];
    if (typeof value !== 'number' || !Number.isFinite(value)) throw this.invalid(`${where}.${field} is not a number`);
    return value;
  }

  strings(item: Record<string, unknown>, field: string, where: string): string[] {
    const value = item[field];
    if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string'))
      throw this.invalid(`${where}.${field} is not an array of strings`);
    return value as string[];
  }

  items(envelope: Record<string, unknown>, operation: OperationSpec): Record<string, unknown>[] {
    const items = envelope[operation.resultKey] as unknown[];
    return items.map((item, index) => {
      if (!isRecord(item)) throw this.invalid(`${operation.resultKey}[${index}] is not an object`);
      return item;
    });
  }

  /** An optional string: absent is undefined, anything but a string is a broken contract. */
  optionalString(item: Record<string, unknown>, field: string, where: string): string | undefined {
    return item[field] === undefined ? undefined : this.string(item, field, where);
  }

  array(item: Record<string, unknown>, field: string, where: string): unknown[] {
    const value = item[field];
    if (!Array.isArray(value)) throw this.invalid(`${where}.${field} is not an array`);
    return value;
  }

  /** The entries of an array of objects, each with the path to name it by. */
  objects(item: Record<string, unknown>, field: string, where: string): [Record<string, unknown>, string][] {
    return this.array(item, field, where).map((entry, index) => {
      const at = `${where}.${field}[${index}]`;
      if (!isRecord(entry)) throw this.invalid(`${at} is not an object`);
      return [entry, at];
    });
  }

  object(item: Record<string, unknown>, field: string, where: string): Record<string, unknown> {
    const value = item[field];
    if (!isRecord(value)) throw this.invalid(`${where}.${field} is not an object`);
    return value;
  }

  /** What every result has, whatever its items; `success` also needs every item to have succeeded. */
  envelopeResult<Body, Envelope>(
    envelope: Record<string, unknown>,
    itemsSucceeded = true,
  ): EnvelopeResult<Body, Envelope> {
    const errors = Array.isArray(envelope.Errors)
      ? envelope.Errors.filter(
          (entry): entry is WireError =>
            isRecord(entry) && typeof entry.Code === 'string' && typeof entry.Message === 'string',
        ).map((entry) => ({ code: entry.Code, message: entry.Message }))
      : [];
    return {
      body: this.body as Body,
      envelope: envelope as Envelope,
      success: isRecord(envelope.Success) && itemsSucceeded,
      errors,
      requestId: this.context.requestId ?? (envelope.ShoppingResponseId as string),
      attempts: this.context.attempts,
      httpStatus: this.context.status,
    };
  }

  base<Body, Envelope, Item extends { status: string }>(
    envelope: Record<string, unknown>,
    items: Item[],
  ): ResultBase<Body, Envelope, Item> {
    return {
      ...this.envelopeResult<Body, Envelope>(
        envelope,
        items.every((item) => item.status === 'SUCCESS'),
      ),
      items,
      // An operation that changes orders always sends a key (transport.ts).
      idempotencyKey: this.context.idempotencyKey!,
      replayed: this.context.replayed,
    };
  }
}

export function readCancelResult(body: unknown, context: ResponseContext, operation: OperationSpec): CancelResult {
  const reader = new Reader(body, context);
  const envelope = reader.envelope(operation);
  return reader.base(envelope, readCancelItems(reader, envelope, operation));
}

/** OrderViewRS's Response items: AirOrderCancel's, and AirOrderRetrieve's too. */
export function readCancelItems(
  reader: Reader,
  envelope: Record<string, unknown>,
  operation: OperationSpec,
): CancelItem[] {
  return reader.items(envelope, operation).map((item, index): CancelItem => {
    const where = `Response[${index}]`;
    const outcome = itemOutcome(reader.string(item, 'Status', where), reader.string(item, 'Msg', where));
    const bookingStatus = reader.string(item, 'BookingStatus', where);
    return {
      ...outcome,
      orderId: reader.string(item, 'OrderID', where),
      bookingReference: reader.string(item, 'GdsBookingReference', where),
      bookingStatus: bookingStatus === '' ? undefined : bookingStatus,
      raw: item as unknown as WireCancelItem,
    };
  });
}

export function readInvoluntaryAcceptResult(
  body: unknown,
  context: ResponseContext,
  operation: OperationSpec,
): InvoluntaryAcceptResult {
  const reader = new Reader(body, context);
  const envelope = reader.envelope(operation);
  const items = reader.items(envelope, operation).map((item, index): InvoluntaryAcceptItem => {
    const where = `Result[${index}]`;
    return {
      ...itemOutcome(reader.string(item, 'Status', where), reader.string(item, 'ErrorMsg', where)),
      orderId: reader.string(item, 'OrderID', where),
      bookingReferences: reader.strings(item, 'GdsBookingReference', where),
      raw: item as unknown as WireInvoluntaryAcceptItem,
    };
  });
  return reader.base(envelope, items);
}

interface RefundTextEntry {
  ticketNumber: string;
  quoteType: string;
  amountText: string;
}

/**
 * "TicketNumber:2201234567890 QuoteType:FULL RefundAmount:570.50 TicketNumber:…" → one entry per
 * ticket. Keys this client does not know are skipped. Null when the text cannot be read.
 */
export function parseRefundText(text: string): RefundTextEntry[] | null {
  const entries: Partial<RefundTextEntry>[] = [];
  for (const token of text.split(' ').filter((part) => part !== '')) {
    const colon = token.indexOf(':');
    if (colon <= 0) return null;
    const key = token.slice(0, colon);
    const value = token.slice(colon + 1);
    if (key === 'TicketNumber') entries.push({ ticketNumber: value });
    const current = entries[entries.length - 1];
    if (!current) return null;
    if (key === 'QuoteType') current.quoteType = value;
    if (key === 'RefundAmount') current.amountText = value;
  }
  if (!entries.every((entry) => entry.quoteType !== undefined && entry.amountText !== undefined)) return null;
  return entries as RefundTextEntry[];
}

export function readInvoluntaryCancelResult(
  body: unknown,
  context: ResponseContext,
  operation: OperationSpec,
  currency: string | undefined,
): InvoluntaryCancelResult {
  const exponent = currency === undefined ? undefined : currencyExponent(currency);
  const reader = new Reader(body, context);
  const envelope = reader.envelope(operation);
  const items = reader.items(envelope, operation).map((item, index): InvoluntaryCancelItem => {
    const where = `Result[${index}]`;
    const refundAmount = reader.number(item, 'RefundAmount', where);
    const refundText = reader.string(item, 'RefundText', where);
    const paxWise = item.RefundPaxWiseFare;
    if (!Array.isArray(paxWise)) throw reader.invalid(`${where}.RefundPaxWiseFare is not an array`);
    const fares = paxWise.map((fare, position) => {
      if (!isRecord(fare)) throw reader.invalid(`${where}.RefundPaxWiseFare[${position}] is not an object`);
      const at = `${where}.RefundPaxWiseFare[${position}]`;
      return { ticketNumber: reader.string(fare, 'TicketNumber', at), amount: reader.number(fare, 'Amount', at) };
    });
    const entries = parseRefundText(refundText);
    if (!entries) throw reader.invalid(`${where}.RefundText cannot be read: "${refundText}"`);
    if (
      entries.length !== fares.length ||
      entries.some((entry, position) => entry.ticketNumber !== fares[position]!.ticketNumber)
    ) {
      throw reader.invalid(`${where}.RefundText and RefundPaxWiseFare name different tickets`);
    }

    const tickets = entries.map((entry, position): TicketRefund => {
      const amount = fares[position]!.amount;
      // Both are the same decimal read into a double: any difference is a different amount.
      if (!/^-?\d+(\.\d+)?$/.test(entry.amountText) || Number(entry.amountText) !== amount) {
        throw reader.invalid(
          `${where}: ticket ${entry.ticketNumber} is refunded ${amount} in RefundPaxWiseFare but "${entry.amountText}" in RefundText`,
        );
      }
      let amountMinor: number | undefined;
      if (exponent !== undefined) {
        try {
          amountMinor = decimalToMinor(entry.amountText, exponent);
        } catch (error) {
          throw reader.invalid(
            `${where}: ticket ${entry.ticketNumber}'s refund "${entry.amountText}" is not an amount in ${currency}: ${(error as Error).message}`,
          );
        }
      }
      return {
        ticketNumber: entry.ticketNumber,
        quoteType: entry.quoteType,
        amount,
        amountText: entry.amountText,
        amountMinor,
      };
    });

    let amountMinor: number | undefined;
    if (exponent !== undefined) {
      amountMinor = tickets.reduce((sum, ticket) => sum + ticket.amountMinor!, 0);
      if (!Number.isSafeInteger(amountMinor) || Number(minorToDecimal(amountMinor, exponent)) !== refundAmount) {
        throw reader.invalid(`${where}.RefundAmount ${refundAmount} is not the sum of the tickets' refunds`);
      }
    }
    return {
      ...itemOutcome(reader.string(item, 'Status', where), reader.string(item, 'ErrorMsg', where)),
      orderId: reader.string(item, 'OrderID', where),
      bookingReferences: reader.strings(item, 'GdsBookingReference', where),
      refund: { amount: refundAmount, amountMinor, currency, tickets },
      raw: item as unknown as WireInvoluntaryCancelItem,
    };
  });
  return reader.base(envelope, items);
}

/** A voluntary refund's ticket: the refund, and what it counts (amount = fare + taxes - penalty), as JSON numbers. */
export interface VoluntaryTicketRefund extends TicketRefund {
  fare: number;
  taxes: number;
  penalty: number;
  taxBreakdown: { taxCode: string; amount: number; refundable: boolean }[];
}

export type VoluntaryRefundItem = ItemOutcome & {
  orderId: string;
  bookingReferences: string[];
  /** The quote to confirm (AirOrderRefundQuote) or the one confirmed (AirOrderRefund); "" on a failed item. */
  quoteId: string;
  /** Until when the quote can be confirmed (ISO 8601); "" on a failed item. */
  expiresAt: string;
  refund: Omit<Refund, 'tickets'> & { tickets: VoluntaryTicketRefund[] };
  raw: WireInvoluntaryCancelItem & Record<string, unknown>;
};

export type VoluntaryRefundResult = ResultBase<unknown, unknown, VoluntaryRefundItem>;

/**
 * AirOrderRefundQuote's and AirOrderRefund's result: AirOrderInvoluntaryCancel's items (read and
 * checked the same way) with the quote and each ticket's breakdown.
 */
export function readVoluntaryRefundResult(
  body: unknown,
  context: ResponseContext,
  operation: OperationSpec,
  currency: string | undefined,
): VoluntaryRefundResult {
  const base = readInvoluntaryCancelResult(body, context, operation, currency);
  const items = base.items.map((item, index): VoluntaryRefundItem => {
    const raw = item.raw as unknown as Record<string, unknown>;
    const where = `Result[${index}]`;
    const text = (key: string) => {
      if (typeof raw[key] !== 'string') throw new Reader(body, context).invalid(`${where}.${key} is not a string`);
      return raw[key] as string;
    };
    const fares = raw.RefundPaxWiseFare as Record<string, unknown>[];
    const tickets = item.refund.tickets.map((ticket, position): VoluntaryTicketRefund => {
      const fare = fares[position]!;
      const breakdown = Array.isArray(fare.TaxBreakdown) ? (fare.TaxBreakdown as Record<string, unknown>[]) : [];
      return {
        ...ticket,
        fare: Number(fare.Fare),
        taxes: Number(fare.Taxes),
        penalty: Number(fare.Penalty),
        taxBreakdown: breakdown.map((line) => ({
          taxCode: String(line.TaxCode),
          amount: Number(line.Amount),
          refundable: line.Refundable === true,
        })),
      };
    });
    return {
      ...item,
      quoteId: text('QuoteID'),
      expiresAt: text('ExpiresAt'),
      refund: { ...item.refund, tickets },
      raw: item.raw as VoluntaryRefundItem['raw'],
    };
  });
  return { ...base, items };
}
