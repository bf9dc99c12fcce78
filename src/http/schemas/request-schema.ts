import {
  BOOKING_REFERENCE_PATTERN, IATA_NUMBER_PATTERN, MAX_REFERENCES, ORDER_ID_PATTERN, REFERENCE_VERSION_PATTERN,
} from './field-rules.js';

const name = { type: 'string', maxLength: 200 } as const;

/** Shared by the three operations; the root key alone differs. Unknown fields are allowed and ignored. */
export function requestSchema(rootKey: string) {
  return {
    type: 'object',
    required: [rootKey],
    additionalProperties: false,
    properties: {
      [rootKey]: {
        type: 'object',
        required: ['Query'],
        properties: {
          Document: {
            type: 'object',
            properties: {
              Name: name,
              ReferenceVersion: { type: 'string', pattern: REFERENCE_VERSION_PATTERN, examples: ['1.0'] },
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
          Query: {
            type: 'object',
            required: ['OrderID', 'GdsBookingReference'],
            properties: {
              OrderID: { type: 'string', pattern: ORDER_ID_PATTERN },
              GdsBookingReference: {
                type: 'array',
                minItems: 1,
                maxItems: MAX_REFERENCES,
                items: { type: 'string', pattern: BOOKING_REFERENCE_PATTERN },
              },
            },
          },
        },
      },
    },
  } as const;
}
