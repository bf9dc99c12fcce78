import { normaliseReferences } from '../domain/booking-references.js';
import { ownProperty } from '../own-property.js';
import type { EnvelopeInput } from './request-context.js';
import {
  isBookingReferenceList,
  isOrderId,
  isReferenceVersionNumber,
  REFERENCE_VERSION_PATTERN,
  referenceVersionText,
} from './schemas/field-rules.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Lenient in (docs/contract.md §1.3): a single GdsBookingReference string becomes a one-element array and a
 * numeric ReferenceVersion its decimal string. Mutates the parsed body before schema validation.
 * Every number the document's number branch allows becomes a string its string branch allows; any
 * other number is left for the number branch to refuse, so the service accepts exactly the numbers
 * the OpenAPI document does.
 */
export function relaxRequestBody(body: unknown, rootKey: string): void {
  const root = isObject(body) ? ownProperty(body, rootKey) : undefined;
  if (!isObject(root)) return;
  if (isObject(root.Query) && typeof root.Query.GdsBookingReference === 'string') {
    root.Query.GdsBookingReference = [root.Query.GdsBookingReference];
  }
  // AirOrderRefundQuote's passengers, read like the references.
  if (isObject(root.Query) && typeof root.Query.PassengerID === 'string') {
    root.Query.PassengerID = [root.Query.PassengerID];
  }
  if (isObject(root.Document) && isReferenceVersionNumber(root.Document.ReferenceVersion)) {
    root.Document.ReferenceVersion = referenceVersionText(root.Document.ReferenceVersion);
  }
}

const VERSION = new RegExp(REFERENCE_VERSION_PATTERN);

/** Reads what the response envelope echoes, tolerating anything else being wrong with the body. */
export function readEnvelopeInput(body: unknown, rootKey: string): EnvelopeInput {
  const given = isObject(body) ? ownProperty(body, rootKey) : undefined;
  const root = isObject(given) ? given : {};
  const version = isObject(root.Document) ? root.Document.ReferenceVersion : undefined;
  const query = isObject(root.Query) ? root.Query : {};
  const readable = isOrderId(query.OrderID) && isBookingReferenceList(query.GdsBookingReference);
  return {
    referenceVersion: typeof version === 'string' && VERSION.test(version) ? version : null,
    orderId: readable ? (query.OrderID as string) : null,
    references: readable ? normaliseReferences(query.GdsBookingReference as string[]) : null,
  };
}
