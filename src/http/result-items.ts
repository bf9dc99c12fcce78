import { toWireAmount } from '../domain/money.js';
import { refundTotal } from '../domain/refund-calculator.js';
import { refundText } from '../domain/refund-text.js';
import type { Booking } from '../domain/order.js';
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

/** AirOrderRetrieve's items are AirOrderCancel's: the booking's status as it stands. */
export function successItem(operation: ItemOperationName, orderId: string, reference: string, booking: Booking, currency: string) {
  switch (operation) {
    case 'cancel':
    case 'retrieve':
      return { Status: 'SUCCESS', Msg: '', BookingStatus: booking.status, OrderID: orderId, GdsBookingReference: reference };
    case 'involuntaryAccept':
      return { OrderID: orderId, GdsBookingReference: [reference], ErrorMsg: '', Status: 'SUCCESS' };
    case 'involuntaryCancel':
      return {
        OrderID: orderId,
        GdsBookingReference: [reference],
        ErrorMsg: '',
        Status: 'SUCCESS',
        RefundAmount: toWireAmount(refundTotal(booking.refunds), currency),
        RefundText: refundText(booking.refunds, currency),
        RefundPaxWiseFare: booking.refunds.map((refund) => ({
          TicketNumber: refund.ticketNumber,
          Amount: toWireAmount(refund.amount, currency),
        })),
      };
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
        OrderID: orderId, GdsBookingReference: [reference], ErrorMsg: text, Status: 'FAILED',
        RefundAmount: 0, RefundText: '', RefundPaxWiseFare: [],
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
export function renderItems(operation: ItemOperationName, orderId: string, currency: string, results: readonly ItemResult[]): RenderedItems {
  return {
    items: results.map(({ reference, outcome }) => outcome.ok
      ? successItem(operation, orderId, reference, outcome.booking, currency)
      : failedItem(operation, orderId, reference, outcome)),
    failures: results.flatMap(({ outcome }) => outcome.ok ? [] : [{ code: outcome.code, message: outcome.message }]),
  };
}
