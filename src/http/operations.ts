import type { OperationName } from '../service/order-operations.js';

export interface OperationWire {
  name: OperationName;
  /** The interface's name for the operation, also its path. */
  title: string;
  path: string;
  requestRoot: string;
  responseRoot: string;
  resultKey: 'Response' | 'Result';
}

export const OPERATIONS: Record<OperationName, OperationWire> = {
  cancel: {
    name: 'cancel', title: 'AirOrderCancel', path: '/AirOrderCancel',
    requestRoot: 'OrderCancelRQ', responseRoot: 'OrderViewRS', resultKey: 'Response',
  },
  involuntaryAccept: {
    name: 'involuntaryAccept', title: 'AirOrderInvoluntaryAccept', path: '/AirOrderInvoluntaryAccept',
    requestRoot: 'OrderInvoluntaryAcceptRQ', responseRoot: 'OrderInvoluntaryAcceptRS', resultKey: 'Result',
  },
  involuntaryCancel: {
    name: 'involuntaryCancel', title: 'AirOrderInvoluntaryCancel', path: '/AirOrderInvoluntaryCancel',
    requestRoot: 'OrderInvoluntaryCancelRQ', responseRoot: 'OrderInvoluntaryCancelRS', resultKey: 'Result',
  },
};
