// Generated from the airorder service's OpenAPI document (GET /openapi.json) by openapi-typescript:
// `npm run client:types` in the repository. Do not edit; packages/client/test/wire-types.test.ts
// fails when this file differs from what the service serves.

export interface paths {
    "/AirOrderCancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel bookings
         * @description A confirmed booking becomes CANCELED and its pending airline changes are closed;
         *     cancelling a cancelled booking succeeds again and changes nothing. A voluntary cancellation refunds
         *     nothing. Each booking is processed on its own: the request commits what succeeded and nothing of what
         *     failed.
         *
         *     One order and 1 to 20 booking references per request; references are case-insensitive and
         *     de-duplicated (request order kept), and each gets one item in the result array. HTTP 200 means the
         *     request was processed even if items failed: `Success: {}` exactly when every item succeeded,
         *     otherwise `Errors` lists the distinct failures. Request-level failures answer with the status of
         *     their code, in the same envelope.
         */
        post: operations["AirOrderCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/AirOrderInvoluntaryAccept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept airline-initiated changes
         * @description Every pending change of the booking is accepted in detection order: removed segments
         *     leave the itinerary, added ones join it, and the tickets' coupons move with them. Repeating an accept
         *     succeeds and changes nothing.
         *
         *     One order and 1 to 20 booking references per request; references are case-insensitive and
         *     de-duplicated (request order kept), and each gets one item in the result array. HTTP 200 means the
         *     request was processed even if items failed: `Success: {}` exactly when every item succeeded,
         *     otherwise `Errors` lists the distinct failures. Request-level failures answer with the status of
         *     their code, in the same envelope.
         */
        post: operations["AirOrderInvoluntaryAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/AirOrderInvoluntaryCancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel because of airline-initiated changes, with refunds
         * @description The booking must have a pending airline change. It is cancelled, and each ticket's
         *     open (unflown) coupons are refunded at their value with no penalty: QuoteType FULL when nothing was
         *     flown, PARTIAL otherwise. Amounts are JSON numbers in the order's currency. Repeating the call returns
         *     the same refund and refunds nothing twice.
         *
         *     One order and 1 to 20 booking references per request; references are case-insensitive and
         *     de-duplicated (request order kept), and each gets one item in the result array. HTTP 200 means the
         *     request was processed even if items failed: `Success: {}` exactly when every item succeeded,
         *     otherwise `Errors` lists the distinct failures. Request-level failures answer with the status of
         *     their code, in the same envelope.
         */
        post: operations["AirOrderInvoluntaryCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/AirOrderRefundQuote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Quote a voluntary refund by the fare's rules
         * @description What refunding the passengers (`Query.PassengerID`; every passenger still in the
         *     booking when absent) would give back now, per ticket, and a `QuoteID` to confirm it with AirOrderRefund
         *     until `ExpiresAt`. It changes no booking. A ticket issued within the void window (VOID_WINDOW, 24 h by
         *     default) with every coupon OPEN is voided: QuoteType VOID, everything back. Otherwise (QuoteType FULL) a
         *     refundable fare gives back the base fare less its penalty and every tax; a non-refundable fare only its
         *     refundable taxes (those flagged so, and without a flag every code but the carrier surcharges YQ and YR).
         *     Per ticket, Amount = Fare + Taxes - Penalty. A void's quote expires when its window ends, if that comes
         *     before the quote's time to live (REFUND_QUOTE_TTL, 15 min by default). A booking cancelled by
         *     AirOrderCancel can still be quoted. All bookings quoted in one request share one QuoteID.
         *
         *     One order and 1 to 20 booking references per request; references are case-insensitive and
         *     de-duplicated (request order kept), and each gets one item in the result array. HTTP 200 means the
         *     request was processed even if items failed: `Success: {}` exactly when every item succeeded,
         *     otherwise `Errors` lists the distinct failures. Request-level failures answer with the status of
         *     their code, in the same envelope.
         */
        post: operations["AirOrderRefundQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/AirOrderRefund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a refund quote
         * @description Does exactly what the quote `Query.QuoteID` said for each requested booking, never
         *     another amount: the quoted passengers leave the booking, their tickets' OPEN coupons become REFUNDED
         *     (VOIDED for a void) and each ticket's refund is recorded with its breakdown; a booking left with no
         *     passenger becomes CANCELED and its pending airline changes CLOSED. The item has the quote's shape. A
         *     quote confirmed already answers the same refund again, even after it expired, and refunds nothing
         *     twice; concurrent confirmations of one quote make one refund. After the quote's ExpiresAt the item is
         *     QUOTE_EXPIRED, after any change of the booking since the quote QUOTE_OUTDATED; nothing changes then.
         *
         *     One order and 1 to 20 booking references per request; references are case-insensitive and
         *     de-duplicated (request order kept), and each gets one item in the result array. HTTP 200 means the
         *     request was processed even if items failed: `Success: {}` exactly when every item succeeded,
         *     otherwise `Errors` lists the distinct failures. Request-level failures answer with the status of
         *     their code, in the same envelope.
         */
        post: operations["AirOrderRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/AirOrderRetrieve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retrieve an order's bookings (extension)
         * @description An extension in the interface's style: the requested bookings of the order as they
         *     stand now, with their itinerary, passengers, tickets and coupons, airline-initiated changes and
         *     refunds, under `Order`. `Response` has one item per requested reference, like AirOrderCancel's
         *     (`BookingStatus` is the booking's status). A reference the order does not have is an item FAILED
         *     BOOKING_NOT_FOUND and is absent from `Order.Bookings`. Reading changes nothing, so the operation
         *     takes no Idempotency-Key.
         *
         *     One order and 1 to 20 booking references per request; references are case-insensitive and
         *     de-duplicated (request order kept), and each gets one item in the result array. HTTP 200 means the
         *     request was processed even if items failed: `Success: {}` exactly when every item succeeded,
         *     otherwise `Errors` lists the distinct failures. Request-level failures answer with the status of
         *     their code, in the same envelope.
         */
        post: operations["AirOrderRetrieve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/AirOrderEventList": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List the agency's events (extension)
         * @description The agency's events after `Query.After` (an event id; from the oldest kept event when
         *     absent), oldest first, at most `Query.Limit` (1 to 500, default 100), for agencies without a webhook
         *     endpoint: airline changes detected, their deadlines approaching, changes resolved, bookings cancelled
         *     and refunded. Send `NextAfter` as `After` to read the next page: a client that pages this way sees
         *     every event exactly once, also while new ones arrive. Events are kept 30 days; an `After` that names
         *     no kept event of the agency is INVALID_REQUEST. Another agency's events never appear. Reading changes
         *     nothing, so the operation takes no Idempotency-Key.
         */
        post: operations["AirOrderEventList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AirOrderCancelRequest: {
            OrderCancelRQ: {
                Document?: {
                    Name?: string;
                    /** @description A decimal number such as "1.0", echoed in the response. */
                    ReferenceVersion?: string | number;
                };
                Party?: {
                    Sender?: {
                        TravelAgencySender?: {
                            Name?: string;
                            IATA_Number?: string;
                            AgencyID?: string;
                            Contacts?: {
                                Contact?: {
                                    /** Format: email */
                                    EmailContact?: string;
                                }[];
                            };
                        };
                    };
                };
                Query: {
                    OrderID: string;
                    /** @description 1 to 20 booking references, each 5 to 8 letters or digits, case-insensitive; duplicates are collapsed, request order is kept. */
                    GdsBookingReference: string[] | string;
                };
            };
        };
        AirOrderCancelResponse: {
            OrderViewRS: {
                Document: {
                    Name: string;
                    ReferenceVersion: string;
                };
                Party: {
                    Sender: {
                        /** @description The authenticated agency's registered profile; empty strings and no contacts when unauthenticated. */
                        TravelAgencySender: {
                            Name: string;
                            IATA_Number: string;
                            AgencyID: string;
                            Contacts: {
                                Contact: {
                                    EmailContact: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Unique per response; equal to the X-Request-Id header. */
                ShoppingResponseId: string;
                Response: {
                    /**
                     * @description SUCCESS or FAILED (never FAILURE).
                     * @enum {string}
                     */
                    Status: "SUCCESS" | "FAILED";
                    /** @description Empty on success; `CODE: text` on failure. */
                    Msg: string;
                    /**
                     * @description The booking's status; "" on a FAILED item, which never claims a status it does not know.
                     * @enum {string}
                     */
                    BookingStatus: "CONFIRMED" | "CANCELED" | "";
                    OrderID: string;
                    GdsBookingReference: string;
                }[];
                /** @description Present, empty, exactly when every item succeeded; otherwise Errors is. */
                Success?: Record<string, never>;
                /** @description Present when Success is not: one entry per distinct failure. */
                Errors?: {
                    /** @enum {string} */
                    Code: "AUTH_MISSING" | "AUTH_INVALID" | "SENDER_MISMATCH" | "INVALID_JSON" | "INVALID_REQUEST" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "ORDER_NOT_FOUND" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "IDEMPOTENCY_KEYS_EXHAUSTED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE" | "BOOKING_NOT_FOUND";
                    Message: string;
                }[];
            };
        };
        AirOrderInvoluntaryAcceptRequest: {
            OrderInvoluntaryAcceptRQ: {
                Document?: {
                    Name?: string;
                    /** @description A decimal number such as "1.0", echoed in the response. */
                    ReferenceVersion?: string | number;
                };
                Party?: {
                    Sender?: {
                        TravelAgencySender?: {
                            Name?: string;
                            IATA_Number?: string;
                            AgencyID?: string;
                            Contacts?: {
                                Contact?: {
                                    /** Format: email */
                                    EmailContact?: string;
                                }[];
                            };
                        };
                    };
                };
                Query: {
                    OrderID: string;
                    /** @description 1 to 20 booking references, each 5 to 8 letters or digits, case-insensitive; duplicates are collapsed, request order is kept. */
                    GdsBookingReference: string[] | string;
                };
            };
        };
        AirOrderInvoluntaryAcceptResponse: {
            OrderInvoluntaryAcceptRS: {
                Document: {
                    Name: string;
                    ReferenceVersion: string;
                };
                Party: {
                    Sender: {
                        /** @description The authenticated agency's registered profile; empty strings and no contacts when unauthenticated. */
                        TravelAgencySender: {
                            Name: string;
                            IATA_Number: string;
                            AgencyID: string;
                            Contacts: {
                                Contact: {
                                    EmailContact: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Unique per response; equal to the X-Request-Id header. */
                ShoppingResponseId: string;
                Result: {
                    OrderID: string;
                    GdsBookingReference: string[];
                    /** @description Empty on success; `CODE: text` on failure. */
                    ErrorMsg: string;
                    /**
                     * @description SUCCESS or FAILED (never FAILURE).
                     * @enum {string}
                     */
                    Status: "SUCCESS" | "FAILED";
                }[];
                /** @description Present, empty, exactly when every item succeeded; otherwise Errors is. */
                Success?: Record<string, never>;
                /** @description Present when Success is not: one entry per distinct failure. */
                Errors?: {
                    /** @enum {string} */
                    Code: "AUTH_MISSING" | "AUTH_INVALID" | "SENDER_MISMATCH" | "INVALID_JSON" | "INVALID_REQUEST" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "ORDER_NOT_FOUND" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "IDEMPOTENCY_KEYS_EXHAUSTED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE" | "BOOKING_NOT_FOUND" | "BOOKING_CANCELED" | "NO_PENDING_CHANGE" | "NO_REPLACEMENT_OFFERED";
                    Message: string;
                }[];
            };
        };
        AirOrderInvoluntaryCancelRequest: {
            OrderInvoluntaryCancelRQ: {
                Document?: {
                    Name?: string;
                    /** @description A decimal number such as "1.0", echoed in the response. */
                    ReferenceVersion?: string | number;
                };
                Party?: {
                    Sender?: {
                        TravelAgencySender?: {
                            Name?: string;
                            IATA_Number?: string;
                            AgencyID?: string;
                            Contacts?: {
                                Contact?: {
                                    /** Format: email */
                                    EmailContact?: string;
                                }[];
                            };
                        };
                    };
                };
                Query: {
                    OrderID: string;
                    /** @description 1 to 20 booking references, each 5 to 8 letters or digits, case-insensitive; duplicates are collapsed, request order is kept. */
                    GdsBookingReference: string[] | string;
                };
            };
        };
        AirOrderInvoluntaryCancelResponse: {
            OrderInvoluntaryCancelRS: {
                Document: {
                    Name: string;
                    ReferenceVersion: string;
                };
                Party: {
                    Sender: {
                        /** @description The authenticated agency's registered profile; empty strings and no contacts when unauthenticated. */
                        TravelAgencySender: {
                            Name: string;
                            IATA_Number: string;
                            AgencyID: string;
                            Contacts: {
                                Contact: {
                                    EmailContact: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Unique per response; equal to the X-Request-Id header. */
                ShoppingResponseId: string;
                Result: {
                    OrderID: string;
                    GdsBookingReference: string[];
                    /** @description Empty on success; `CODE: text` on failure. */
                    ErrorMsg: string;
                    /**
                     * @description SUCCESS or FAILED (never FAILURE).
                     * @enum {string}
                     */
                    Status: "SUCCESS" | "FAILED";
                    /** @description In the order's currency; 0 on a FAILED item. */
                    RefundAmount: number;
                    /** @description Per ticket `TicketNumber:<n> QuoteType:<FULL|PARTIAL> RefundAmount:<amount>`, joined by single spaces; QuoteType is FULL when no coupon of the ticket was flown, PARTIAL otherwise. */
                    RefundText: string;
                    RefundPaxWiseFare: {
                        TicketNumber: string;
                        Amount: number;
                    }[];
                }[];
                /** @description Present, empty, exactly when every item succeeded; otherwise Errors is. */
                Success?: Record<string, never>;
                /** @description Present when Success is not: one entry per distinct failure. */
                Errors?: {
                    /** @enum {string} */
                    Code: "AUTH_MISSING" | "AUTH_INVALID" | "SENDER_MISMATCH" | "INVALID_JSON" | "INVALID_REQUEST" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "ORDER_NOT_FOUND" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "IDEMPOTENCY_KEYS_EXHAUSTED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE" | "BOOKING_NOT_FOUND" | "BOOKING_CANCELED" | "NO_PENDING_CHANGE";
                    Message: string;
                }[];
            };
        };
        AirOrderRefundQuoteRequest: {
            OrderRefundQuoteRQ: {
                Document?: {
                    Name?: string;
                    /** @description A decimal number such as "1.0", echoed in the response. */
                    ReferenceVersion?: string | number;
                };
                Party?: {
                    Sender?: {
                        TravelAgencySender?: {
                            Name?: string;
                            IATA_Number?: string;
                            AgencyID?: string;
                            Contacts?: {
                                Contact?: {
                                    /** Format: email */
                                    EmailContact?: string;
                                }[];
                            };
                        };
                    };
                };
                Query: {
                    OrderID: string;
                    /** @description 1 to 20 booking references, each 5 to 8 letters or digits, case-insensitive; duplicates are collapsed, request order is kept. */
                    GdsBookingReference: string[] | string;
                    /** @description The passengers to refund, 1 to 20 PassengerIDs of each requested booking; every passenger still in the booking when absent. */
                    PassengerID?: string[] | string;
                };
            };
        };
        AirOrderRefundQuoteResponse: {
            OrderRefundQuoteRS: {
                Document: {
                    Name: string;
                    ReferenceVersion: string;
                };
                Party: {
                    Sender: {
                        /** @description The authenticated agency's registered profile; empty strings and no contacts when unauthenticated. */
                        TravelAgencySender: {
                            Name: string;
                            IATA_Number: string;
                            AgencyID: string;
                            Contacts: {
                                Contact: {
                                    EmailContact: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Unique per response; equal to the X-Request-Id header. */
                ShoppingResponseId: string;
                Result: {
                    OrderID: string;
                    GdsBookingReference: string[];
                    /** @description Empty on success; `CODE: text` on failure. */
                    ErrorMsg: string;
                    /**
                     * @description SUCCESS or FAILED (never FAILURE).
                     * @enum {string}
                     */
                    Status: "SUCCESS" | "FAILED";
                    /** @description In the order's currency; 0 on a FAILED item. */
                    RefundAmount: number;
                    /** @description Per ticket `TicketNumber:<n> QuoteType:<VOID|FULL> RefundAmount:<amount>`, joined by single spaces: VOID when the ticket is voided in its void window, FULL when it is refunded by its fare rules. */
                    RefundText: string;
                    /** @description Per ticket, in passenger order; Amount = Fare + Taxes - Penalty. */
                    RefundPaxWiseFare: {
                        TicketNumber: string;
                        /** @description In the order's currency. */
                        Amount: number;
                        /** @description The base fare the refund counts: all of it for a refundable fare or a void, 0 for a non-refundable fare. */
                        Fare: number;
                        /** @description The taxes given back. */
                        Taxes: number;
                        /** @description What the airline keeps of the fare (never more than the fare; 0 on a void). */
                        Penalty: number;
                        /** @description Each tax of the ticket and whether it is given back; empty when the ticket has no breakdown (its one tax is then given back). */
                        TaxBreakdown: {
                            TaxCode: string;
                            /** @description In the order's currency. */
                            Amount: number;
                            Refundable: boolean;
                        }[];
                    }[];
                    /** @description The quote to confirm with AirOrderRefund; "" on a FAILED item. */
                    QuoteID: string;
                    /** @description Until when the quote can be confirmed (ISO 8601, UTC); "" on a FAILED item. */
                    ExpiresAt: string;
                }[];
                /** @description Present, empty, exactly when every item succeeded; otherwise Errors is. */
                Success?: Record<string, never>;
                /** @description Present when Success is not: one entry per distinct failure. */
                Errors?: {
                    /** @enum {string} */
                    Code: "AUTH_MISSING" | "AUTH_INVALID" | "SENDER_MISMATCH" | "INVALID_JSON" | "INVALID_REQUEST" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "ORDER_NOT_FOUND" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "IDEMPOTENCY_KEYS_EXHAUSTED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE" | "BOOKING_NOT_FOUND" | "PASSENGER_NOT_FOUND" | "ALREADY_REFUNDED" | "NO_FARE_RULES" | "PARTLY_FLOWN";
                    Message: string;
                }[];
            };
        };
        AirOrderRefundRequest: {
            OrderRefundRQ: {
                Document?: {
                    Name?: string;
                    /** @description A decimal number such as "1.0", echoed in the response. */
                    ReferenceVersion?: string | number;
                };
                Party?: {
                    Sender?: {
                        TravelAgencySender?: {
                            Name?: string;
                            IATA_Number?: string;
                            AgencyID?: string;
                            Contacts?: {
                                Contact?: {
                                    /** Format: email */
                                    EmailContact?: string;
                                }[];
                            };
                        };
                    };
                };
                Query: {
                    OrderID: string;
                    /** @description 1 to 20 booking references, each 5 to 8 letters or digits, case-insensitive; duplicates are collapsed, request order is kept. */
                    GdsBookingReference: string[] | string;
                    /** @description The QuoteID of an AirOrderRefundQuote answer for this order. */
                    QuoteID: string;
                };
            };
        };
        AirOrderRefundResponse: {
            OrderRefundRS: {
                Document: {
                    Name: string;
                    ReferenceVersion: string;
                };
                Party: {
                    Sender: {
                        /** @description The authenticated agency's registered profile; empty strings and no contacts when unauthenticated. */
                        TravelAgencySender: {
                            Name: string;
                            IATA_Number: string;
                            AgencyID: string;
                            Contacts: {
                                Contact: {
                                    EmailContact: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Unique per response; equal to the X-Request-Id header. */
                ShoppingResponseId: string;
                Result: {
                    OrderID: string;
                    GdsBookingReference: string[];
                    /** @description Empty on success; `CODE: text` on failure. */
                    ErrorMsg: string;
                    /**
                     * @description SUCCESS or FAILED (never FAILURE).
                     * @enum {string}
                     */
                    Status: "SUCCESS" | "FAILED";
                    /** @description In the order's currency; 0 on a FAILED item. */
                    RefundAmount: number;
                    /** @description Per ticket `TicketNumber:<n> QuoteType:<VOID|FULL> RefundAmount:<amount>`, joined by single spaces: VOID when the ticket is voided in its void window, FULL when it is refunded by its fare rules. */
                    RefundText: string;
                    /** @description Per ticket, in passenger order; Amount = Fare + Taxes - Penalty. */
                    RefundPaxWiseFare: {
                        TicketNumber: string;
                        /** @description In the order's currency. */
                        Amount: number;
                        /** @description The base fare the refund counts: all of it for a refundable fare or a void, 0 for a non-refundable fare. */
                        Fare: number;
                        /** @description The taxes given back. */
                        Taxes: number;
                        /** @description What the airline keeps of the fare (never more than the fare; 0 on a void). */
                        Penalty: number;
                        /** @description Each tax of the ticket and whether it is given back; empty when the ticket has no breakdown (its one tax is then given back). */
                        TaxBreakdown: {
                            TaxCode: string;
                            /** @description In the order's currency. */
                            Amount: number;
                            Refundable: boolean;
                        }[];
                    }[];
                    /** @description The quote to confirm with AirOrderRefund; "" on a FAILED item. */
                    QuoteID: string;
                    /** @description Until when the quote can be confirmed (ISO 8601, UTC); "" on a FAILED item. */
                    ExpiresAt: string;
                }[];
                /** @description Present, empty, exactly when every item succeeded; otherwise Errors is. */
                Success?: Record<string, never>;
                /** @description Present when Success is not: one entry per distinct failure. */
                Errors?: {
                    /** @enum {string} */
                    Code: "AUTH_MISSING" | "AUTH_INVALID" | "SENDER_MISMATCH" | "INVALID_JSON" | "INVALID_REQUEST" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "ORDER_NOT_FOUND" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "IDEMPOTENCY_KEYS_EXHAUSTED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE" | "BOOKING_NOT_FOUND" | "QUOTE_NOT_FOUND" | "QUOTE_EXPIRED" | "QUOTE_OUTDATED";
                    Message: string;
                }[];
            };
        };
        AirOrderRetrieveRequest: {
            OrderRetrieveRQ: {
                Document?: {
                    Name?: string;
                    /** @description A decimal number such as "1.0", echoed in the response. */
                    ReferenceVersion?: string | number;
                };
                Party?: {
                    Sender?: {
                        TravelAgencySender?: {
                            Name?: string;
                            IATA_Number?: string;
                            AgencyID?: string;
                            Contacts?: {
                                Contact?: {
                                    /** Format: email */
                                    EmailContact?: string;
                                }[];
                            };
                        };
                    };
                };
                Query: {
                    OrderID: string;
                    /** @description 1 to 20 booking references, each 5 to 8 letters or digits, case-insensitive; duplicates are collapsed, request order is kept. */
                    GdsBookingReference: string[] | string;
                };
            };
        };
        AirOrderRetrieveResponse: {
            OrderViewRS: {
                Document: {
                    Name: string;
                    ReferenceVersion: string;
                };
                Party: {
                    Sender: {
                        /** @description The authenticated agency's registered profile; empty strings and no contacts when unauthenticated. */
                        TravelAgencySender: {
                            Name: string;
                            IATA_Number: string;
                            AgencyID: string;
                            Contacts: {
                                Contact: {
                                    EmailContact: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Unique per response; equal to the X-Request-Id header. */
                ShoppingResponseId: string;
                /** @description The order with the requested bookings that it has, in request order. */
                Order?: {
                    OrderID: string;
                    /** @description ISO 4217 code of every amount in the order. */
                    Currency: string;
                    Bookings: {
                        GdsBookingReference: string;
                        /** @enum {string} */
                        BookingStatus: "CONFIRMED" | "CANCELED";
                        /** @description The current itinerary, by departure. */
                        Segments: {
                            SegmentID: string;
                            /** @description IATA airline code. */
                            Carrier: string;
                            FlightNumber: string;
                            /** @description IATA airport code. */
                            Origin: string;
                            /** @description IATA airport code. */
                            Destination: string;
                            /** Format: date-time */
                            Departure: string;
                            /** Format: date-time */
                            Arrival: string;
                        }[];
                        Passengers: {
                            PassengerID: string;
                            /** @enum {string} */
                            Type: "ADT" | "CHD" | "INF";
                            GivenName: string;
                            Surname: string;
                            /** @description Absent for an unticketed passenger. */
                            Ticket?: {
                                /** @description 13 digits. */
                                TicketNumber: string;
                                /** @description In the order's Currency, with at most its decimals. */
                                BaseFare: number;
                                /** @description In the order's Currency, with at most its decimals. */
                                Taxes: number;
                                /** @description One per segment of the booking. */
                                Coupons: {
                                    SegmentID: string;
                                    /**
                                     * @description USED: flown. VOIDED: voided by AirOrderRefund within the void window.
                                     * @enum {string}
                                     */
                                    Status: "OPEN" | "USED" | "REFUNDED" | "VOIDED";
                                    /** @description In the order's Currency, with at most its decimals. */
                                    Value: number;
                                }[];
                            };
                            /**
                             * Format: date-time
                             * @description When the passenger left the booking by a voluntary refund (AirOrderRefund); absent while travelling.
                             */
                            CanceledAt?: string;
                        }[];
                        /** @description Airline-initiated changes, in detection order. */
                        AirlineChanges: {
                            ChangeID: string;
                            /** @enum {string} */
                            Kind: "SCHEDULE_CHANGE" | "FLIGHT_CANCELLATION" | "ROUTING_CHANGE";
                            /**
                             * @description PENDING awaits AirOrderInvoluntaryAccept or AirOrderInvoluntaryCancel; CLOSED: the booking was cancelled voluntarily while it was pending.
                             * @enum {string}
                             */
                            Status: "PENDING" | "ACCEPTED" | "CANCELED" | "CLOSED";
                            /** Format: date-time */
                            DetectedAt: string;
                            /** @description SegmentIDs the change takes out of the itinerary. */
                            RemovedSegments: string[];
                            /** @description The replacement flights; empty when the change only removes flights. */
                            AddedSegments: {
                                SegmentID: string;
                                /** @description IATA airline code. */
                                Carrier: string;
                                FlightNumber: string;
                                /** @description IATA airport code. */
                                Origin: string;
                                /** @description IATA airport code. */
                                Destination: string;
                                /** Format: date-time */
                                Departure: string;
                                /** Format: date-time */
                                Arrival: string;
                            }[];
                            /**
                             * Format: date-time
                             * @description When the airline applies ConsequenceOfInaction if the change is still PENDING. Absent: no time limit.
                             */
                            ActionDeadline?: string;
                            /**
                             * @description What happens at ActionDeadline: ACCEPT as AirOrderInvoluntaryAccept would, or CANCEL as AirOrderInvoluntaryCancel would, with its refunds.
                             * @enum {string}
                             */
                            ConsequenceOfInaction: "ACCEPT" | "CANCEL";
                        }[];
                        /** @description Per ticket, in the order they were made; empty until AirOrderInvoluntaryCancel or AirOrderRefund. */
                        Refunds: {
                            TicketNumber: string;
                            /** @description In the order's Currency, with at most its decimals. */
                            Amount: number;
                            /**
                             * @description FULL when no coupon of the ticket was flown, PARTIAL otherwise (AirOrderInvoluntaryCancel); VOID: voided in the void window (AirOrderRefund).
                             * @enum {string}
                             */
                            QuoteType: "FULL" | "PARTIAL" | "VOID";
                            /** Format: date-time */
                            CreatedAt: string;
                            /** @description A voluntary refund's (AirOrderRefund) base fare counted; Amount = Fare + Taxes - Penalty. Absent on an involuntary one. */
                            Fare?: number;
                            /** @description A voluntary refund's taxes given back. */
                            Taxes?: number;
                            /** @description A voluntary refund's penalty: what the airline kept of the fare. */
                            Penalty?: number;
                            /** @description A voluntary refund's taxes, each with whether it was given back. */
                            TaxBreakdown?: {
                                TaxCode: string;
                                /** @description In the order's Currency, with at most its decimals. */
                                Amount: number;
                                Refundable: boolean;
                            }[];
                            /** @description The quote AirOrderRefund confirmed. */
                            QuoteID?: string;
                        }[];
                        /** @description What AirOrderInvoluntaryCancel would refund now: shown on a confirmed booking with a pending change. */
                        RefundQuote?: {
                            /** @description In the order's Currency, with at most its decimals. */
                            Amount: number;
                            /**
                             * @description PARTIAL when a coupon of any ticket was flown.
                             * @enum {string}
                             */
                            QuoteType: "FULL" | "PARTIAL";
                            /** @description Per ticket, in passenger order. */
                            Tickets: {
                                TicketNumber: string;
                                /** @description In the order's Currency, with at most its decimals. */
                                Amount: number;
                            }[];
                        };
                    }[];
                };
                Response: {
                    /**
                     * @description SUCCESS or FAILED (never FAILURE).
                     * @enum {string}
                     */
                    Status: "SUCCESS" | "FAILED";
                    /** @description Empty on success; `CODE: text` on failure. */
                    Msg: string;
                    /**
                     * @description The booking's status; "" on a FAILED item, which never claims a status it does not know.
                     * @enum {string}
                     */
                    BookingStatus: "CONFIRMED" | "CANCELED" | "";
                    OrderID: string;
                    GdsBookingReference: string;
                }[];
                /** @description Present, empty, exactly when every item succeeded; otherwise Errors is. */
                Success?: Record<string, never>;
                /** @description Present when Success is not: one entry per distinct failure. */
                Errors?: {
                    /** @enum {string} */
                    Code: "AUTH_MISSING" | "AUTH_INVALID" | "SENDER_MISMATCH" | "INVALID_JSON" | "INVALID_REQUEST" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "ORDER_NOT_FOUND" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE" | "BOOKING_NOT_FOUND";
                    Message: string;
                }[];
            };
        };
        AirOrderEventListRequest: {
            OrderEventListRQ: {
                Document?: {
                    Name?: string;
                    /** @description A decimal number such as "1.0", echoed in the response. */
                    ReferenceVersion?: string | number;
                };
                Party?: {
                    Sender?: {
                        TravelAgencySender?: {
                            Name?: string;
                            IATA_Number?: string;
                            AgencyID?: string;
                            Contacts?: {
                                Contact?: {
                                    /** Format: email */
                                    EmailContact?: string;
                                }[];
                            };
                        };
                    };
                };
                Query?: {
                    /** @description The last event id seen (NextAfter of the previous page); from the oldest kept event when absent. */
                    After?: string;
                    /**
                     * @description Events per page, 1 to 500 (default 100).
                     * @default 100
                     */
                    Limit?: number;
                };
            };
        };
        AirOrderEventListResponse: {
            OrderEventListRS: {
                Document: {
                    Name: string;
                    ReferenceVersion: string;
                };
                Party: {
                    Sender: {
                        /** @description The authenticated agency's registered profile; empty strings and no contacts when unauthenticated. */
                        TravelAgencySender: {
                            Name: string;
                            IATA_Number: string;
                            AgencyID: string;
                            Contacts: {
                                Contact: {
                                    EmailContact: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Unique per response; equal to the X-Request-Id header. */
                ShoppingResponseId: string;
                /** @description The id of the last event listed, to send as Query.After for the next page (After itself when the page is empty; "" when there is no event yet). */
                NextAfter?: string;
                Events: {
                    /** @description evt_ and a sortable unique id; also the webhook-id of its webhook deliveries. */
                    EventID: string;
                    /** @enum {string} */
                    Type: "airline_change.detected" | "airline_change.deadline_approaching" | "airline_change.resolved" | "booking.canceled" | "booking.refunded";
                    /**
                     * Format: date-time
                     * @description When the change it reports was made.
                     */
                    Timestamp: string;
                    /** @description Per type, in the interface's PascalCase; amounts as JSON numbers in the order's currency (docs/webhooks.md). */
                    Data: {
                        [key: string]: unknown;
                    };
                }[];
                /** @description Present, empty, exactly when every item succeeded; otherwise Errors is. */
                Success?: Record<string, never>;
                /** @description Present when Success is not: one entry per distinct failure. */
                Errors?: {
                    /** @enum {string} */
                    Code: "AUTH_MISSING" | "AUTH_INVALID" | "SENDER_MISMATCH" | "INVALID_JSON" | "INVALID_REQUEST" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "RATE_LIMITED" | "INTERNAL_ERROR" | "UNAVAILABLE";
                    Message: string;
                }[];
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    AirOrderCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters, the first and the last not a space (HTTP drops white space around a header value), scoped to the agency and the operation. The first response is kept for 24 hours: a repeat with the same body gets it again with `Idempotent-Replayed: true`; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, it waits or gets 409. An agency keeps at most KEPT_RESPONSES_PER_AGENCY responses at once (50,000 by default): past it, a new key gets 429 IDEMPOTENCY_KEYS_EXHAUSTED, a key already kept still gets its response. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AirOrderCancelRequest"];
            };
        };
        responses: {
            /** @description Processed. `Success: {}` when every item succeeded; otherwise `Errors` and FAILED items (BOOKING_NOT_FOUND). */
            200: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Sent when the response is the kept first response to this Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `INVALID_JSON`: The body is not valid JSON. `INVALID_REQUEST`: The request does not match the schema. */
            400: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `AUTH_MISSING`: The Authorization header is missing. Send "Authorization: Bearer <token>". `AUTH_INVALID`: The access token is unknown, revoked or expired. */
            401: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `SENDER_MISMATCH`: The request names an agency other than the one the token belongs to. */
            403: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `ORDER_NOT_FOUND`: No such order for this agency. */
            404: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE`: Another request with this Idempotency-Key is being processed; retry shortly. */
            409: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: The body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: Content-Type must be application/json. */
            415: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_REUSED`: This Idempotency-Key was used with a different body. */
            422: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests for this token; retry after the delay in Retry-After. `IDEMPOTENCY_KEYS_EXHAUSTED`: This agency keeps as many responses under Idempotency-Keys as it may; retry a new key after the delay in Retry-After, or send the request without one. */
            429: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `INTERNAL_ERROR`: An internal error occurred; nothing was changed. */
            500: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
            /** @description `UNAVAILABLE`: The service is temporarily unavailable; retry after the delay in Retry-After. */
            503: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderCancelResponse"];
                };
            };
        };
    };
    AirOrderInvoluntaryAccept: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters, the first and the last not a space (HTTP drops white space around a header value), scoped to the agency and the operation. The first response is kept for 24 hours: a repeat with the same body gets it again with `Idempotent-Replayed: true`; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, it waits or gets 409. An agency keeps at most KEPT_RESPONSES_PER_AGENCY responses at once (50,000 by default): past it, a new key gets 429 IDEMPOTENCY_KEYS_EXHAUSTED, a key already kept still gets its response. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AirOrderInvoluntaryAcceptRequest"];
            };
        };
        responses: {
            /** @description Processed. `Success: {}` when every item succeeded; otherwise `Errors` and FAILED items (BOOKING_NOT_FOUND, BOOKING_CANCELED, NO_PENDING_CHANGE, NO_REPLACEMENT_OFFERED). */
            200: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Sent when the response is the kept first response to this Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `INVALID_JSON`: The body is not valid JSON. `INVALID_REQUEST`: The request does not match the schema. */
            400: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `AUTH_MISSING`: The Authorization header is missing. Send "Authorization: Bearer <token>". `AUTH_INVALID`: The access token is unknown, revoked or expired. */
            401: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `SENDER_MISMATCH`: The request names an agency other than the one the token belongs to. */
            403: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `ORDER_NOT_FOUND`: No such order for this agency. */
            404: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE`: Another request with this Idempotency-Key is being processed; retry shortly. */
            409: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: The body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: Content-Type must be application/json. */
            415: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_REUSED`: This Idempotency-Key was used with a different body. */
            422: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests for this token; retry after the delay in Retry-After. `IDEMPOTENCY_KEYS_EXHAUSTED`: This agency keeps as many responses under Idempotency-Keys as it may; retry a new key after the delay in Retry-After, or send the request without one. */
            429: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `INTERNAL_ERROR`: An internal error occurred; nothing was changed. */
            500: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
            /** @description `UNAVAILABLE`: The service is temporarily unavailable; retry after the delay in Retry-After. */
            503: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryAcceptResponse"];
                };
            };
        };
    };
    AirOrderInvoluntaryCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters, the first and the last not a space (HTTP drops white space around a header value), scoped to the agency and the operation. The first response is kept for 24 hours: a repeat with the same body gets it again with `Idempotent-Replayed: true`; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, it waits or gets 409. An agency keeps at most KEPT_RESPONSES_PER_AGENCY responses at once (50,000 by default): past it, a new key gets 429 IDEMPOTENCY_KEYS_EXHAUSTED, a key already kept still gets its response. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AirOrderInvoluntaryCancelRequest"];
            };
        };
        responses: {
            /** @description Processed. `Success: {}` when every item succeeded; otherwise `Errors` and FAILED items (BOOKING_NOT_FOUND, BOOKING_CANCELED, NO_PENDING_CHANGE). */
            200: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Sent when the response is the kept first response to this Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `INVALID_JSON`: The body is not valid JSON. `INVALID_REQUEST`: The request does not match the schema. */
            400: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `AUTH_MISSING`: The Authorization header is missing. Send "Authorization: Bearer <token>". `AUTH_INVALID`: The access token is unknown, revoked or expired. */
            401: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `SENDER_MISMATCH`: The request names an agency other than the one the token belongs to. */
            403: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `ORDER_NOT_FOUND`: No such order for this agency. */
            404: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE`: Another request with this Idempotency-Key is being processed; retry shortly. */
            409: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: The body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: Content-Type must be application/json. */
            415: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_REUSED`: This Idempotency-Key was used with a different body. */
            422: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests for this token; retry after the delay in Retry-After. `IDEMPOTENCY_KEYS_EXHAUSTED`: This agency keeps as many responses under Idempotency-Keys as it may; retry a new key after the delay in Retry-After, or send the request without one. */
            429: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `INTERNAL_ERROR`: An internal error occurred; nothing was changed. */
            500: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
            /** @description `UNAVAILABLE`: The service is temporarily unavailable; retry after the delay in Retry-After. */
            503: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderInvoluntaryCancelResponse"];
                };
            };
        };
    };
    AirOrderRefundQuote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters, the first and the last not a space (HTTP drops white space around a header value), scoped to the agency and the operation. The first response is kept for 24 hours: a repeat with the same body gets it again with `Idempotent-Replayed: true`; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, it waits or gets 409. An agency keeps at most KEPT_RESPONSES_PER_AGENCY responses at once (50,000 by default): past it, a new key gets 429 IDEMPOTENCY_KEYS_EXHAUSTED, a key already kept still gets its response. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AirOrderRefundQuoteRequest"];
            };
        };
        responses: {
            /** @description Processed. `Success: {}` when every item succeeded; otherwise `Errors` and FAILED items (BOOKING_NOT_FOUND, PASSENGER_NOT_FOUND, ALREADY_REFUNDED, NO_FARE_RULES, PARTLY_FLOWN). */
            200: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Sent when the response is the kept first response to this Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `INVALID_JSON`: The body is not valid JSON. `INVALID_REQUEST`: The request does not match the schema. */
            400: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `AUTH_MISSING`: The Authorization header is missing. Send "Authorization: Bearer <token>". `AUTH_INVALID`: The access token is unknown, revoked or expired. */
            401: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `SENDER_MISMATCH`: The request names an agency other than the one the token belongs to. */
            403: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `ORDER_NOT_FOUND`: No such order for this agency. */
            404: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE`: Another request with this Idempotency-Key is being processed; retry shortly. */
            409: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: The body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: Content-Type must be application/json. */
            415: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_REUSED`: This Idempotency-Key was used with a different body. */
            422: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests for this token; retry after the delay in Retry-After. `IDEMPOTENCY_KEYS_EXHAUSTED`: This agency keeps as many responses under Idempotency-Keys as it may; retry a new key after the delay in Retry-After, or send the request without one. */
            429: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `INTERNAL_ERROR`: An internal error occurred; nothing was changed. */
            500: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
            /** @description `UNAVAILABLE`: The service is temporarily unavailable; retry after the delay in Retry-After. */
            503: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundQuoteResponse"];
                };
            };
        };
    };
    AirOrderRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters, the first and the last not a space (HTTP drops white space around a header value), scoped to the agency and the operation. The first response is kept for 24 hours: a repeat with the same body gets it again with `Idempotent-Replayed: true`; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, it waits or gets 409. An agency keeps at most KEPT_RESPONSES_PER_AGENCY responses at once (50,000 by default): past it, a new key gets 429 IDEMPOTENCY_KEYS_EXHAUSTED, a key already kept still gets its response. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AirOrderRefundRequest"];
            };
        };
        responses: {
            /** @description Processed. `Success: {}` when every item succeeded; otherwise `Errors` and FAILED items (BOOKING_NOT_FOUND, QUOTE_NOT_FOUND, QUOTE_EXPIRED, QUOTE_OUTDATED). */
            200: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Sent when the response is the kept first response to this Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `INVALID_JSON`: The body is not valid JSON. `INVALID_REQUEST`: The request does not match the schema. */
            400: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `AUTH_MISSING`: The Authorization header is missing. Send "Authorization: Bearer <token>". `AUTH_INVALID`: The access token is unknown, revoked or expired. */
            401: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `SENDER_MISMATCH`: The request names an agency other than the one the token belongs to. */
            403: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `ORDER_NOT_FOUND`: No such order for this agency. */
            404: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_IN_USE`: Another request with this Idempotency-Key is being processed; retry shortly. */
            409: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: The body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: Content-Type must be application/json. */
            415: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `IDEMPOTENCY_KEY_REUSED`: This Idempotency-Key was used with a different body. */
            422: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests for this token; retry after the delay in Retry-After. `IDEMPOTENCY_KEYS_EXHAUSTED`: This agency keeps as many responses under Idempotency-Keys as it may; retry a new key after the delay in Retry-After, or send the request without one. */
            429: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `INTERNAL_ERROR`: An internal error occurred; nothing was changed. */
            500: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
            /** @description `UNAVAILABLE`: The service is temporarily unavailable; retry after the delay in Retry-After. */
            503: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRefundResponse"];
                };
            };
        };
    };
    AirOrderRetrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AirOrderRetrieveRequest"];
            };
        };
        responses: {
            /** @description Processed. `Success: {}` when every item succeeded; otherwise `Errors` and FAILED items (BOOKING_NOT_FOUND). */
            200: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `INVALID_JSON`: The body is not valid JSON. `INVALID_REQUEST`: The request does not match the schema. */
            400: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `AUTH_MISSING`: The Authorization header is missing. Send "Authorization: Bearer <token>". `AUTH_INVALID`: The access token is unknown, revoked or expired. */
            401: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `SENDER_MISMATCH`: The request names an agency other than the one the token belongs to. */
            403: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `ORDER_NOT_FOUND`: No such order for this agency. */
            404: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: The body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: Content-Type must be application/json. */
            415: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests for this token; retry after the delay in Retry-After. */
            429: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `INTERNAL_ERROR`: An internal error occurred; nothing was changed. */
            500: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
            /** @description `UNAVAILABLE`: The service is temporarily unavailable; retry after the delay in Retry-After. */
            503: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderRetrieveResponse"];
                };
            };
        };
    };
    AirOrderEventList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AirOrderEventListRequest"];
            };
        };
        responses: {
            /** @description Processed. `Success: {}` when every item succeeded; otherwise `Errors` and FAILED items (). */
            200: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `INVALID_JSON`: The body is not valid JSON. `INVALID_REQUEST`: The request does not match the schema. */
            400: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `AUTH_MISSING`: The Authorization header is missing. Send "Authorization: Bearer <token>". `AUTH_INVALID`: The access token is unknown, revoked or expired. */
            401: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description `Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `SENDER_MISMATCH`: The request names an agency other than the one the token belongs to. */
            403: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `PAYLOAD_TOO_LARGE`: The body is larger than 64 KiB. */
            413: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: Content-Type must be application/json. */
            415: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests for this token; retry after the delay in Retry-After. */
            429: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `INTERNAL_ERROR`: An internal error occurred; nothing was changed. */
            500: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
            /** @description `UNAVAILABLE`: The service is temporarily unavailable; retry after the delay in Retry-After. */
            503: {
                headers: {
                    /** @description Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests the token may still send at once. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the token's allowance is full again. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AirOrderEventListResponse"];
                };
            };
        };
    };
}
