/** The formats of docs/contract.md §3, shared by the request schema, lenient reading and error messages. */
export const ORDER_ID_PATTERN = '^[A-Za-z0-9_./-]{1,64}$';
export const BOOKING_REFERENCE_PATTERN = '^[A-Za-z0-9]{5,8}$';
export const REFERENCE_VERSION_PATTERN = '^[0-9]{1,9}(\\.[0-9]{1,9})?$';
/**
 * A ReferenceVersion sent as a number is read when it is at least 0 and below this: at most the 9
 * digits before the point that the string form allows, so that its decimal string fits the pattern
 * (docs/decisions.md). The OpenAPI document's number branch is bounded by the same value.
 */
export const REFERENCE_VERSION_NUMBER_LIMIT = 1_000_000_000;
/** Decimals a ReferenceVersion keeps, as the pattern's part after the point. */
const REFERENCE_VERSION_DECIMALS = 9;
export const IATA_NUMBER_PATTERN = '^[0-9]{7,8}$';
export const MAX_REFERENCES = 20;
/** As the order documents spell passenger ids (order-document.ts). */
export const PASSENGER_ID_PATTERN = '^[A-Za-z0-9_-]{1,32}$';
export const MAX_PASSENGERS = 20;
export const QUOTE_ID_PATTERN = '^rfq_[0-9a-f]{24}$';

/** What each field must be, in words, for INVALID_REQUEST messages. */
export const FIELD_RULES: Record<string, string> = {
  OrderID: 'must be a string of 1 to 64 letters, digits or the characters - _ . /',
  GdsBookingReference: `must be 1 to ${MAX_REFERENCES} booking references, each 5 to 8 letters or digits`,
  ReferenceVersion:
    'must be a decimal number such as "1.0" (a string of up to 9 digits, optionally a point and up to 9 more) or a number from 0 to below 1000000000',
  IATA_Number: 'must be 7 or 8 digits',
  AgencyID: 'must be a string of 1 to 64 characters',
  EmailContact: 'must be an e-mail address',
  Name: 'must be a string of at most 200 characters',
  After: 'must be an event id (evt_ and 28 hexadecimal digits), the NextAfter of a previous page',
  Limit: 'must be a whole number from 1 to 500',
  PassengerID: `must be 1 to ${MAX_PASSENGERS} passenger ids, each 1 to 32 letters, digits, - or _`,
  QuoteID: 'must be the QuoteID of an AirOrderRefundQuote answer (rfq_ and 24 hexadecimal digits)',
};

const orderIdRegex = new RegExp(ORDER_ID_PATTERN);
const referenceRegex = new RegExp(BOOKING_REFERENCE_PATTERN);

export function isOrderId(value: unknown): value is string {
  return typeof value === 'string' && orderIdRegex.test(value);
}

export function isBookingReferenceList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= MAX_REFERENCES &&
    value.every((item) => typeof item === 'string' && referenceRegex.test(item))
  );
}

/** Whether a ReferenceVersion sent as a number is read (the OpenAPI document's number branch). */
export function isReferenceVersionNumber(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value < REFERENCE_VERSION_NUMBER_LIMIT;
}

/**
 * The decimal string a ReferenceVersion number is read as: the shortest decimal that is the number,
 * written without an exponent (1e-7 is "0.0000001"), and rounded to the string form's 9 decimals
 * where it has more (0.1 + 0.2 is "0.3"). Within REFERENCE_VERSION_NUMBER_LIMIT it always matches
 * REFERENCE_VERSION_PATTERN.
 */
export function referenceVersionText(value: number): string {
  const shortest = plainDecimal(value);
  const decimals = shortest.split('.')[1]?.length ?? 0;
  if (decimals <= REFERENCE_VERSION_DECIMALS) return shortest;
  return value.toFixed(REFERENCE_VERSION_DECIMALS).replace(/0+$/, '').replace(/\.$/, '');
}

/** A number as JavaScript writes it, with an exponent (below 1e-6, from 1e21) spelled out in digits. */
function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = match[1]! + (match[2] ?? '');
  const point = 1 + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  // From 1e21 the point lies past every digit a number has (at most 17).
  return digits + '0'.repeat(point - digits.length);
}
