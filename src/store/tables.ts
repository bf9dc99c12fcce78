import type { Generated } from 'kysely';

/** Column shapes of the tables. Rows are turned into domain objects in the repositories only. */
export interface AgenciesTable {
  agency_id: string;
  name: string;
  iata_number: string | null;
  email: string | null;
  created_at: string;
}

export interface AccessTokensTable {
  token_id: string;
  agency_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface TokenLastUseTable {
  token_id: string;
  last_used_at: string;
}

export interface OrdersTable {
  order_id: string;
  agency_id: string;
  currency: string;
  created_at: string;
  updated_at: string;
  /** Moves on with every change of the order's bookings, changes or refunds (optimistic writes). */
  version: number;
}

/** One row (id 1): moved on by triggers whenever access tokens or agencies change. */
export interface AuthStateTable {
  id: number;
  version: number;
}

export interface BookingsTable {
  order_id: string;
  reference: string;
  position: number;
  status: string;
  cancellation: string | null;
  /** JSON: Segment[] */
  segments: string;
  /** JSON: Passenger[] with tickets and coupons, amounts in minor units */
  passengers: string;
}

export interface AirlineChangesTable {
  change_id: string;
  order_id: string;
  reference: string;
  kind: string;
  detected_at: string;
  /** JSON: string[] */
  removed_segments: string;
  /** JSON: Segment[] */
  added_segments: string;
  status: string;
  created_at: string;
  resolved_at: string | null;
  action_deadline: string | null;
  consequence: string;
  warned_at: string | null;
}

export interface RefundsTable {
  order_id: string;
  reference: string;
  ticket_number: string;
  position: number;
  /** bigint: PostgreSQL returns it as a string */
  amount_minor: number | string;
  currency: string;
  quote_type: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  agency_id: string;
  operation: string;
  idempotency_key: string;
  request_hash: string;
  response_status: number;
  response_body: string;
  request_id: string;
  created_at: string;
  expires_at: string;
}

/** How many kept responses each agency has (migration 015): the cap on them reads one row. */
export interface KeptResponseCountsTable {
  agency_id: string;
  kept: number;
}

export interface AuditEventsTable {
  event_id: string;
  order_id: string;
  reference: string | null;
  /** Order of the events written by one transaction. */
  sequence: number;
  event: string;
  /** JSON: what changed, e.g. {"from":"CONFIRMED","to":"CANCELED"} or a refund's ticket and amount */
  detail: string;
  /** `agency` (through the API) or `operator` (through the CLI) */
  actor: string;
  agency_id: string | null;
  token_id: string | null;
  request_id: string | null;
  operation: string;
  occurred_at: string;
  /** An operator acting in the console: their email and the reason they gave. */
  operator_email?: string | null;
  reason?: string | null;
}

/** A view since migration 013: the rows of `events_before_013` and the entries of `event_log` (events-repository.ts). */
export interface EventsTable {
  position: Generated<number>;
  event_id: string;
  /** PostgreSQL: the id of the transaction that wrote the event; SQLite: 0. */
  tx: number | string;
  agency_id: string;
  type: string;
  occurred_at: string;
  /** JSON: the event's data, in the interface's PascalCase */
  data: string;
}

export interface WebhookEndpointsTable {
  endpoint_id: string;
  agency_id: string;
  url: string;
  /** `*` or event types separated by commas */
  events: string;
  status: string;
  status_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  event_id: string;
  endpoint_id: string;
  agency_id: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface BackgroundLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

export interface ConsoleImportsTable {
  import_id: string;
  kind: string;
  file_name: string;
  operator_email: string;
  runner: string;
  status: string;
  phase: string;
  records_read: number;
  records_stored: number;
  records_total: number | null;
  summary: string | null;
  error: string | null;
  started_at: string;
  updated_at: string;
}

/** Requests to the API per minute (minutes since the epoch) and outcome code, from every process. */
export interface RequestCountsTable {
  minute: number;
  code: string;
  requests: number;
}

export interface Database {
  agencies: AgenciesTable;
  access_tokens: AccessTokensTable;
  token_last_use: TokenLastUseTable;
  orders: OrdersTable;
  auth_state: AuthStateTable;
  bookings: BookingsTable;
  airline_changes: AirlineChangesTable;
  refunds: RefundsTable;
  idempotency_keys: IdempotencyKeysTable;
  kept_response_counts: KeptResponseCountsTable;
  audit_events: AuditEventsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  background_leases: BackgroundLeasesTable;
  console_imports: ConsoleImportsTable;
  request_counts: RequestCountsTable;
}

export type { Generated };
