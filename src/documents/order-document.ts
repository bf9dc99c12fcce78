import { isKnownCurrency } from '../domain/currencies.js';
import { LARGEST_MINOR, splitEvenly } from '../domain/money.js';
import { couponTotal, ticketTotal, unsafeOrderSum, unsafeSumProblem } from '../domain/order-sums.js';
import { ISSUE_CLOCK_SKEW_MS } from '../domain/voluntary-quote.js';
import {
  BOOKING_STATUSES,
  COUPON_STATUSES,
  PASSENGER_TYPES,
  type Booking,
  type Coupon,
  type Order,
  type Passenger,
  type Segment,
  type Ticket,
} from '../domain/order.js';
import { FieldError } from './document-error.js';
import { child, pathOf, pathText, type FieldPath } from './field-path.js';
import { amount, array, instant, object, oneOf, text, unique } from './field-readers.js';
import { readFareRules, readTaxBreakdown } from './fare-readers.js';
import { readSegment } from './segment-reader.js';

export const ORDER_ID = /^[A-Za-z0-9_./-]{1,64}$/;
export const AGENCY_ID = /^[^\s](.{0,62}[^\s])?$/;
export const BOOKING_REFERENCE = /^[A-Za-z0-9]{5,8}$/;
const NAME = /^.{1,100}$/;

function readTicket(value: unknown, path: FieldPath, currency: string, segments: readonly Segment[]): Ticket {
  const raw = object(value, path);
  const baseFare = amount(raw.baseFare, child(path, 'baseFare'), currency);
  const taxes = amount(raw.taxes, child(path, 'taxes'), currency);
  // Checked with the order's other sums (unsafeOrderSum in readOrderDocument); split or compared before then, a
  // total past the bound gives wrong shares or a wrong comparison, never an exception, and the order is refused.
  const total = ticketTotal(baseFare, taxes);
  const segmentIds = new Set(segments.map((segment) => segment.segmentId));
  const rawCoupons = array(raw.coupons, child(path, 'coupons'), 1, 16).map((coupon, index) =>
    object(coupon, child(child(path, 'coupons'), index)),
  );

  const withValue = rawCoupons.filter((coupon) => coupon.value !== undefined).length;
  if (withValue !== 0 && withValue !== rawCoupons.length) {
    throw new FieldError(child(path, 'coupons'), 'must give a value on every coupon or on none');
  }
  const evenShares = splitEvenly(total, rawCoupons.length);
  const coupons: Coupon[] = rawCoupons.map((coupon, index) => {
    const couponPath = child(child(path, 'coupons'), index);
    const segmentId = text(coupon.segmentId, child(couponPath, 'segmentId'), /^.+$/, 'must name a segment');
    if (!segmentIds.has(segmentId))
      throw new FieldError(child(couponPath, 'segmentId'), `names no segment of this booking: ${segmentId}`);
    return {
      segmentId,
      status: oneOf(coupon.status, child(couponPath, 'status'), COUPON_STATUSES, 'OPEN'),
      value: withValue ? amount(coupon.value, child(couponPath, 'value'), currency) : evenShares[index]!,
    };
  });
  unique(
    coupons.map((coupon) => coupon.segmentId),
    child(path, 'coupons'),
    'segment',
  );
  // docs/contract.md §6: one coupon per segment. A changed flight moves its coupon, so every flight needs one.
  const uncovered = segments.find((segment) => !coupons.some((coupon) => coupon.segmentId === segment.segmentId));
  if (uncovered)
    throw new FieldError(
      child(path, 'coupons'),
      `has no coupon for segment ${uncovered.segmentId}: a ticket has one coupon per segment of its booking`,
    );
  if (withValue && total <= LARGEST_MINOR && couponTotal(coupons) !== total) {
    throw new FieldError(child(path, 'coupons'), 'values must sum to baseFare + taxes');
  }
  // Present only when the document has them, so that orders without them are stored as before.
  return {
    ticketNumber: text(raw.ticketNumber, child(path, 'ticketNumber'), /^[0-9]{13}$/, 'must be 13 digits'),
    baseFare,
    taxes,
    coupons,
    ...(raw.issuedAt === undefined ? {} : { issuedAt: instant(raw.issuedAt, child(path, 'issuedAt')) }),
    ...(raw.taxBreakdown === undefined
      ? {}
      : { taxBreakdown: readTaxBreakdown(raw.taxBreakdown, child(path, 'taxBreakdown'), currency, taxes) }),
    ...(raw.fareRules === undefined
      ? {}
      : { fareRules: readFareRules(raw.fareRules, child(path, 'fareRules'), currency) }),
  };
}

function readPassenger(value: unknown, path: FieldPath, currency: string, segments: readonly Segment[]): Passenger {
  const raw = object(value, path);
  return {
    passengerId: text(
      raw.passengerId,
      child(path, 'passengerId'),
      /^[A-Za-z0-9_-]{1,32}$/,
      'must be 1 to 32 letters, digits, - or _',
    ),
    type: oneOf(raw.type, child(path, 'type'), PASSENGER_TYPES),
    givenName: text(raw.givenName, child(path, 'givenName'), NAME, 'must be 1 to 100 characters'),
    surname: text(raw.surname, child(path, 'surname'), NAME, 'must be 1 to 100 characters'),
    ticket:
      raw.ticket === undefined || raw.ticket === null
        ? null
        : readTicket(raw.ticket, child(path, 'ticket'), currency, segments),
  };
}

function readBooking(value: unknown, path: FieldPath, currency: string): Booking {
  const raw = object(value, path);
  const segments = array(raw.segments, child(path, 'segments'), 1, 16).map((segment, index) =>
    readSegment(segment, child(child(path, 'segments'), index)),
  );
  unique(
    segments.map((segment) => segment.segmentId),
    child(path, 'segments'),
    'segmentId',
  );
  const passengers = array(raw.passengers, child(path, 'passengers'), 1, 9).map((passenger, index) =>
    readPassenger(passenger, child(child(path, 'passengers'), index), currency, segments),
  );
  unique(
    passengers.map((passenger) => passenger.passengerId),
    child(path, 'passengers'),
    'passengerId',
  );
  const status = oneOf(raw.status, child(path, 'status'), BOOKING_STATUSES, 'CONFIRMED');
  return {
    reference: text(
      raw.gdsBookingReference,
      child(path, 'gdsBookingReference'),
      BOOKING_REFERENCE,
      'must be 5 to 8 letters or digits',
    ).toUpperCase(),
    status,
    // A booking loaded as cancelled was cancelled outside this service: treated as voluntary.
    cancellation: status === 'CANCELED' ? 'VOLUNTARY' : null,
    segments,
    passengers,
    changes: [],
    refunds: [],
  };
}

/**
 * Ticket numbers are unique within an order. Unlike the other `repeats` checks the values sit in
 * different passengers, so the error names where the repeat stands and where the number was first.
 * Loops rather than nested flatMap, which allocates an array per passenger: this runs for every imported order.
 */
function checkTicketNumbers(bookings: readonly Booking[]): void {
  const firstSeen = new Map<string, FieldPath>();
  for (let bookingIndex = 0; bookingIndex < bookings.length; bookingIndex += 1) {
    const passengers = bookings[bookingIndex]!.passengers;
    for (let passengerIndex = 0; passengerIndex < passengers.length; passengerIndex += 1) {
      const ticket = passengers[passengerIndex]!.ticket;
      if (!ticket) continue;
      const passengerPath = child(child(child('bookings', bookingIndex), 'passengers'), passengerIndex);
      const first = firstSeen.get(ticket.ticketNumber);
      if (first) {
        throw new FieldError(
          child(child(passengerPath, 'ticket'), 'ticketNumber'),
          `repeats the ticketNumber ${ticket.ticketNumber} of ${pathText(first)}`,
        );
      }
      firstSeen.set(ticket.ticketNumber, passengerPath);
    }
  }
}

/**
 * A ticket is issued before it is imported: an `issuedAt` later than the import's time (beyond the
 * clocks' skew) would keep the ticket in its void window, everything back, for as long as that time
 * is ahead (docs/contract.md §11).
 */
function checkIssueTimes(bookings: readonly Booking[], importedAt: number): void {
  const latest = importedAt + ISSUE_CLOCK_SKEW_MS;
  for (let bookingIndex = 0; bookingIndex < bookings.length; bookingIndex += 1) {
    const passengers = bookings[bookingIndex]!.passengers;
    for (let passengerIndex = 0; passengerIndex < passengers.length; passengerIndex += 1) {
      const issuedAt = passengers[passengerIndex]!.ticket?.issuedAt;
      if (issuedAt === undefined || Date.parse(issuedAt) <= latest) continue;
      const passengerPath = child(child(child('bookings', bookingIndex), 'passengers'), passengerIndex);
      throw new FieldError(
        child(child(passengerPath, 'ticket'), 'issuedAt'),
        `is later than the import (${new Date(importedAt).toISOString()}) by more than the ${ISSUE_CLOCK_SKEW_MS / 60_000} minutes clocks may differ: a ticket is issued before it is imported, got ${issuedAt}`,
      );
    }
  }
}

/**
 * Checks an order document (docs/contract.md §11) and turns it into a domain order, amounts in minor
 * units. `importedAt` (ms since the epoch) is when the import began, by the service's clock.
 */
export function readOrderDocument(value: unknown, importedAt: number): Order {
  const raw = object(value, '');
  const currency = text(raw.currency, 'currency', /^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR');
  if (!isKnownCurrency(currency)) throw new FieldError('currency', `is not an ISO 4217 currency: ${currency}`);
  const bookings = array(raw.bookings, 'bookings', 1, 20).map((booking, index) =>
    readBooking(booking, child('bookings', index), currency),
  );
  unique(
    bookings.map((booking) => booking.reference),
    'bookings',
    'gdsBookingReference',
  );
  checkTicketNumbers(bookings);
  checkIssueTimes(bookings, importedAt);
  const order: Order = {
    orderId: text(raw.orderId, 'orderId', ORDER_ID, 'must be 1 to 64 letters, digits or - _ . /'),
    agencyId: text(raw.agencyId, 'agencyId', AGENCY_ID, 'must be 1 to 64 characters without surrounding spaces'),
    currency,
    bookings,
  };
  // Refused here, before anything is stored, rather than when a later change or refund adds the amounts up.
  const unsafe = unsafeOrderSum(order);
  if (unsafe) throw new FieldError(pathOf(unsafe.path), unsafeSumProblem(unsafe, currency));
  return order;
}
