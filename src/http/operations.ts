import type { OperationName } from '../service/order-operations.js';

/** Every operation on the wire: the three of the interface and the two refunds, which change orders, the read, and the event feed. */
export type WireOperationName = OperationName | 'retrieve' | 'eventList';

export interface OperationWire<Name extends WireOperationName = WireOperationName> {
  name: Name;
  /** The interface's name for the operation, also its path. */
  title: string;
  path: string;
  requestRoot: string;
  responseRoot: string;
  resultKey: 'Response' | 'Result' | 'Events';
  /** Whether the operation changes orders (and so takes an Idempotency-Key); a read changes nothing. */
  changesOrders: boolean;
}

export const OPERATIONS: { [Name in OperationName]: OperationWire<Name> } = {
  cancel: {
    name: 'cancel',
    title: 'AirOrderCancel',
    path: '/AirOrderCancel',
    requestRoot: 'OrderCancelRQ',
    responseRoot: 'OrderViewRS',
    resultKey: 'Response',
    changesOrders: true,
  },
  involuntaryAccept: {
    name: 'involuntaryAccept',
    title: 'AirOrderInvoluntaryAccept',
    path: '/AirOrderInvoluntaryAccept',
    requestRoot: 'OrderInvoluntaryAcceptRQ',
    responseRoot: 'OrderInvoluntaryAcceptRS',
    resultKey: 'Result',
    changesOrders: true,
  },
  involuntaryCancel: {
    name: 'involuntaryCancel',
    title: 'AirOrderInvoluntaryCancel',
    path: '/AirOrderInvoluntaryCancel',
    requestRoot: 'OrderInvoluntaryCancelRQ',
    responseRoot: 'OrderInvoluntaryCancelRS',
    resultKey: 'Result',
    changesOrders: true,
  },
  // A quote changes no booking, but it is stored, and a retry under the same Idempotency-Key gets the same quote.
  refundQuote: {
    name: 'refundQuote',
    title: 'AirOrderRefundQuote',
    path: '/AirOrderRefundQuote',
    requestRoot: 'OrderRefundQuoteRQ',
    responseRoot: 'OrderRefundQuoteRS',
    resultKey: 'Result',
    changesOrders: true,
  },
  refund: {
    name: 'refund',
    title: 'AirOrderRefund',
    path: '/AirOrderRefund',
    requestRoot: 'OrderRefundRQ',
    responseRoot: 'OrderRefundRS',
    resultKey: 'Result',
    changesOrders: true,
  },
};

/** The extension in the interface's style: an order's bookings as they stand now (changes nothing). */
export const RETRIEVE: OperationWire<'retrieve'> = {
  name: 'retrieve',
  title: 'AirOrderRetrieve',
  path: '/AirOrderRetrieve',
  requestRoot: 'OrderRetrieveRQ',
  responseRoot: 'OrderViewRS',
  resultKey: 'Response',
  changesOrders: false,
};

/** The agency's events, oldest first, for agencies without a webhook endpoint (docs/webhooks.md). */
export const EVENT_LIST: OperationWire<'eventList'> = {
  name: 'eventList',
  title: 'AirOrderEventList',
  path: '/AirOrderEventList',
  requestRoot: 'OrderEventListRQ',
  responseRoot: 'OrderEventListRS',
  resultKey: 'Events',
  changesOrders: false,
};
