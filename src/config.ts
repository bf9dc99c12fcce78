import path from 'node:path';
import { parseAddressRange, type AddressRange } from './address-ranges.js';
import { parseDuration } from './duration.js';

export type Durability = 'process' | 'power';

/** pino's levels, as README lists them: checked at start, so a typo stops every command at once rather than `serve` inside the logger. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  readonly databaseUrl: string;
  readonly port: number;
  readonly host: string;
  /** `process`: a committed change survives the process being killed (SQLite WAL, synchronous=NORMAL).
   *  `power`: it also survives power loss (synchronous=FULL), at some cost in write throughput. */
  readonly durability: Durability;
  /**
   * SQLite only: how large the write-ahead log may grow under writes that never pause before the
   * service holds writes for a moment to start it over (docs/decisions.md, "Storage").
   */
  readonly sqliteWalLimitBytes: number;
  readonly logLevel: LogLevel;
  readonly serviceName: string;
  readonly bodyLimitBytes: number;
  readonly shutdownGraceMs: number;
  /** PostgreSQL only: connections per process. */
  readonly databasePoolSize: number;
  /** PostgreSQL only: how long to wait for a connection before answering 503. */
  readonly databaseConnectTimeoutMs: number;
  /** Upper bound of one statement: an overloaded database answers 503 rather than hanging. */
  readonly databaseStatementTimeoutMs: number;
  /** PostgreSQL only: connections opened before the service is ready, and kept open (at most the pool's size). */
  readonly databasePoolMin: number;
  /** PostgreSQL only: requests that may wait for a connection; one more is answered 503 at once. */
  readonly databasePoolQueue: number;
  /** How long `serve` keeps trying a database that does not answer yet at start; 0 tries once. */
  readonly databaseStartWaitMs: number;
  /** Per access token; 0 turns rate limiting off. */
  readonly rateLimitPerSecond: number;
  readonly rateLimitBurst: number;
  /**
   * How many kept responses (under an Idempotency-Key, for 24 hours) an agency may have at once;
   * past it, a request under a new key is answered 429 IDEMPOTENCY_KEYS_EXHAUSTED (docs/security.md).
   */
  readonly keptResponsesPerAgency: number;
  /** A request not answered by then is answered 503 UNAVAILABLE. */
  readonly requestTimeoutMs: number;
  /** A request not received in full (headers and body) by then is answered 408 REQUEST_TIMEOUT. */
  readonly receiveTimeoutMs: number;
  /**
   * Connections this process holds at most; one past it is closed as soon as it is accepted. The
   * open-files limit may lower it at start (http/connection-limits.ts). Per process, like the rest.
   */
  readonly maxConnections: number;
  /** Connections one address (an IPv6 address's /64) may hold at once in this process; 0: no such cap. */
  readonly maxConnectionsPerAddress: number;
  /** A request whose headers have not all arrived by then is answered 408; never longer than `receiveTimeoutMs`. */
  readonly headersTimeoutMs: number;
  /** A kept-alive connection with no request for that long is closed. */
  readonly keepAliveTimeoutMs: number;
  /** How long before a pending change's deadline `airline_change.deadline_approaching` is sent. */
  readonly deadlineWarningMs: number;
  /** How long after its issue a ticket whose coupons are all OPEN is voided (everything back) rather than refunded. */
  readonly voidWindowMs: number;
  /** How long a refund quote can be confirmed (AirOrderRefund) after AirOrderRefundQuote made it. */
  readonly refundQuoteTtlMs: number;
  /** Delays between a failed webhook attempt and the next; after the last, the delivery has failed. */
  readonly webhookRetrySchedule: readonly number[];
  /** Webhook endpoints may be plain http (tests, closed networks); https only otherwise. */
  readonly webhookAllowHttp: boolean;
  /** Webhook endpoints may resolve to loopback, private or reserved addresses (server-side request forgery otherwise). */
  readonly webhookAllowPrivateNetworks: boolean;
  /** A webhook attempt not answered (status and body) by then has failed. */
  readonly webhookTimeoutMs: number;
  /** The operator's console under /console (docs/console.md); `CONSOLE=off` leaves it out. */
  readonly consoleEnabled: boolean;
  /**
   * Started through npm (`npm start`, `npx airorder`), which sets `npm_execpath`: npm may exit on a
   * signal without passing it on, so the service watches for its launcher to go (docs/decisions.md,
   * "Stopping the service"). Started any other way (node directly, nohup, systemd) it is not watched.
   */
  readonly launchedByNpm: boolean;
  /** Peers that may read /metrics besides loopback (docs/decisions.md, "Who may read /metrics"). */
  readonly metricsAllow: readonly AddressRange[];
  /** A bearer token that opens /metrics from any address; null: none does. */
  readonly metricsToken: string | null;
}

export type Env = Record<string, string | undefined>;

/** Every setting and its default: docs/configuration.md lists each (test/unit/configuration-docs.test.ts). */
export const DEFAULTS = {
  DATABASE_URL: 'sqlite:./data/airorder.db',
  PORT: '8080',
  HOST: '127.0.0.1',
  DURABILITY: 'process',
  SQLITE_WAL_LIMIT_MB: '1024',
  LOG_LEVEL: 'info',
  SHUTDOWN_GRACE_MS: '10000',
  DATABASE_POOL_SIZE: '10',
  DATABASE_CONNECT_TIMEOUT_MS: '2000',
  DATABASE_STATEMENT_TIMEOUT_MS: '5000',
  DATABASE_POOL_MIN: '2',
  DATABASE_POOL_QUEUE: '500',
  DATABASE_START_WAIT_MS: '60000',
  RATE_LIMIT_PER_SECOND: '50',
  RATE_LIMIT_BURST: '100',
  KEPT_RESPONSES_PER_AGENCY: '50000',
  REQUEST_TIMEOUT_MS: '15000',
  RECEIVE_TIMEOUT_MS: '30000',
  MAX_CONNECTIONS: '10000',
  MAX_CONNECTIONS_PER_ADDRESS: '256',
  HEADERS_TIMEOUT_MS: '10000',
  KEEP_ALIVE_TIMEOUT_MS: '72000',
  DEADLINE_WARNING: '24h',
  VOID_WINDOW: '24h',
  REFUND_QUOTE_TTL: '15m',
  WEBHOOK_RETRY_SCHEDULE: '5s,1m,5m,30m,2h,6h,12h,24h,24h',
  WEBHOOK_ALLOW_HTTP: 'false',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
  WEBHOOK_TIMEOUT_MS: '10000',
  CONSOLE: 'on',
  METRICS_ALLOW: '',
  METRICS_TOKEN: '',
} as const;

export class ConfigError extends Error {}

function integer(name: string, value: string, min: number, max: number): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return parsed;
}

function duration(name: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === null)
    throw new ConfigError(`${name} must be a number and a unit, such as 30s, 15m, 12h or 90d, got "${value}".`);
  return ms;
}

function durations(name: string, value: string): number[] {
  const parts = value.split(',');
  if (parts.length > 30) throw new ConfigError(`${name} may list at most 30 delays, got ${parts.length}.`);
  return parts.map((part) => {
    const ms = parseDuration(part);
    if (ms === null)
      throw new ConfigError(`${name} must be delays separated by commas, such as 5s,1m,5m, got "${value}".`);
    return ms;
  });
}

function flag(name: string, value: string): boolean {
  if (value !== 'true' && value !== 'false') throw new ConfigError(`${name} must be true or false, got "${value}".`);
  return value === 'true';
}

function addressRanges(name: string, value: string): readonly AddressRange[] {
  if (value.trim() === '') return Object.freeze([]);
  return Object.freeze(
    value.split(',').map((entry) => {
      const range = parseAddressRange(entry.trim());
      if (range === null) {
        throw new ConfigError(
          `${name} must list addresses or CIDR ranges separated by commas, such as 10.0.0.0/8,fd00::/8; "${entry.trim()}" is neither.`,
        );
      }
      return Object.freeze(range);
    }),
  );
}

/** Never echoed: a message about it says what is wrong, not what was given. */
function secretToken(name: string, value: string): string | null {
  if (value === '') return null;
  if (value.length < 16 || value.length > 256 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      `${name} must be 16 to 256 printable characters without spaces (e.g. openssl rand -hex 32); the value given is not.`,
    );
  }
  return value;
}

/** Reads the environment once, checks it, and freezes the result; nothing else reads process.env. */
export function loadConfig(
  env: Env = process.env,
  overrides: Partial<Record<keyof typeof DEFAULTS, string>> = {},
): Config {
  const read = (name: keyof typeof DEFAULTS): string => overrides[name] ?? env[name] ?? DEFAULTS[name];
  const databaseUrl = read('DATABASE_URL');
  if (!databaseUrl.startsWith('sqlite:') && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      `DATABASE_URL must be sqlite:PATH or postgres://user:password@host:port/database, got "${withoutPassword(databaseUrl)}".`,
    );
  }
  // An empty PATH would resolve to the working directory, which no one means.
  if (databaseUrl === 'sqlite:') throw new ConfigError('DATABASE_URL must name a file after sqlite:, got "sqlite:".');
  const durability = read('DURABILITY');
  if (durability !== 'process' && durability !== 'power') {
    throw new ConfigError(`DURABILITY must be "process" or "power", got "${durability}".`);
  }
  const logLevel = read('LOG_LEVEL');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}".`);
  }
  const consoleSetting = read('CONSOLE');
  if (consoleSetting !== 'on' && consoleSetting !== 'off')
    throw new ConfigError(`CONSOLE must be "on" or "off", got "${consoleSetting}".`);
  const config: Config = {
    databaseUrl,
    port: integer('PORT', read('PORT'), 0, 65535),
    host: read('HOST'),
    durability,
    sqliteWalLimitBytes: integer('SQLITE_WAL_LIMIT_MB', read('SQLITE_WAL_LIMIT_MB'), 1, 1_048_576) * 1024 * 1024,
    logLevel: logLevel as LogLevel,
    serviceName: 'airorder',
    bodyLimitBytes: 64 * 1024,
    shutdownGraceMs: integer('SHUTDOWN_GRACE_MS', read('SHUTDOWN_GRACE_MS'), 0, 600_000),
    databasePoolSize: integer('DATABASE_POOL_SIZE', read('DATABASE_POOL_SIZE'), 1, 1000),
    databaseConnectTimeoutMs: integer('DATABASE_CONNECT_TIMEOUT_MS', read('DATABASE_CONNECT_TIMEOUT_MS'), 100, 600_000),
    databaseStatementTimeoutMs: integer(
      'DATABASE_STATEMENT_TIMEOUT_MS',
      read('DATABASE_STATEMENT_TIMEOUT_MS'),
      100,
      600_000,
    ),
    // The pool's floor and queue (docs/operations.md, "Sizing the PostgreSQL pool").
    databasePoolMin: integer('DATABASE_POOL_MIN', read('DATABASE_POOL_MIN'), 0, 1000),
    databasePoolQueue: integer('DATABASE_POOL_QUEUE', read('DATABASE_POOL_QUEUE'), 0, 100_000),
    // serve's wait for a database not answering yet at start (docs/operations.md, "Starting before the database").
    databaseStartWaitMs: integer('DATABASE_START_WAIT_MS', read('DATABASE_START_WAIT_MS'), 0, 3_600_000),
    rateLimitPerSecond: integer('RATE_LIMIT_PER_SECOND', read('RATE_LIMIT_PER_SECOND'), 0, 1_000_000),
    rateLimitBurst: integer('RATE_LIMIT_BURST', read('RATE_LIMIT_BURST'), 0, 1_000_000),
    keptResponsesPerAgency: integer('KEPT_RESPONSES_PER_AGENCY', read('KEPT_RESPONSES_PER_AGENCY'), 1, 10_000_000),
    requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', read('REQUEST_TIMEOUT_MS'), 100, 600_000),
    receiveTimeoutMs: integer('RECEIVE_TIMEOUT_MS', read('RECEIVE_TIMEOUT_MS'), 1000, 600_000),
    maxConnections: integer('MAX_CONNECTIONS', read('MAX_CONNECTIONS'), 1, 1_000_000),
    maxConnectionsPerAddress: integer('MAX_CONNECTIONS_PER_ADDRESS', read('MAX_CONNECTIONS_PER_ADDRESS'), 0, 1_000_000),
    headersTimeoutMs: integer('HEADERS_TIMEOUT_MS', read('HEADERS_TIMEOUT_MS'), 1000, 600_000),
    keepAliveTimeoutMs: integer('KEEP_ALIVE_TIMEOUT_MS', read('KEEP_ALIVE_TIMEOUT_MS'), 1000, 600_000),
    deadlineWarningMs: duration('DEADLINE_WARNING', read('DEADLINE_WARNING')),
    voidWindowMs: duration('VOID_WINDOW', read('VOID_WINDOW')),
    refundQuoteTtlMs: duration('REFUND_QUOTE_TTL', read('REFUND_QUOTE_TTL')),
    webhookRetrySchedule: Object.freeze(durations('WEBHOOK_RETRY_SCHEDULE', read('WEBHOOK_RETRY_SCHEDULE'))),
    webhookAllowHttp: flag('WEBHOOK_ALLOW_HTTP', read('WEBHOOK_ALLOW_HTTP')),
    webhookAllowPrivateNetworks: flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS', read('WEBHOOK_ALLOW_PRIVATE_NETWORKS')),
    webhookTimeoutMs: integer('WEBHOOK_TIMEOUT_MS', read('WEBHOOK_TIMEOUT_MS'), 100, 600_000),
    consoleEnabled: consoleSetting === 'on',
    launchedByNpm: Boolean(env.npm_execpath),
    metricsAllow: addressRanges('METRICS_ALLOW', read('METRICS_ALLOW')),
    metricsToken: secretToken('METRICS_TOKEN', read('METRICS_TOKEN')),
  };
  // The pool's floor is at most its size.
  return Object.freeze({ ...config, databasePoolMin: Math.min(config.databasePoolMin, config.databasePoolSize) });
}

/** DATABASE_URL as it may be shown in a message: `scheme://user:password@…` without the password. */
export function withoutPassword(databaseUrl: string): string {
  // Up to the last @ of the whole text, not of the host part: a password with a / or ? in it would
  // end that part early. At worst this hides more than the password. Not only at the start: a value
  // refused for a blank or a stray character before its scheme still holds the password.
  return databaseUrl.replace(/([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:).*@/i, '$1***@');
}

/** The file path of an sqlite: URL, resolved against the working directory. */
export function sqlitePath(databaseUrl: string): string {
  const file = databaseUrl.slice('sqlite:'.length);
  if (file === ':memory:') return file;
  return path.resolve(file);
}
