import { toWireAmount } from '../domain/money.js';
import { refundTotal } from '../domain/refund-calculator.js';
import { refundText } from '../domain/refund-text.js';
import type { BookingOutcome, QuotedRefund } from '../domain/booking-outcome.js';
import type { Booking } from '../domain/order.js';
import { quoteAmount } from '../domain/voluntary-quote.js';
import type { ItemResult } from '../service/order-operations.js';
import type { WireOperationName } from './operations.js';

export interface WireFailure {
  code: string;
  message: string;
}

/** The operations whose result array has one item per booking reference (not the event feed). */
export type ItemOperationName = Exclude<WireOperationName, 'eventList'>;

/** The text a failed item carries in Msg or ErrorMsg. */
export function failureText(failure: WireFailure): string {
  return `${failure.code}: ${failure.message}`;
}

/**
 * A voluntary refund, quoted or made, as its item shows it: AirOrderInvoluntaryCancel's fields, each
 * ticket's breakdown (Amount = Fare + Taxes - Penalty), the quote's id and its expiry.
 */
function voluntaryRefundItem(orderId: string, reference: string, refund: QuotedRefund, currency: string) {
  const money = (minor: number) => toWireAmount(minor, currency);
  return {
    OrderID: orderId,
    GdsBookingReference: [reference],
    ErrorMsg: '',
    Status: 'SUCCESS',
    RefundAmount: money(quoteAmount(refund.tickets)),
    RefundText: refundText(refund.tickets, currency),
    RefundPaxWiseFare: refund.tickets.map((ticket) => ({
      TicketNumber: ticket.ticketNumber,
      Amount: money(ticket.amount),
      Fare: money(ticket.breakdown.fare),
      Taxes: money(ticket.breakdown.taxes),
      Penalty: money(ticket.breakdown.penalty),
      TaxBreakdown: ticket.breakdown.taxLines.map((line) => ({
        TaxCode: line.code,
        Amount: money(line.amount),
        Refundable: line.refundable,
      })),
    })),
    QuoteID: refund.quoteId,
    ExpiresAt: refund.expiresAt,
  };
}

/** AirOrderRetrieve's items are AirOrderCancel's: the booking's status as it stands. */
export function successItem(
  operation: ItemOperationName,
  orderId: string,
  reference: string,
  booking: Booking,
  currency: string,
  refund?: QuotedRefund,
) {
  switch (operation) {
    case 'refundQuote':
    case 'refund':
      if (!refund) throw new Error(`a successful ${operation} item carries its refund`);
      return voluntaryRefundItem(orderId, reference, refund, currency);
    case 'cancel':
    case 'retrieve':
      return {
        Status: 'SUCCESS',
        Msg: '',
        BookingStatus: booking.status,
        OrderID: orderId,
        GdsBookingReference: reference,
      };
    case 'involuntaryAccept':
      return { OrderID: orderId, GdsBookingReference: [reference], ErrorMsg: '', Status: 'SUCCESS' };
    case 'involuntaryCancel': {
      // Its own refunds: not those of passengers who left by a voluntary refund before.
      const refunds = booking.refunds.filter((refund) => refund.quoteId === undefined);
      return {
        OrderID: orderId,
        GdsBookingReference: [reference],
        ErrorMsg: '',
        Status: 'SUCCESS',
        RefundAmount: toWireAmount(refundTotal(refunds), currency),
        RefundText: refundText(refunds, currency),
        RefundPaxWiseFare: refunds.map((refund) => ({
          TicketNumber: refund.ticketNumber,
          Amount: toWireAmount(refund.amount, currency),
        })),
      };
    }
  }
}

/** A failed item never claims a status or a refund it does not know. */
export function failedItem(operation: ItemOperationName, orderId: string, reference: string, failure: WireFailure) {
  const text = failureText(failure);
  switch (operation) {
    case 'cancel':
    case 'retrieve':
      return { Status: 'FAILED', Msg: text, BookingStatus: '', OrderID: orderId, GdsBookingReference: reference };
    case 'involuntaryAccept':
      return { OrderID: orderId, GdsBookingReference: [reference], ErrorMsg: text, Status: 'FAILED' };
    case 'involuntaryCancel':
      return {
        OrderID: orderId,
        GdsBookingReference: [reference],
        ErrorMsg: text,
        Status: 'FAILED',
        RefundAmount: 0,
        RefundText: '',
        RefundPaxWiseFare: [],
      };
    case 'refundQuote':
    case 'refund':
      return {
        OrderID: orderId,
        GdsBookingReference: [reference],
        ErrorMsg: text,
        Status: 'FAILED',
        RefundAmount: 0,
        RefundText: '',
        RefundPaxWiseFare: [],
        QuoteID: '',
        ExpiresAt: '',
      };
  }
}

/** A processed request's items, one per requested reference, and the failures its `Errors` lists. */
export interface RenderedItems {
  items: object[];
  failures: WireFailure[];
}

/**
 * The one renderer of per-booking results, for every operation that has them (the three changes and
 * AirOrderRetrieve) and for the OpenAPI examples made from the same rules.
 */
export function renderItems(
  operation: ItemOperationName,
  orderId: string,
  currency: string,
  results: readonly ItemResult[],
): RenderedItems {
  return {
    items: results.map(({ reference, outcome }: { reference: string; outcome: BookingOutcome }) =>
      outcome.ok
        ? successItem(operation, orderId, reference, outcome.booking, currency, outcome.refund)
        : failedItem(operation, orderId, reference, outcome),
    ),
    failures: results.flatMap(({ outcome }) => (outcome.ok ? [] : [{ code: outcome.code, message: outcome.message }])),
  };
}
