/** The service's operations: path, request and response root keys, and the result array's key. */
export interface OperationSpec {
  /** The interface's name of the operation, also its path. */
  readonly title: string;
  readonly path: string;
  readonly requestRoot: string;
  readonly responseRoot: string;
  /** The envelope's array: one item per booking reference (Response, Result), or the feed's Events. */
  readonly resultKey: 'Response' | 'Result' | 'Events';
  /**
   * Whether the operation changes orders. Only those take an Idempotency-Key: a read changes
   * nothing, so the client sends it none and retries it as it is.
   */
  readonly changesOrders: boolean;
}

export const OPERATIONS = {
  cancel: {
    title: 'AirOrderCancel',
    path: '/AirOrderCancel',
    requestRoot: 'OrderCancelRQ',
    responseRoot: 'OrderViewRS',
    resultKey: 'Response',
    changesOrders: true,
  },
  involuntaryAccept: {
    title: 'AirOrderInvoluntaryAccept',
    path: '/AirOrderInvoluntaryAccept',
    requestRoot: 'OrderInvoluntaryAcceptRQ',
    responseRoot: 'OrderInvoluntaryAcceptRS',
    resultKey: 'Result',
    changesOrders: true,
  },
  involuntaryCancel: {
    title: 'AirOrderInvoluntaryCancel',
    path: '/AirOrderInvoluntaryCancel',
    requestRoot: 'OrderInvoluntaryCancelRQ',
    responseRoot: 'OrderInvoluntaryCancelRS',
    resultKey: 'Result',
    changesOrders: true,
  },
  refundQuote: {
    title: 'AirOrderRefundQuote',
    path: '/AirOrderRefundQuote',
    requestRoot: 'OrderRefundQuoteRQ',
    responseRoot: 'OrderRefundQuoteRS',
    resultKey: 'Result',
    changesOrders: true,
  },
  refund: {
    title: 'AirOrderRefund',
    path: '/AirOrderRefund',
    requestRoot: 'OrderRefundRQ',
    responseRoot: 'OrderRefundRS',
    resultKey: 'Result',
    changesOrders: true,
  },
  // Answers in AirOrderCancel's envelope (OrderViewRS, the same Response items) with the order added.
  retrieve: {
    title: 'AirOrderRetrieve',
    path: '/AirOrderRetrieve',
    requestRoot: 'OrderRetrieveRQ',
    responseRoot: 'OrderViewRS',
    resultKey: 'Response',
    changesOrders: false,
  },
  eventList: {
    title: 'AirOrderEventList',
    path: '/AirOrderEventList',
    requestRoot: 'OrderEventListRQ',
    responseRoot: 'OrderEventListRS',
    resultKey: 'Events',
    changesOrders: false,
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;
