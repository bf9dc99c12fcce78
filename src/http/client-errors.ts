import type { Socket } from 'node:net';
import { REQUEST_ERRORS } from '../errors/error-codes.js';

/**
 * Requests Node's HTTP parser rejects before any route sees them (headers over the size limit,
 * malformed request lines) still get a JSON body in the catalogue's form.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const code = tooLarge ? 'REQUEST_HEADER_TOO_LARGE' : 'INVALID_REQUEST';
  const status = tooLarge ? 431 : 400;
  const message = tooLarge ? REQUEST_ERRORS.REQUEST_HEADER_TOO_LARGE.message : 'The HTTP request is malformed.';
  const body = JSON.stringify({ Errors: [{ Code: code, Message: message }] });
  socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n`
    + `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
