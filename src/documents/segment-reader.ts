import type { Segment } from '../domain/order.js';
import { FieldError } from './document-error.js';
import { child, instant, object, text } from './field-readers.js';

export const SEGMENT_ID = /^[A-Za-z0-9_-]{1,16}$/;

export function readSegment(value: unknown, path: string): Segment {
  const raw = object(value, path);
  const segment: Segment = {
    segmentId: text(raw.segmentId, child(path, 'segmentId'), SEGMENT_ID, 'must be 1 to 16 letters, digits, - or _'),
    carrier: text(raw.carrier, child(path, 'carrier'), /^[A-Z0-9]{2}$/, 'must be a two-character airline code'),
    flightNumber: text(raw.flightNumber, child(path, 'flightNumber'), /^[0-9]{1,4}[A-Z]?$/, 'must be 1 to 4 digits, optionally a letter'),
    origin: text(raw.origin, child(path, 'origin'), /^[A-Z]{3}$/, 'must be a three-letter airport code'),
    destination: text(raw.destination, child(path, 'destination'), /^[A-Z]{3}$/, 'must be a three-letter airport code'),
    departure: instant(raw.departure, child(path, 'departure')),
    arrival: instant(raw.arrival, child(path, 'arrival')),
  };
  if (Date.parse(segment.arrival) < Date.parse(segment.departure)) {
    throw new FieldError(child(path, 'arrival'), 'is before the departure');
  }
  return segment;
}
