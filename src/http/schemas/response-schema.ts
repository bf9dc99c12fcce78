import type { OperationWire, WireOperationName } from '../operations.js';
import { EVENT_TYPES } from '../../events/event-types.js';
import { errorCodesOf } from '../operation-errors.js';
import { orderSchema } from './order-schema.js';

// What is always present is `required` and closed sets are enums, so that the document, and types
// generated from it, say what a client may rely on. The serialiser compiled from this schema also
// refuses to send an envelope that lacks a required field.
const str = { type: 'string' } as const;
const status = {
  type: 'string',
  enum: ['SUCCESS', 'FAILED'],
  description: 'SUCCESS or FAILED (never FAILURE).',
} as const;
const failureText = { type: 'string', description: 'Empty on success; `CODE: text` on failure.' } as const;

const sender = {
  type: 'object',
  required: ['Name', 'IATA_Number', 'AgencyID', 'Contacts'],
  description: "The authenticated agency's registered profile; empty strings and no contacts when unauthenticated.",
  properties: {
    Name: str,
    IATA_Number: str,
    AgencyID: str,
    Contacts: {
      type: 'object',
      required: ['Contact'],
      properties: {
        Contact: {
          type: 'array',
          items: { type: 'object', required: ['EmailContact'], properties: { EmailContact: str } },
        },
      },
    },
  },
} as const;

const cancelItem = {
  type: 'object',
  required: ['Status', 'Msg', 'BookingStatus', 'OrderID', 'GdsBookingReference'],
  properties: {
    Status: status,
    Msg: failureText,
    BookingStatus: {
      type: 'string',
      enum: ['CONFIRMED', 'CANCELED', ''],
      description: 'The booking\'s status; "" on a FAILED item, which never claims a status it does not know.',
    },
    OrderID: str,
    GdsBookingReference: str,
  },
} as const;

const acceptItem = {
  type: 'object',
  required: ['OrderID', 'GdsBookingReference', 'ErrorMsg', 'Status'],
  properties: {
    OrderID: str,
    GdsBookingReference: { type: 'array', items: str },
    ErrorMsg: failureText,
    Status: status,
  },
} as const;

const involuntaryCancelItem = {
  type: 'object',
  required: [...acceptItem.required, 'RefundAmount', 'RefundText', 'RefundPaxWiseFare'],
  properties: {
    ...acceptItem.properties,
    RefundAmount: { type: 'number', description: "In the order's currency; 0 on a FAILED item." },
    RefundText: {
      type: 'string',
      description:
        'Per ticket `TicketNumber:<n> QuoteType:<FULL|PARTIAL> RefundAmount:<amount>`, joined by single ' +
        'spaces; QuoteType is FULL when no coupon of the ticket was flown, PARTIAL otherwise.',
    },
    RefundPaxWiseFare: {
      type: 'array',
      items: {
        type: 'object',
        required: ['TicketNumber', 'Amount'],
        properties: { TicketNumber: str, Amount: { type: 'number' } },
      },
    },
  },
} as const;

const amount = { type: 'number', description: "In the order's currency." } as const;

/** AirOrderRefundQuote's and AirOrderRefund's item: AirOrderInvoluntaryCancel's, with the breakdown per ticket and the quote. */
const voluntaryRefundItem = {
  type: 'object',
  required: [...involuntaryCancelItem.required, 'QuoteID', 'ExpiresAt'],
  properties: {
    ...involuntaryCancelItem.properties,
    RefundText: {
      type: 'string',
      description:
        'Per ticket `TicketNumber:<n> QuoteType:<VOID|FULL> RefundAmount:<amount>`, joined by single ' +
        'spaces: VOID when the ticket is voided in its void window, FULL when it is refunded by its ' +
        'fare rules.',
    },
    RefundPaxWiseFare: {
      type: 'array',
      description: 'Per ticket, in passenger order; Amount = Fare + Taxes - Penalty.',
      items: {
        type: 'object',
        required: ['TicketNumber', 'Amount', 'Fare', 'Taxes', 'Penalty', 'TaxBreakdown'],
        properties: {
          TicketNumber: str,
          Amount: amount,
          Fare: {
            ...amount,
            description:
              'The base fare the refund counts: all of it for a refundable fare or a void, 0 for a non-refundable fare.',
          },
          Taxes: { ...amount, description: 'The taxes given back.' },
          Penalty: {
            ...amount,
            description: 'What the airline keeps of the fare (never more than the fare; 0 on a void).',
          },
          TaxBreakdown: {
            type: 'array',
            description:
              'Each tax of the ticket and whether it is given back; empty when the ticket has no breakdown (its one tax is then given back).',
            items: {
              type: 'object',
              required: ['TaxCode', 'Amount', 'Refundable'],
              properties: { TaxCode: str, Amount: amount, Refundable: { type: 'boolean' } },
            },
          },
        },
      },
    },
    QuoteID: { type: 'string', description: 'The quote to confirm with AirOrderRefund; "" on a FAILED item.' },
    ExpiresAt: {
      type: 'string',
      description: 'Until when the quote can be confirmed (ISO 8601, UTC); "" on a FAILED item.',
    },
  },
} as const;

const eventItem = {
  type: 'object',
  required: ['EventID', 'Type', 'Timestamp', 'Data'],
  properties: {
    EventID: {
      type: 'string',
      description: 'evt_ and a sortable unique id; also the webhook-id of its webhook deliveries.',
    },
    Type: { type: 'string', enum: [...EVENT_TYPES] },
    Timestamp: { type: 'string', format: 'date-time', description: 'When the change it reports was made.' },
    Data: {
      type: 'object',
      additionalProperties: true,
      description:
        "Per type, in the interface's PascalCase; amounts as JSON numbers in the order's currency (docs/webhooks.md).",
    },
  },
} as const;

// AirOrderRetrieve answers in AirOrderCancel's response (OrderViewRS): the same items, and the order.
const ITEMS = {
  cancel: cancelItem,
  involuntaryAccept: acceptItem,
  involuntaryCancel: involuntaryCancelItem,
  refundQuote: voluntaryRefundItem,
  refund: voluntaryRefundItem,
  retrieve: cancelItem,
  eventList: eventItem,
};

/** Fields an operation adds to the envelope, between ShoppingResponseId and its result array. */
const EXTRA_FIELDS: Partial<Record<WireOperationName, Record<string, object>>> = {
  retrieve: { Order: orderSchema },
  eventList: {
    NextAfter: {
      type: 'string',
      description:
        'The id of the last event listed, to send as Query.After for the next page (After itself when the page is empty; "" when there is no event yet).',
    },
  },
};

/** The response envelope of an operation, for every outcome. Also compiles the serialiser. */
export function responseSchema(operation: OperationWire) {
  return {
    type: 'object',
    required: [operation.responseRoot],
    properties: {
      [operation.responseRoot]: {
        type: 'object',
        required: ['Document', 'Party', 'ShoppingResponseId', operation.resultKey],
        properties: {
          Document: {
            type: 'object',
            required: ['Name', 'ReferenceVersion'],
            properties: { Name: str, ReferenceVersion: str },
          },
          Party: {
            type: 'object',
            required: ['Sender'],
            properties: {
              Sender: { type: 'object', required: ['TravelAgencySender'], properties: { TravelAgencySender: sender } },
            },
          },
          ShoppingResponseId: { type: 'string', description: 'Unique per response; equal to the X-Request-Id header.' },
          ...EXTRA_FIELDS[operation.name],
          [operation.resultKey]: { type: 'array', items: ITEMS[operation.name] },
          Success: {
            type: 'object',
            additionalProperties: false,
            properties: {},
            description: 'Present, empty, exactly when every item succeeded; otherwise Errors is.',
          },
          Errors: {
            type: 'array',
            description: 'Present when Success is not: one entry per distinct failure.',
            items: {
              type: 'object',
              required: ['Code', 'Message'],
              properties: { Code: { type: 'string', enum: errorCodesOf(operation) }, Message: str },
            },
          },
        },
      },
    },
  } as const;
}
