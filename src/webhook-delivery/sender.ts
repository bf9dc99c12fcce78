import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { vetTarget, RefusedUrl, type GuardPolicy } from './address-guard.js';

/** How much of a receiver's answer is read before the attempt is judged on its status alone. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface Attempt {
  url: string;
  /** The event id, the same on every attempt. */
  id: string;
  body: string;
  /** Unix seconds of this attempt: part of what is signed. */
  timestamp: number;
  signature: string;
}

export type AttemptResult =
  | { delivered: true; status: number; ms: number }
  | { delivered: false; status: number | null; error: string; ms: number };

/**
 * POSTs one delivery. A 2xx answered in full within `timeoutMs` is delivered; anything else (a
 * time-out, a refused or broken connection, a redirect, which is never followed, another status, a
 * URL the guard refuses now) is not. The connection goes to the address the guard checked.
 */
export async function sendAttempt(attempt: Attempt, policy: GuardPolicy, timeoutMs: number): Promise<AttemptResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let target;
  // The host's resolution counts against the same time-out: a stalled resolver must not make the
  // attempt outlive its lease, after which another process could make the same attempt.
  let resolveTimer: NodeJS.Timeout | undefined;
  try {
    target = await Promise.race([
      vetTarget(attempt.url, policy),
      new Promise<never>((_resolve, reject) => {
        resolveTimer = setTimeout(
          () => reject(new RefusedUrl(`its host did not resolve within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    if (error instanceof RefusedUrl)
      return { delivered: false, status: null, error: `refused: ${error.message}`, ms: ms() };
    throw error;
  } finally {
    clearTimeout(resolveTimer);
  }
  // Node asks for every address when it tries them in turn (happy eyeballs), or for one.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const [first] = target.addresses;
    if ((options as { all?: boolean }).all)
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(
        null,
        target.addresses,
      );
    else callback(null, first!.address, first!.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(attempt.body),
          'user-agent': 'airorder-webhooks/1',
          'webhook-id': attempt.id,
          'webhook-timestamp': String(attempt.timestamp),
          'webhook-signature': attempt.signature,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // The answer is read to its end, so that "answered" means answered; one that goes on and on is cut off.
          if (read > MAX_ANSWER_BYTES)
            finish(
              status >= 200 && status < 300
                ? { delivered: true, status, ms: ms() }
                : { delivered: false, status, error: `HTTP ${status}`, ms: ms() },
            );
        });
        response.on('end', () =>
          finish(
            status >= 200 && status < 300
              ? { delivered: true, status, ms: ms() }
              : {
                  delivered: false,
                  status,
                  error:
                    status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`,
                  ms: ms(),
                },
          ),
        );
        response.on('error', (error) => finish({ delivered: false, status, error: error.message, ms: ms() }));
      },
    );
    const timer = setTimeout(
      () => finish({ delivered: false, status: null, error: `no answer within ${timeoutMs} ms`, ms: ms() }),
      Math.max(0, timeoutMs - ms()),
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ delivered: false, status: null, error: error.code ?? error.message, ms: ms() }),
    );
    request.end(attempt.body);
  });
}
