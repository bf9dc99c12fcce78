export { AirOrderClient, buildEventListRequest, buildRequest } from './client.js';
export type {
  CancelParams,
  EnvelopeParams,
  EventFeedParams,
  InvoluntaryAcceptParams,
  InvoluntaryCancelParams,
  ListEventsParams,
  OrderParams,
  RefundParams,
  RefundQuoteParams,
  RetrieveParams,
  SenderParams,
} from './client.js';
export {
  API_ERROR_CODES,
  AirOrderAuthenticationError,
  AirOrderConnectionError,
  AirOrderError,
  AirOrderIdempotencyError,
  AirOrderInternalError,
  AirOrderInvalidResponseError,
  AirOrderNotFoundError,
  AirOrderPermissionError,
  AirOrderRateLimitError,
  AirOrderTimeoutError,
  AirOrderUnavailableError,
  AirOrderValidationError,
  parseRetryAfter,
} from './errors.js';
export type { AirOrderErrorCode, ApiErrorCode, ClientErrorCode } from './errors.js';
export { EVENT_TYPES } from './event-feed.js';
export type {
  AirOrderEvent,
  AirOrderEventDataByType,
  AirOrderEventType,
  BookingCanceledData,
  BookingRefundedData,
  ChangeNoticeData,
  ChangeResolvedData,
  EventActor,
  EventPage,
  KnownAirOrderEvent,
  UnknownAirOrderEvent,
} from './event-feed.js';
export { currencyExponent, decimalToMinor, minorToDecimal, numberToMinor } from './money.js';
export { OPERATIONS } from './operations.js';
export type { OperationName, OperationSpec } from './operations.js';
export type {
  AirlineChangeView,
  BookingView,
  CouponView,
  OrderView,
  PassengerView,
  RefundQuoteView,
  RefundRecordView,
  RetrieveItem,
  RetrieveResult,
  SegmentView,
  TicketView,
} from './order-view.js';
export { itemOutcome, parseFailureText, parseRefundText } from './results.js';
export type {
  BookingStatus,
  CancelItem,
  CancelResult,
  EnvelopeResult,
  InvoluntaryAcceptItem,
  InvoluntaryAcceptResult,
  InvoluntaryCancelItem,
  InvoluntaryCancelResult,
  ItemErrorCode,
  ItemFailure,
  ItemOutcome,
  Refund,
  ResultBase,
  TicketRefund,
  VoluntaryRefundItem,
  VoluntaryRefundResult,
  VoluntaryTicketRefund,
} from './results.js';
export { Transport, isRetryable, retryDelayMs } from './transport.js';
export type { ClientOptions, RequestOptions, RetryInfo, TransportResponse } from './transport.js';
export { VERSION } from './version.js';
export type * from './wire.js';
