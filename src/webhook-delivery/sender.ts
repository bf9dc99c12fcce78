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

/** 2xx: delivered. Any other status is not; a redirect is named as such, since it is never followed. */
function judged(status: number, ms: number): AttemptResult {
  const statusClass = Math.floor(status / 100);
  if (statusClass === 2) return { delivered: true, status, ms };
  const error = statusClass === 3 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
  return { delivered: false, status, error, ms };
}

/**
 * POSTs one delivery. A 2xx answered in full within `timeoutMs` is delivered; anything else (a
 * time-out, a refused or broken connection, a redirect, which is never followed, another status, a
 * URL the guard refuses now) is not. The connection goes to the address the guard checked.
 */
export async function sendAttempt(attempt: Attempt, policy: GuardPolicy, timeoutMs: number): Promise<AttemptResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  // One time-out for the whole attempt, counted from its start: the host's resolution counts
  // against it, so a stalled resolver cannot make the attempt outlive its lease, after which another
  // process could make the same attempt.
  const timeUp = AbortSignal.timeout(timeoutMs);
  let target;
  try {
    target = await Promise.race([
      vetTarget(attempt.url, policy),
      new Promise<never>((_resolve, reject) =>
        timeUp.addEventListener('abort', () =>
          reject(new RefusedUrl(`its host did not resolve within ${timeoutMs} ms`)),
        ),
      ),
    ]);
  } catch (error) {
    if (error instanceof RefusedUrl)
      return { delivered: false, status: null, error: `refused: ${error.message}`, ms: ms() };
    throw error;
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
    // The first outcome wins: a later one (the stream's error after a cut-off) resolves nothing,
    // and the request is already destroyed.
    const finish = (result: AttemptResult) => {
      request.destroy();
      resolve(result);
    };
    // The time-out destroys the request (its `signal`), which ends here too, whether or not an answer had begun.
    const broken = (status: number | null, error: NodeJS.ErrnoException) =>
      finish(
        timeUp.aborted
          ? { delivered: false, status: null, error: `no answer within ${timeoutMs} ms`, ms: ms() }
          : { delivered: false, status, error: error.code ?? error.message, ms: ms() },
      );
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        signal: timeUp,
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
          if (read > MAX_ANSWER_BYTES) finish(judged(status, ms()));
        });
        response.on('end', () => finish(judged(status, ms())));
        response.on('error', (error) => broken(status, error));
      },
    );
    request.on('error', (error) => broken(null, error));
    request.end(attempt.body);
  });
}
