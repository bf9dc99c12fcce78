/** The service's operations: path, request and response root keys, and the result array's key. */
export interface OperationSpec {
  /** The interface's name of the operation, also its path. */
  readonly title: string;
  readonly path: string;
  readonly requestRoot: string;
  readonly responseRoot: string;
  readonly resultKey: 'Response' | 'Result';
}

export const OPERATIONS = {
  cancel: {
    title: 'AirOrderCancel', path: '/AirOrderCancel',
    requestRoot: 'OrderCancelRQ', responseRoot: 'OrderViewRS', resultKey: 'Response',
  },
  involuntaryAccept: {
    title: 'AirOrderInvoluntaryAccept', path: '/AirOrderInvoluntaryAccept',
    requestRoot: 'OrderInvoluntaryAcceptRQ', responseRoot: 'OrderInvoluntaryAcceptRS', resultKey: 'Result',
  },
  involuntaryCancel: {
    title: 'AirOrderInvoluntaryCancel', path: '/AirOrderInvoluntaryCancel',
    requestRoot: 'OrderInvoluntaryCancelRQ', responseRoot: 'OrderInvoluntaryCancelRS', resultKey: 'Result',
  },
  // ── AirOrderRetrieve (placeholder) ────────────────────────────────────────────────────────
  // POST /AirOrderRetrieve (OrderRetrieveRQ → OrderViewRS carrying the order) is being added to
  // the service. Once its response shape is settled, add it here:
  //   retrieve: { title: 'AirOrderRetrieve', path: '/AirOrderRetrieve',
  //               requestRoot: 'OrderRetrieveRQ', responseRoot: 'OrderViewRS', resultKey: … },
  // then its wire types (wire.ts), its view (results.ts) and `AirOrderClient.retrieve()` (client.ts).
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;
