import type { OperationWire, WireOperationName } from '../operations.js';
import { EVENT_TYPES } from '../../events/event-types.js';
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

const eventItem = {
  type: 'object',
  required: ['EventID', 'Type', 'Timestamp', 'Data'],
  properties: {
    EventID: { type: 'string', description: 'evt_ and a sortable unique id; also the webhook-id of its webhook deliveries.' },
    Type: { type: 'string', enum: [...EVENT_TYPES] },
    Timestamp: { type: 'string', format: 'date-time', description: 'When the change it reports was made.' },
    Data: { type: 'object', additionalProperties: true, description: 'Per type, in the interface\'s PascalCase; amounts as JSON numbers in the order\'s currency (docs/webhooks.md).' },
  },
} as const;

// AirOrderRetrieve answers in AirOrderCancel's response (OrderViewRS): the same items, and the order.
const ITEMS = { cancel: cancelItem, involuntaryAccept: acceptItem, involuntaryCancel: involuntaryCancelItem, retrieve: cancelItem, eventList: eventItem };

/** Fields an operation adds to the envelope, between ShoppingResponseId and its result array. */
const EXTRA_FIELDS: Partial<Record<WireOperationName, Record<string, object>>> = {
  retrieve: { Order: orderSchema },
  eventList: { NextAfter: { type: 'string', description: 'The id of the last event listed, to send as Query.After for the next page (After itself when the page is empty; "" when there is no event yet).' } },
};

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
