/** The formats of docs/contract.md §3, shared by the request schema, lenient reading and error messages. */
export const ORDER_ID_PATTERN = '^[A-Za-z0-9_./-]{1,64}$';
export const BOOKING_REFERENCE_PATTERN = '^[A-Za-z0-9]{5,8}$';
export const REFERENCE_VERSION_PATTERN = '^[0-9]{1,9}(\\.[0-9]{1,9})?$';
export const IATA_NUMBER_PATTERN = '^[0-9]{7,8}$';
export const MAX_REFERENCES = 20;

/** What each field must be, in words, for INVALID_REQUEST messages. */
export const FIELD_RULES: Record<string, string> = {
  OrderID: 'must be a string of 1 to 64 letters, digits or the characters - _ . /',
  GdsBookingReference: `must be 1 to ${MAX_REFERENCES} booking references, each 5 to 8 letters or digits`,
  ReferenceVersion: 'must be a decimal number such as "1.0"',
  IATA_Number: 'must be 7 or 8 digits',
  AgencyID: 'must be a string of 1 to 64 characters',
  EmailContact: 'must be an e-mail address',
  Name: 'must be a string of at most 200 characters',
  After: 'must be an event id (evt_ and 28 hexadecimal digits), the NextAfter of a previous page',
  Limit: 'must be a whole number from 1 to 500',
};

const orderIdRegex = new RegExp(ORDER_ID_PATTERN);
const referenceRegex = new RegExp(BOOKING_REFERENCE_PATTERN);

export function isOrderId(value: unknown): value is string {
  return typeof value === 'string' && orderIdRegex.test(value);
}

export function isBookingReferenceList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length >= 1 && value.length <= MAX_REFERENCES
    && value.every((item) => typeof item === 'string' && referenceRegex.test(item));
}
