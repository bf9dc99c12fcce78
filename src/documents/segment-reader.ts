import type { Segment } from '../domain/order.js';
import { FieldError } from './document-error.js';
import { child, type FieldPath } from './field-path.js';
import { instantTime, object, text } from './field-readers.js';

export const SEGMENT_ID = /^[A-Za-z0-9_-]{1,16}$/;

export function readSegment(value: unknown, path: FieldPath): Segment {
  const raw = object(value, path);
  const segmentId = text(
    raw.segmentId,
    child(path, 'segmentId'),
    SEGMENT_ID,
    'must be 1 to 16 letters, digits, - or _',
  );
  const carrier = text(raw.carrier, child(path, 'carrier'), /^[A-Z0-9]{2}$/, 'must be a two-character airline code');
  const flightNumber = text(
    raw.flightNumber,
    child(path, 'flightNumber'),
    /^[0-9]{1,4}[A-Z]?$/,
    'must be 1 to 4 digits, optionally a letter',
  );
  const origin = text(raw.origin, child(path, 'origin'), /^[A-Z]{3}$/, 'must be a three-letter airport code');
  const destination = text(
    raw.destination,
    child(path, 'destination'),
    /^[A-Z]{3}$/,
    'must be a three-letter airport code',
  );
  // Each instant is parsed once, for its check and for the comparison.
  const departureTime = instantTime(raw.departure, child(path, 'departure'));
  const arrivalTime = instantTime(raw.arrival, child(path, 'arrival'));
  if (arrivalTime < departureTime) {
    throw new FieldError(child(path, 'arrival'), 'is before the departure');
  }
  return {
    segmentId,
    carrier,
    flightNumber,
    origin,
    destination,
    departure: raw.departure as string,
    arrival: raw.arrival as string,
  };
}
