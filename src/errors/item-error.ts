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
  bookingNotFound: (reference: string, orderId: string): ItemError => ({
    code: 'BOOKING_NOT_FOUND',
    message: `Booking ${reference} is not part of order ${orderId}.`,
  }),
  bookingCancelled: (reference: string): ItemError => ({
    code: 'BOOKING_CANCELED',
    message: `Booking ${reference} is cancelled.`,
  }),
  cancelledVoluntarily: (reference: string): ItemError => ({
    code: 'BOOKING_CANCELED',
    message: `Booking ${reference} was cancelled voluntarily; nothing is refunded.`,
  }),
  noPendingChange: (reference: string): ItemError => ({
    code: 'NO_PENDING_CHANGE',
    message: `Booking ${reference} has no airline-initiated change awaiting action.`,
  }),
  noReplacementOffered: (changeId: string): ItemError => ({
    code: 'NO_REPLACEMENT_OFFERED',
    message: `Change ${changeId} only removes flights; it can be cancelled (AirOrderInvoluntaryCancel), not accepted.`,
  }),
  passengerNotFound: (passengerIds: readonly string[], reference: string): ItemError => ({
    code: 'PASSENGER_NOT_FOUND',
    message: `Passenger ${passengerIds.join(', ')} ${passengerIds.length > 1 ? 'are' : 'is'} not part of booking ${reference}.`,
  }),
  ticketRefunded: (ticketNumber: string): ItemError => ({
    code: 'ALREADY_REFUNDED',
    message: `Ticket ${ticketNumber} has no OPEN coupon left: it was refunded or voided already.`,
  }),
  passengerRefunded: (passengerId: string, reference: string): ItemError => ({
    code: 'ALREADY_REFUNDED',
    message: `Passenger ${passengerId} left booking ${reference} with a refund already.`,
  }),
  everyoneRefunded: (reference: string): ItemError => ({
    code: 'ALREADY_REFUNDED',
    message: `Every passenger of booking ${reference} left it with a refund already.`,
  }),
  noFareRules: (ticketNumber: string): ItemError => ({
    code: 'NO_FARE_RULES',
    message: `Ticket ${ticketNumber} has no fare rules; it can only be voided, within its void window.`,
  }),
  partlyFlown: (ticketNumber: string): ItemError => ({
    code: 'PARTLY_FLOWN',
    message: `Ticket ${ticketNumber} has a flown coupon; the airline prices its refund.`,
  }),
  quoteNotFound: (quoteId: string, reference: string): ItemError => ({
    code: 'QUOTE_NOT_FOUND',
    message: `Refund quote ${quoteId} was not found for booking ${reference}.`,
  }),
  quoteExpired: (quoteId: string, expiresAt: string): ItemError => ({
    code: 'QUOTE_EXPIRED',
    message: `Refund quote ${quoteId} expired at ${expiresAt}; nothing was refunded. Ask for a new quote.`,
  }),
  quoteOutdated: (quoteId: string, reference: string): ItemError => ({
    code: 'QUOTE_OUTDATED',
    message: `Booking ${reference} changed after refund quote ${quoteId}; nothing was refunded. Ask for a new quote.`,
  }),
};
