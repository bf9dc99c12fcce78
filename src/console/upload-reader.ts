import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { checkFirstField, CsrfRefusal, csrfPending } from './csrf-check.js';
import { makeUploadFolder } from './upload-folders.js';

/** An uploaded orders or changes file may be far larger than an API request. */
export const UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;

/** What the upload form may send besides its file: a token, a kind, a checkbox, and little else. */
export const UPLOAD_LIMITS = {
  fieldNameSize: 100,
  fieldSize: 1024,
  fields: 8,
  files: 1,
  parts: 10,
  headerPairs: 20,
  fileSize: UPLOAD_LIMIT_BYTES,
};

/** A field value of the upload form longer than UPLOAD_LIMITS allows: refused, not read cut at the limit. */
class FieldTooLarge extends Error {
  readonly statusCode = 413;
  constructor() {
    super('an upload form field is over its size limit');
  }
}

/**
 * A body that is not the multipart form it says it is (no boundary, cut short, a part without its
 * headers): the client's mistake, answered 400. The multipart reader raises such errors without a
 * status; a file system error writing the upload (a full disk) is a system error, and stays a 500.
 */
class UnreadableUpload extends Error {
  readonly statusCode = 400;
  constructor(cause: Error) {
    super(`the upload is not a multipart form that can be read: ${cause.message}`, { cause });
  }
}

function unreadable(error: unknown): boolean {
  return error instanceof Error && !('statusCode' in error) && !('syscall' in error);
}

export interface Upload {
  fields: Map<string, string>;
  /** The file as received, on disk; null when the form sent none or an empty one. */
  file: { path: string; name: string; bytes: number } | null;
  /** Removes what was written for the upload (the import removes its file itself once done). */
  discard(): Promise<void>;
}

/**
 * Reads the upload form part by part as it arrives (@fastify/multipart): the first part must be the
 * CSRF token unless the header carried it, and nothing after it is read otherwise; the file (field
 * `file`) goes to a temporary file as it streams in, never whole into memory. The file is removed
 * when its import ends, however it ends, or by the next process to start if this one dies first
 * (upload-folders.ts).
 */
export async function receiveUpload(request: FastifyRequest): Promise<Upload> {
  const dir = await makeUploadFolder();
  const discard = () => fs.promises.rm(dir, { recursive: true, force: true });
  const fields = new Map<string, string>();
  let file: Upload['file'] = null;
  try {
    let first = true;
    for await (const part of request.parts()) {
      if (first && csrfPending(request)) {
        const value = part.type === 'field' && typeof part.value === 'string' ? part.value : '';
        if (!checkFirstField(request, part.fieldname, value)) throw new CsrfRefusal();
      }
      first = false;
      if (part.type === 'field') {
        // The multipart reader cuts a long value at its limit and says so only in this flag.
        if (part.valueTruncated) throw new FieldTooLarge();
        fields.set(part.fieldname, String(part.value));
      } else if (part.fieldname === 'file' && file === null) {
        const target = path.join(dir, 'upload');
        await pipeline(part.file, fs.createWriteStream(target));
        const bytes = (await fs.promises.stat(target)).size;
        file = bytes > 0 ? { path: target, name: part.filename, bytes } : null;
      } else {
        part.file.resume();
      }
    }
    if (csrfPending(request)) throw new CsrfRefusal();
  } catch (error) {
    await discard();
    throw unreadable(error) ? new UnreadableUpload(error as Error) : error;
  }
  return { fields, file, discard };
}
