import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { REQUEST_ERRORS } from '../errors/error-codes.js';
import { SECURITY_HEADERS } from './security-headers.js';

const answered = new WeakSet<Socket>();

/**
 * Requests Node's HTTP parser rejects before any route sees them (headers over the size limit,
 * malformed request lines) still get a JSON body in the catalogue's form.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  // Bytes after a complete request (a body longer than its Content-Length) are malformed, but that
  // request is still answered first, in its envelope; only then does this answer close the connection.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req?.complete) {
    inFlight.once('close', () => answer(error, socket));
    return;
  }
  answer(error, socket);
}

function answer(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const code = tooLarge ? 'REQUEST_HEADER_TOO_LARGE' : 'INVALID_REQUEST';
  const status = tooLarge ? 431 : 400;
  const message = tooLarge ? REQUEST_ERRORS.REQUEST_HEADER_TOO_LARGE.message : 'The HTTP request is malformed.';
  const body = JSON.stringify({ Errors: [{ Code: code, Message: message }] });
  const security = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n`
    + `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${security}connection: close\r\n\r\n${body}`);
}
