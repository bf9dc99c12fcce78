import { createHash } from 'node:crypto';
import { CHANGE_KINDS, CONSEQUENCES, type AirlineChange } from '../domain/order.js';
import { FieldError } from './document-error.js';
import { child } from './field-path.js';
import { array, instant, object, oneOf, optionalText, text, unique } from './field-readers.js';
import { BOOKING_REFERENCE, ORDER_ID } from './order-document.js';
import { readSegment, SEGMENT_ID } from './segment-reader.js';

export interface ChangeDocument {
  orderId: string;
  reference: string;
  change: AirlineChange;
}

/**
 * Checks an airline-change document (docs/contract.md §11; the deadline fields: docs/webhooks.md). Without a changeId, the id is derived from the
 * content, so that an airline resending the same change does not create a second one.
 */
export function readChangeDocument(value: unknown): ChangeDocument {
  const raw = object(value, '');
  const orderId = text(raw.orderId, 'orderId', ORDER_ID, 'must be 1 to 64 letters, digits or - _ . /');
  const reference = text(
    raw.gdsBookingReference,
    'gdsBookingReference',
    BOOKING_REFERENCE,
    'must be 5 to 8 letters or digits',
  ).toUpperCase();
  const kind = oneOf(raw.kind, 'kind', CHANGE_KINDS);
  const detectedAt = new Date(instant(raw.detectedAt, 'detectedAt')).toISOString();
  const removedSegments = array(raw.removedSegments ?? [], 'removedSegments', 0, 16).map((segment, index) =>
    text(segment, child('removedSegments', index), SEGMENT_ID, 'must be a segmentId'),
  );
  unique(removedSegments, 'removedSegments', 'segmentId');
  const addedSegments = array(raw.addedSegments ?? [], 'addedSegments', 0, 16).map((segment, index) =>
    readSegment(segment, child('addedSegments', index)),
  );
  unique(
    addedSegments.map((segment) => segment.segmentId),
    'addedSegments',
    'segmentId',
  );
  if (removedSegments.length === 0 && addedSegments.length === 0) {
    throw new FieldError('removedSegments', 'and addedSegments are both empty: the change changes nothing');
  }
  // Without a deadline nothing happens by itself; the consequence is the airline's default all the same, shown to the agency.
  const actionDeadline =
    raw.actionDeadline === undefined || raw.actionDeadline === null
      ? null
      : new Date(instant(raw.actionDeadline, 'actionDeadline')).toISOString();
  const consequenceOfInaction = oneOf(
    raw.consequenceOfInaction,
    'consequenceOfInaction',
    CONSEQUENCES,
    addedSegments.length > 0 ? 'ACCEPT' : 'CANCEL',
  );
  if (consequenceOfInaction === 'ACCEPT' && addedSegments.length === 0) {
    throw new FieldError(
      'consequenceOfInaction',
      'is ACCEPT, but the change adds no flight to replace the removed ones: it can only be CANCEL',
    );
  }
  const changeId =
    optionalText(raw.changeId, 'changeId', /^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, - _ or .') ??
    `AIC-${createHash('sha256')
      .update(JSON.stringify([orderId, reference, kind, detectedAt, removedSegments, addedSegments]))
      .digest('hex')
      .slice(0, 20)}`;
  return {
    orderId,
    reference,
    change: {
      changeId,
      kind,
      detectedAt,
      removedSegments,
      addedSegments,
      status: 'PENDING',
      actionDeadline,
      consequenceOfInaction,
    },
  };
}
