import type { ItemErrorCode } from './error-codes.js';

/** An item-level failure as the rules decide it: a catalogued code and the text the item carries. */
export interface ItemError {
  code: ItemErrorCode;
  message: string;
}

/**
 * Every item-level failure with its text, written once whichever operation or read meets it: the
 * codes and texts agencies see (docs/errors.md, "Item level") come from here only.
 */
export const itemErrors = {
  bookingNotFound: (reference: string, orderId: string): ItemError =>
    ({ code: 'BOOKING_NOT_FOUND', message: `Booking ${reference} is not part of order ${orderId}.` }),
  bookingCancelled: (reference: string): ItemError =>
    ({ code: 'BOOKING_CANCELED', message: `Booking ${reference} is cancelled.` }),
  cancelledVoluntarily: (reference: string): ItemError =>
    ({ code: 'BOOKING_CANCELED', message: `Booking ${reference} was cancelled voluntarily; nothing is refunded.` }),
  noPendingChange: (reference: string): ItemError =>
    ({ code: 'NO_PENDING_CHANGE', message: `Booking ${reference} has no airline-initiated change awaiting action.` }),
  noReplacementOffered: (changeId: string): ItemError =>
    ({ code: 'NO_REPLACEMENT_OFFERED', message: `Change ${changeId} only removes flights; it can be cancelled (AirOrderInvoluntaryCancel), not accepted.` }),
};
