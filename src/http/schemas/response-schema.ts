import type { OperationWire, WireOperationName } from '../operations.js';
import { orderSchema } from './order-schema.js';

const str = { type: 'string' } as const;

const sender = {
  type: 'object',
  properties: {
    Name: str,
    IATA_Number: str,
    AgencyID: str,
    Contacts: {
      type: 'object',
      properties: { Contact: { type: 'array', items: { type: 'object', properties: { EmailContact: str } } } },
    },
  },
} as const;

const cancelItem = {
  type: 'object',
  properties: { Status: str, Msg: str, BookingStatus: str, OrderID: str, GdsBookingReference: str },
} as const;

const acceptItem = {
  type: 'object',
  properties: { OrderID: str, GdsBookingReference: { type: 'array', items: str }, ErrorMsg: str, Status: str },
} as const;

const involuntaryCancelItem = {
  type: 'object',
  properties: {
    ...acceptItem.properties,
    RefundAmount: { type: 'number' },
    RefundText: str,
    RefundPaxWiseFare: {
      type: 'array',
      items: { type: 'object', properties: { TicketNumber: str, Amount: { type: 'number' } } },
    },
  },
} as const;

// AirOrderRetrieve answers in AirOrderCancel's response (OrderViewRS): the same items, and the order.
const ITEMS = { cancel: cancelItem, involuntaryAccept: acceptItem, involuntaryCancel: involuntaryCancelItem, retrieve: cancelItem };

/** Fields an operation adds to the envelope, between ShoppingResponseId and its result array. */
const EXTRA_FIELDS: Partial<Record<WireOperationName, Record<string, object>>> = { retrieve: { Order: orderSchema } };

/** The response envelope of an operation, for every outcome. Also compiles the serialiser. */
export function responseSchema(operation: OperationWire) {
  return {
    type: 'object',
    required: [operation.responseRoot],
    properties: {
      [operation.responseRoot]: {
        type: 'object',
        properties: {
          Document: { type: 'object', properties: { Name: str, ReferenceVersion: str } },
          Party: { type: 'object', properties: { Sender: { type: 'object', properties: { TravelAgencySender: sender } } } },
          ShoppingResponseId: str,
          ...EXTRA_FIELDS[operation.name],
          [operation.resultKey]: { type: 'array', items: ITEMS[operation.name] },
          Success: { type: 'object', additionalProperties: false, properties: {} },
          Errors: {
            type: 'array',
            items: { type: 'object', properties: { Code: str, Message: str } },
          },
        },
      },
    },
  } as const;
}
