import type { OperationWire } from '../operations.js';
import {
  BOOKING_REFERENCE_PATTERN,
  IATA_NUMBER_PATTERN,
  MAX_PASSENGERS,
  MAX_REFERENCES,
  ORDER_ID_PATTERN,
  PASSENGER_ID_PATTERN,
  QUOTE_ID_PATTERN,
  REFERENCE_VERSION_NUMBER_LIMIT,
  REFERENCE_VERSION_PATTERN,
} from './field-rules.js';

const name = { type: 'string', maxLength: 200 } as const;

const ORDER_QUERY = {
  type: 'object',
  required: ['OrderID', 'GdsBookingReference'],
  properties: {
    OrderID: { type: 'string', pattern: ORDER_ID_PATTERN },
    // The array first: a violation is reported at the same path as with the array alone.
    GdsBookingReference: {
      oneOf: [
        {
          type: 'array',
          minItems: 1,
          maxItems: MAX_REFERENCES,
          items: { type: 'string', pattern: BOOKING_REFERENCE_PATTERN },
        },
        {
          type: 'string',
          pattern: BOOKING_REFERENCE_PATTERN,
          description: 'One reference alone, read as a one-element array.',
        },
      ],
      description:
        `1 to ${MAX_REFERENCES} booking references, each 5 to 8 letters or digits, case-insensitive; ` +
        `duplicates are collapsed, request order is kept.`,
    },
  },
} as const;

/**
 * Shared by the operations on an order; the root key alone differs. Unknown fields are allowed and
 * ignored. The string and number variants describe what lenient reading accepts (docs/contract.md
 * §1): the body is relaxed to the array and string forms before it is validated.
 */
export function requestSchema(rootKey: string) {
  return envelopeRequestSchema(rootKey, ORDER_QUERY, true);
}

export const EVENT_ID_PATTERN = '^evt_[0-9a-f]{28}$';
export const MAX_EVENTS_PER_PAGE = 500;

/** AirOrderEventList: both query fields are optional, and so is the Query itself. */
export function eventListRequestSchema(rootKey: string) {
  return envelopeRequestSchema(
    rootKey,
    {
      type: 'object',
      properties: {
        After: {
          type: 'string',
          pattern: EVENT_ID_PATTERN,
          description:
            'The last event id seen (NextAfter of the previous page); from the oldest kept event when absent.',
        },
        Limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_EVENTS_PER_PAGE,
          default: 100,
          description: 'Events per page, 1 to 500 (default 100).',
        },
      },
    } as const,
    false,
  );
}

/** AirOrderRefundQuote: the order's query, and optionally which passengers. */
export function refundQuoteRequestSchema(rootKey: string) {
  return envelopeRequestSchema(
    rootKey,
    {
      ...ORDER_QUERY,
      properties: {
        ...ORDER_QUERY.properties,
        PassengerID: {
          oneOf: [
            {
              type: 'array',
              minItems: 1,
              maxItems: MAX_PASSENGERS,
              items: { type: 'string', pattern: PASSENGER_ID_PATTERN },
            },
            {
              type: 'string',
              pattern: PASSENGER_ID_PATTERN,
              description: 'One passenger alone, read as a one-element array.',
            },
          ],
          description:
            `The passengers to refund, 1 to ${MAX_PASSENGERS} PassengerIDs of each requested booking; every ` +
            `passenger still in the booking when absent.`,
        },
      },
    } as const,
    true,
  );
}

/** AirOrderRefund: the order's query and the quote to confirm. */
export function refundRequestSchema(rootKey: string) {
  return envelopeRequestSchema(
    rootKey,
    {
      ...ORDER_QUERY,
      required: [...ORDER_QUERY.required, 'QuoteID'],
      properties: {
        ...ORDER_QUERY.properties,
        QuoteID: {
          type: 'string',
          pattern: QUOTE_ID_PATTERN,
          description: 'The QuoteID of an AirOrderRefundQuote answer for this order.',
        },
      },
    } as const,
    true,
  );
}

/** The body schema of an operation's route. */
export function requestSchemaFor(operation: Pick<OperationWire, 'name' | 'requestRoot'>) {
  switch (operation.name) {
    case 'eventList':
      return eventListRequestSchema(operation.requestRoot);
    case 'refundQuote':
      return refundQuoteRequestSchema(operation.requestRoot);
    case 'refund':
      return refundRequestSchema(operation.requestRoot);
    default:
      return requestSchema(operation.requestRoot);
  }
}

function envelopeRequestSchema<Query extends object>(rootKey: string, query: Query, queryRequired: boolean) {
  return {
    type: 'object',
    required: [rootKey],
    additionalProperties: false,
    properties: {
      [rootKey]: {
        type: 'object',
        ...(queryRequired ? { required: ['Query'] } : {}),
        properties: {
          Document: {
            type: 'object',
            properties: {
              Name: name,
              ReferenceVersion: {
                oneOf: [
                  { type: 'string', pattern: REFERENCE_VERSION_PATTERN, examples: ['1.0'] },
                  {
                    type: 'number',
                    minimum: 0,
                    exclusiveMaximum: REFERENCE_VERSION_NUMBER_LIMIT,
                    description:
                      'A number from 0 to below 1000000000, read as its decimal string (1e-7 as "0.0000001"), rounded to 9 decimals.',
                  },
                ],
                description: 'A decimal number such as "1.0", echoed in the response.',
              },
            },
          },
          Party: {
            type: 'object',
            properties: {
              Sender: {
                type: 'object',
                properties: {
                  TravelAgencySender: {
                    type: 'object',
                    properties: {
                      Name: name,
                      IATA_Number: { type: 'string', pattern: IATA_NUMBER_PATTERN },
                      AgencyID: { type: 'string', minLength: 1, maxLength: 64 },
                      Contacts: {
                        type: 'object',
                        properties: {
                          Contact: {
                            type: 'array',
                            maxItems: 20,
                            items: {
                              type: 'object',
                              properties: { EmailContact: { type: 'string', format: 'email', maxLength: 254 } },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          Query: query,
        },
      },
    },
  } as const;
}
