import { createHash } from 'node:crypto';
import type { Booking } from '../domain/order.js';

/** JSON with every object's keys sorted: the same booking gives the same text whatever order its fields were built in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = new Map(Object.entries(value).filter(([, field]) => field !== undefined));
    // The default sort orders the keys by their UTF-16 code units.
    const keys = [...fields.keys()].sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(fields.get(key))}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The booking as it stands, as one digest: a refund quote keeps it, and AirOrderRefund confirms the
 * quote only while the booking's is still the same. Any change of the booking (an airline change
 * recorded or resolved, another refund, a cancellation, an operator's act) changes it; a change of
 * another booking of the order, or a quote, does not.
 */
export function bookingFingerprint(booking: Booking): string {
  return createHash('sha256').update(canonical(booking)).digest('base64url');
}
