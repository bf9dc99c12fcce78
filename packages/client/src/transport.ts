/**
 * The one HTTP transport of the client: base URL, token, time-outs, retries, user agent. Uses Node's
 * built-in fetch and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AirOrderConnectionError,
  AirOrderError,
  AirOrderInvalidResponseError,
  AirOrderTimeoutError,
  errorFromResponse,
} from './errors.js';
import { VERSION } from './version.js';

export interface ClientOptions {
  /** Where the service runs, e.g. "https://airorder.example.com" (a path prefix is kept). */
  baseUrl: string;
  /** The access token the operator issued to the agency ("aot_…"); sent as "Authorization: Bearer <token>". */
  token: string;
  /** Time-out of one HTTP attempt, in milliseconds, including reading the body. Default 30 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 429, 503, 409 IDEMPOTENCY_KEY_IN_USE and network errors. Default 2. */
  maxRetries?: number;
  /** First backoff delay in milliseconds; doubles with each retry, with jitter. Default 500. */
  initialRetryDelayMs?: number;
  /** Cap of the backoff delay in milliseconds. Default 8 000. */
  maxRetryDelayMs?: number;
  /** A Retry-After longer than this (seconds) is not waited for: the error is thrown. Default 60. */
  maxRetryAfterSeconds?: number;
  /** Appended to the User-Agent, e.g. "bluesky-backoffice/2.3". */
  userAgent?: string;
  /** A fetch implementation (defaults to the global one). */
  fetch?: typeof fetch;
}

/** Per-call options, the second argument of every operation. */
export interface RequestOptions {
  /** Overrides the client's time-out for each attempt of this call. */
  timeoutMs?: number;
  /** Overrides the client's maxRetries for this call. */
  maxRetries?: number;
  /** Aborts the call, including a wait between retries. The abort reason is thrown as is. */
  signal?: AbortSignal;
  /** Extra headers; `null` removes one the client would send. */
  headers?: Record<string, string | null>;
}

export interface TransportRequest {
  path: string;
  /** A value to send as JSON, or a string sent as it is. */
  body: unknown;
  idempotencyKey?: string;
  /**
   * The request changes nothing (AirOrderRetrieve, AirOrderEventList): no Idempotency-Key is
   * generated, as the service takes none for a read, and a retry is safe without one.
   */
  readOnly?: boolean;
  options?: RequestOptions;
}

export interface TransportResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body. */
  body: unknown;
  requestId: string | undefined;
  /** The Idempotency-Key every attempt carried; undefined for a read, which sends none. */
  idempotencyKey: string | undefined;
  replayed: boolean;
  attempts: number;
}

/** Information passed to `onRetry` before the client waits and retries. */
export interface RetryInfo {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  delayMs: number;
  error: AirOrderError;
  /** Undefined for a read, which sends none. */
  idempotencyKey: string | undefined;
}

const IDEMPOTENCY_KEY = /^[\x20-\x7E]{1,255}$/;

export interface BackoffSettings {
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
}

/**
 * How long to wait before retry number `retry` (1 for the first): exponential backoff with jitter
 * (half fixed, half random), and never less than the server's Retry-After.
 */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  settings: BackoffSettings,
  random: () => number = Math.random,
): number {
  const backoff = Math.min(settings.maxRetryDelayMs, settings.initialRetryDelayMs * 2 ** (retry - 1));
  const jittered = backoff / 2 + random() * (backoff / 2);
  if (retryAfterSeconds === undefined) return Math.round(jittered);
  // Honour Retry-After, spread by a little jitter so that many clients do not come back at once.
  return Math.round(retryAfterSeconds * 1000 + random() * Math.min(backoff / 2, 1000));
}

/**
 * Whether the client retries this failure on its own. Safe for a change because every attempt
 * carries the same Idempotency-Key, and for a read because it changes nothing.
 */
export function isRetryable(error: AirOrderError): boolean {
  if (error instanceof AirOrderConnectionError) return true;
  if (error.status === 429 || error.status === 503) return true;
  return error.status === 409 && error.code === 'IDEMPOTENCY_KEY_IN_USE';
}

export class Transport {
  readonly baseUrl: string;
  private readonly token: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  private readonly backoff: BackoffSettings;
  private readonly maxRetryAfterSeconds: number;
  readonly userAgent: string;
  private readonly fetchImpl: typeof fetch;
  /** Called before each retry; for logging and metrics. */
  onRetry: ((info: RetryInfo) => void) | undefined;

  constructor(options: ClientOptions) {
    if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError('baseUrl must be an http:// or https:// URL');
    }
    if (typeof options.token !== 'string' || options.token.trim() === '') throw new TypeError('token is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token.trim();
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? 30_000);
    this.maxRetries = nonNegativeInteger('maxRetries', options.maxRetries ?? 2);
    this.backoff = {
      initialRetryDelayMs: positive('initialRetryDelayMs', options.initialRetryDelayMs ?? 500),
      maxRetryDelayMs: positive('maxRetryDelayMs', options.maxRetryDelayMs ?? 8_000),
    };
    this.maxRetryAfterSeconds = positive('maxRetryAfterSeconds', options.maxRetryAfterSeconds ?? 60);
    this.userAgent = `airorder-client-node/${VERSION} node/${process.version}${options.userAgent ? ` ${options.userAgent}` : ''}`;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /**
   * POSTs the body and returns the 2xx response, parsed. Throws the typed error of any other
   * answer, after retrying the retryable ones with one Idempotency-Key for every attempt.
   */
  async post(request: TransportRequest): Promise<TransportResponse> {
    const options = request.options ?? {};
    const idempotencyKey = request.idempotencyKey ?? (request.readOnly ? undefined : randomUUID());
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey))
      throw new TypeError('idempotencyKey must be 1 to 255 printable ASCII characters');
    const maxRetries = nonNegativeInteger('maxRetries', options.maxRetries ?? this.maxRetries);
    const timeoutMs = positive('timeoutMs', options.timeoutMs ?? this.timeoutMs);
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const headers = this.headers(idempotencyKey, options.headers);

    for (let attempt = 1; ; attempt++) {
      options.signal?.throwIfAborted();
      let error: AirOrderError;
      try {
        const response = await this.attempt(request.path, body, headers, timeoutMs, options.signal);
        if (response.status >= 200 && response.status < 300) return this.success(response, idempotencyKey, attempt);
        error = errorFromResponse(response, idempotencyKey);
      } catch (caught) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (!(caught instanceof AirOrderError)) throw caught;
        error = caught;
      }
      error.attempts = attempt;
      error.idempotencyKey = idempotencyKey;
      if (attempt > maxRetries || !isRetryable(error)) throw error;
      if (error.retryAfter !== undefined && error.retryAfter > this.maxRetryAfterSeconds) throw error;
      const delayMs = retryDelayMs(attempt, error.retryAfter, this.backoff);
      this.onRetry?.({ attempt, delayMs, error, idempotencyKey });
      try {
        await sleep(delayMs, undefined, options.signal ? { signal: options.signal } : undefined);
      } catch {
        throw options.signal?.reason ?? error;
      }
    }
  }

  private headers(idempotencyKey: string | undefined, extra: Record<string, string | null> = {}): Headers {
    const headers = new Headers({
      authorization: `Bearer ${this.token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': this.userAgent,
    });
    if (idempotencyKey !== undefined) headers.set('idempotency-key', idempotencyKey);
    for (const [name, value] of Object.entries(extra)) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
    return headers;
  }

  /** One HTTP exchange, body read in full, within the time-out. Network failures become typed errors. */
  private async attempt(
    path: string,
    body: string,
    headers: Headers,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ) {
    // One controller for the caller's signal and the time-out (AbortSignal.any needs Node 20.3).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.fetchImpl(this.baseUrl + path, {
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
        redirect: 'error',
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) {
        throw new AirOrderTimeoutError({
          code: 'TIMEOUT',
          message: `No complete response within ${timeoutMs} ms`,
          cause: error,
        });
      }
      const cause = (error as { cause?: { message?: string; code?: string } }).cause;
      const detail = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new AirOrderConnectionError({
        code: 'CONNECTION_ERROR',
        message: `Could not reach ${this.baseUrl}: ${detail}`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private success(
    response: { status: number; headers: Headers; text: string },
    idempotencyKey: string | undefined,
    attempts: number,
  ): TransportResponse {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      throw new AirOrderInvalidResponseError({
        code: 'INVALID_RESPONSE',
        message: `HTTP ${response.status} with a body that is not JSON`,
        status: response.status,
        headers: response.headers,
        body: response.text,
        idempotencyKey,
        attempts,
        ...(requestId === undefined ? {} : { requestId }),
      });
    }
    return {
      status: response.status,
      headers: response.headers,
      body,
      requestId,
      idempotencyKey,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      attempts,
    };
  }
}

function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new TypeError(`${name} must be a positive number`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}
