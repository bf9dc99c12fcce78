import { REQUEST_ERRORS, type ItemErrorCode, type RequestErrorCode } from '../../errors/error-codes.js';
import { OPERATION_ITEM_ERRORS, requestErrorsOf } from '../operation-errors.js';
import type { OperationWire, WireOperationName } from '../operations.js';

/** What the OpenAPI document says about each operation, beside its schemas. */
export interface OperationDoc {
  summary: string;
  description: string;
  tag: string;
  /** The item-level failures (HTTP 200, item FAILED) the operation can answer. */
  itemErrors: readonly ItemErrorCode[];
}

const COMMON = `One order and 1 to 20 booking references per request; references are case-insensitive and
de-duplicated (request order kept), and each gets one item in the result array. HTTP 200 means the
request was processed even if items failed: \`Success: {}\` exactly when every item succeeded,
otherwise \`Errors\` lists the distinct failures. Request-level failures answer with the status of
their code, in the same envelope.`;

export const OPERATION_DOCS: Record<WireOperationName, OperationDoc> = {
  cancel: {
    summary: 'Cancel bookings',
    tag: 'Servicing',
    description: `A confirmed booking becomes CANCELED and its pending airline changes are closed;
cancelling a cancelled booking succeeds again and changes nothing. A voluntary cancellation refunds
nothing. Each booking is processed on its own: the request commits what succeeded and nothing of what
failed.\n\n${COMMON}`,
    itemErrors: OPERATION_ITEM_ERRORS.cancel,
  },
  involuntaryAccept: {
    summary: 'Accept airline-initiated changes',
    tag: 'Servicing',
    description: `Every pending change of the booking is accepted in detection order: removed segments
leave the itinerary, added ones join it, and the tickets' coupons move with them. Repeating an accept
succeeds and changes nothing.\n\n${COMMON}`,
    itemErrors: OPERATION_ITEM_ERRORS.involuntaryAccept,
  },
  involuntaryCancel: {
    summary: 'Cancel because of airline-initiated changes, with refunds',
    tag: 'Servicing',
    description: `The booking must have a pending airline change. It is cancelled, and each ticket's
open (unflown) coupons are refunded at their value with no penalty: QuoteType FULL when nothing was
flown, PARTIAL otherwise. Amounts are JSON numbers in the order's currency. Repeating the call returns
the same refund and refunds nothing twice.\n\n${COMMON}`,
    itemErrors: OPERATION_ITEM_ERRORS.involuntaryCancel,
  },
  refundQuote: {
    summary: "Quote a voluntary refund by the fare's rules",
    tag: 'Refunds',
    description: `What refunding the passengers (\`Query.PassengerID\`; every passenger still in the
booking when absent) would give back now, per ticket, and a \`QuoteID\` to confirm it with AirOrderRefund
until \`ExpiresAt\`. It changes no booking. A ticket issued within the void window (VOID_WINDOW, 24 h by
default) with every coupon OPEN is voided: QuoteType VOID, everything back. Otherwise (QuoteType FULL) a
refundable fare gives back the base fare less its penalty and every tax; a non-refundable fare only its
refundable taxes (those flagged so, and without a flag every code but the carrier surcharges YQ and YR).
Per ticket, Amount = Fare + Taxes - Penalty. A void's quote expires when its window ends, if that comes
before the quote's time to live (REFUND_QUOTE_TTL, 15 min by default). A booking cancelled by
AirOrderCancel can still be quoted. All bookings quoted in one request share one QuoteID.\n\n${COMMON}`,
    itemErrors: OPERATION_ITEM_ERRORS.refundQuote,
  },
  refund: {
    summary: 'Confirm a refund quote',
    tag: 'Refunds',
    description: `Does exactly what the quote \`Query.QuoteID\` said for each requested booking, never
another amount: the quoted passengers leave the booking, their tickets' OPEN coupons become REFUNDED
(VOIDED for a void) and each ticket's refund is recorded with its breakdown; a booking left with no
passenger becomes CANCELED and its pending airline changes CLOSED. The item has the quote's shape. A
quote confirmed already answers the same refund again, even after it expired, and refunds nothing
twice; concurrent confirmations of one quote make one refund. After the quote's ExpiresAt the item is
QUOTE_EXPIRED, after any change of the booking since the quote QUOTE_OUTDATED; nothing changes then.\n\n${COMMON}`,
    itemErrors: OPERATION_ITEM_ERRORS.refund,
  },
  retrieve: {
    summary: "Retrieve an order's bookings (extension)",
    tag: 'Retrieval',
    description: `An extension in the interface's style: the requested bookings of the order as they
stand now, with their itinerary, passengers, tickets and coupons, airline-initiated changes and
refunds, under \`Order\`. \`Response\` has one item per requested reference, like AirOrderCancel's
(\`BookingStatus\` is the booking's status). A reference the order does not have is an item FAILED
BOOKING_NOT_FOUND and is absent from \`Order.Bookings\`. Reading changes nothing, so the operation
takes no Idempotency-Key.\n\n${COMMON}`,
    itemErrors: OPERATION_ITEM_ERRORS.retrieve,
  },
  eventList: {
    summary: "List the agency's events (extension)",
    tag: 'Events',
    description: `The agency's events after \`Query.After\` (an event id; from the oldest kept event when
absent), oldest first, at most \`Query.Limit\` (1 to 500, default 100), for agencies without a webhook
endpoint: airline changes detected, their deadlines approaching, changes resolved, bookings cancelled
and refunded. Send \`NextAfter\` as \`After\` to read the next page: a client that pages this way sees
every event exactly once, also while new ones arrive. Events are kept 30 days; an \`After\` that names
no kept event of the agency is INVALID_REQUEST. Another agency's events never appear. Reading changes
nothing, so the operation takes no Idempotency-Key.`,
    itemErrors: OPERATION_ITEM_ERRORS.eventList,
  },
};

/** The request-level codes of an operation grouped by HTTP status, statuses ascending. */
export function errorStatusesOf(operation: OperationWire): Map<number, RequestErrorCode[]> {
  const byStatus = new Map<number, RequestErrorCode[]>();
  for (const code of requestErrorsOf(operation)) {
    const status = REQUEST_ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
