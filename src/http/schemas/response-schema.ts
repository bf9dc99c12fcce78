import type { OperationWire } from '../operations.js';

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

const ITEMS = { cancel: cancelItem, involuntaryAccept: acceptItem, involuntaryCancel: involuntaryCancelItem };

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
