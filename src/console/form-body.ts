import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';
import { checkFirstField, CsrfRefusal } from './csrf-check.js';

/** A console form: a few short fields (a reason is at most 500 characters). */
export const FORM_LIMIT_BYTES = 16 * 1024;
/** The sign-in form: an email and a password, read before there is a session. */
export const LOGIN_FORM_LIMIT_BYTES = 4 * 1024;

/** The first `name=value` pair of a URL-encoded body, once it has arrived whole. */
function firstPair(text: string, complete: boolean): [string, string] | null {
  const end = text.indexOf('&');
  if (end < 0 && !complete) return null;
  const [pair] = new URLSearchParams(end < 0 ? text : text.slice(0, end));
  return pair ?? ['', ''];
}

/**
 * Reads a URL-encoded form up to the route's body limit (413 past it, or at once when the declared
 * length is over it). While the request still owes its CSRF token, the first field must be that
 * token: as soon as it has arrived and does not match, reading stops and the request is refused.
 */
export function readUrlEncodedForm(request: FastifyRequest, payload: Readable): Promise<URLSearchParams> {
  const limit = request.routeOptions.bodyLimit ?? FORM_LIMIT_BYTES;
  if (Number(request.headers['content-length']) > limit)
    return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let firstChecked = false;
    const detach = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
    };
    const refuse = (error: Error) => {
      detach();
      // Paused, not destroyed: the answer still goes out on this connection, which then closes.
      payload.pause();
      reject(error);
    };
    const checkFirst = (complete: boolean): boolean => {
      if (firstChecked) return true;
      const pair = firstPair(Buffer.concat(chunks).toString('utf8'), complete);
      if (!pair) return true;
      firstChecked = true;
      return checkFirstField(request, pair[0], pair[1]);
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size > limit) return refuse(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      chunks.push(chunk);
      if (!checkFirst(false)) refuse(new CsrfRefusal());
    }
    function onEnd() {
      detach();
      if (!checkFirst(true)) return reject(new CsrfRefusal());
      resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    }
    function onError(error: Error) {
      detach();
      reject(error);
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}
