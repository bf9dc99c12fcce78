/**
 * AirOrderRetrieve's `Order`: the order's bookings as they stand, in the interface's PascalCase.
 * Amounts are JSON numbers in the order's `Currency`, like RefundAmount.
 */
const str = { type: 'string' } as const;
const amount = { type: 'number', description: "In the order's Currency, with at most its decimals." } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;

const segment = {
  type: 'object',
  required: ['SegmentID', 'Carrier', 'FlightNumber', 'Origin', 'Destination', 'Departure', 'Arrival'],
  properties: {
    SegmentID: str,
    Carrier: { type: 'string', description: 'IATA airline code.' },
    FlightNumber: str,
    Origin: { type: 'string', description: 'IATA airport code.' },
    Destination: { type: 'string', description: 'IATA airport code.' },
    Departure: dateTime,
    Arrival: dateTime,
  },
} as const;

const coupon = {
  type: 'object',
  required: ['SegmentID', 'Status', 'Value'],
  properties: {
    SegmentID: str,
    Status: {
      type: 'string',
      enum: ['OPEN', 'USED', 'REFUNDED', 'VOIDED'],
      description: 'USED: flown. VOIDED: voided by AirOrderRefund within the void window.',
    },
    Value: amount,
  },
} as const;

const ticket = {
  type: 'object',
  required: ['TicketNumber', 'BaseFare', 'Taxes', 'Coupons'],
  properties: {
    TicketNumber: { type: 'string', description: '13 digits.' },
    BaseFare: amount,
    Taxes: amount,
    Coupons: { type: 'array', items: coupon, description: 'One per segment of the booking.' },
  },
} as const;

const passenger = {
  type: 'object',
  required: ['PassengerID', 'Type', 'GivenName', 'Surname'],
  properties: {
    PassengerID: str,
    Type: { type: 'string', enum: ['ADT', 'CHD', 'INF'] },
    GivenName: str,
    Surname: str,
    Ticket: { ...ticket, description: 'Absent for an unticketed passenger.' },
    CanceledAt: {
      ...dateTime,
      description:
        'When the passenger left the booking by a voluntary refund (AirOrderRefund); absent while travelling.',
    },
  },
} as const;

const airlineChange = {
  type: 'object',
  required: ['ChangeID', 'Kind', 'Status', 'DetectedAt', 'RemovedSegments', 'AddedSegments', 'ConsequenceOfInaction'],
  properties: {
    ChangeID: str,
    Kind: { type: 'string', enum: ['SCHEDULE_CHANGE', 'FLIGHT_CANCELLATION', 'ROUTING_CHANGE'] },
    Status: {
      type: 'string',
      enum: ['PENDING', 'ACCEPTED', 'CANCELED', 'CLOSED'],
      description:
        'PENDING awaits AirOrderInvoluntaryAccept or AirOrderInvoluntaryCancel; CLOSED: the booking was cancelled voluntarily while it was pending.',
    },
    DetectedAt: dateTime,
    RemovedSegments: { type: 'array', items: str, description: 'SegmentIDs the change takes out of the itinerary.' },
    AddedSegments: {
      type: 'array',
      items: segment,
      description: 'The replacement flights; empty when the change only removes flights.',
    },
    ActionDeadline: {
      ...dateTime,
      description:
        'When the airline applies ConsequenceOfInaction if the change is still PENDING. Absent: no time limit.',
    },
    ConsequenceOfInaction: {
      type: 'string',
      enum: ['ACCEPT', 'CANCEL'],
      description:
        'What happens at ActionDeadline: ACCEPT as AirOrderInvoluntaryAccept would, or CANCEL as AirOrderInvoluntaryCancel would, with its refunds.',
    },
  },
} as const;

export const refundQuoteSchema = {
  type: 'object',
  description: 'What AirOrderInvoluntaryCancel would refund now: shown on a confirmed booking with a pending change.',
  required: ['Amount', 'QuoteType', 'Tickets'],
  properties: {
    Amount: amount,
    QuoteType: {
      type: 'string',
      enum: ['FULL', 'PARTIAL'],
      description: 'PARTIAL when a coupon of any ticket was flown.',
    },
    Tickets: {
      type: 'array',
      description: 'Per ticket, in passenger order.',
      items: {
        type: 'object',
        required: ['TicketNumber', 'Amount'],
        properties: { TicketNumber: str, Amount: amount },
      },
    },
  },
} as const;

const refund = {
  type: 'object',
  required: ['TicketNumber', 'Amount', 'QuoteType', 'CreatedAt'],
  properties: {
    TicketNumber: str,
    Amount: amount,
    QuoteType: {
      type: 'string',
      enum: ['FULL', 'PARTIAL', 'VOID'],
      description:
        'FULL when no coupon of the ticket was flown, PARTIAL otherwise (AirOrderInvoluntaryCancel); VOID: voided in the void window (AirOrderRefund).',
    },
    CreatedAt: dateTime,
    Fare: {
      ...amount,
      description:
        "A voluntary refund's (AirOrderRefund) base fare counted; Amount = Fare + Taxes - Penalty. Absent on an involuntary one.",
    },
    Taxes: { ...amount, description: "A voluntary refund's taxes given back." },
    Penalty: { ...amount, description: "A voluntary refund's penalty: what the airline kept of the fare." },
    TaxBreakdown: {
      type: 'array',
      description: "A voluntary refund's taxes, each with whether it was given back.",
      items: {
        type: 'object',
        required: ['TaxCode', 'Amount', 'Refundable'],
        properties: { TaxCode: str, Amount: amount, Refundable: { type: 'boolean' } },
      },
    },
    QuoteID: { type: 'string', description: 'The quote AirOrderRefund confirmed.' },
  },
} as const;

const booking = {
  type: 'object',
  required: ['GdsBookingReference', 'BookingStatus', 'Segments', 'Passengers', 'AirlineChanges', 'Refunds'],
  properties: {
    GdsBookingReference: str,
    BookingStatus: { type: 'string', enum: ['CONFIRMED', 'CANCELED'] },
    Segments: { type: 'array', items: segment, description: 'The current itinerary, by departure.' },
    Passengers: { type: 'array', items: passenger },
    AirlineChanges: {
      type: 'array',
      items: airlineChange,
      description: 'Airline-initiated changes, in detection order.',
    },
    Refunds: {
      type: 'array',
      items: refund,
      description: 'Per ticket, in the order they were made; empty until AirOrderInvoluntaryCancel or AirOrderRefund.',
    },
    RefundQuote: refundQuoteSchema,
  },
} as const;

export const orderSchema = {
  type: 'object',
  description: 'The order with the requested bookings that it has, in request order.',
  required: ['OrderID', 'Currency', 'Bookings'],
  properties: {
    OrderID: str,
    Currency: { type: 'string', description: 'ISO 4217 code of every amount in the order.' },
    Bookings: { type: 'array', items: booking },
  },
} as const;
