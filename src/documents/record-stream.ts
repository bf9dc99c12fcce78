import type { Readable } from 'node:stream';
import { DocumentError } from './document-error.js';
import type { RawRecord } from './document-reader.js';
import { JSON_WHITE_SPACE as WHITE_SPACE, JsonRecords, RECORD_BYTES_LIMIT, tooLarge } from './json-records.js';

/** NDJSON lines up to this long are read with JSON.parse, faster; longer ones as a stream, bounded. */
const SHORT_LINE_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** The input's chunks as bytes, pulled one at a time; chunks read ahead are put back in front. */
class Chunks {
  private readonly source: AsyncIterator<Buffer | string>;
  private readonly back: Buffer[] = [];

  constructor(input: Readable) {
    this.source = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  }

  async next(): Promise<Buffer | null> {
    if (this.back.length > 0) return this.back.shift()!;
    const { done, value } = await this.source.next();
    if (done) return null;
    return typeof value === 'string' ? Buffer.from(value) : value;
  }

  putBack(chunks: Buffer[]): void {
    this.back.unshift(...chunks);
  }

  async close(): Promise<void> {
    await this.source.return?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for (let chunk = await this.next(); chunk !== null; chunk = await this.next()) yield chunk;
  }
}

/**
 * The records of an input one at a time, read as they arrive and never the whole input into
 * memory, whatever its size and form (docs/cli.md, "Import files"):
 * - a JSON array: each element is a record (`record 3`), parsed as a stream (json-records.ts);
 * - NDJSON, one JSON object per line (blank lines allowed): each line is a record (`line 7`);
 * - one JSON document, pretty-printed or not: it is the one record (`record 1`), parsed as a stream.
 * The form is told by the first non-blank character and, for anything but `[`, by whether the first
 * non-blank line is a JSON value on its own. One record is held at a time, up to RECORD_BYTES_LIMIT.
 */
export async function* streamRecords(input: Readable): AsyncGenerator<RawRecord> {
  const chunks = new Chunks(input);
  try {
    yield* recordsOf(chunks);
  } finally {
    // Stopped early (a bad record): the input is closed now, not when it is collected.
    await chunks.close();
  }
}

async function* recordsOf(chunks: Chunks): AsyncGenerator<RawRecord> {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let firstByte = -1;
  /** The offset, in the bytes held, of the first one that is not white space. */
  let first = -1;
  while (first === -1) {
    let chunk = await chunks.next();
    if (!chunk) return;
    if (heldBytes === 0 && chunk.subarray(0, 3).equals(BYTE_ORDER_MARK)) chunk = chunk.subarray(3);
    held.push(chunk);
    const at = chunk.findIndex((byte) => !WHITE_SPACE.has(byte));
    if (at !== -1) {
      first = heldBytes + at;
      firstByte = chunk[at]!;
    }
    heldBytes += chunk.length;
  }
  const startsArray = firstByte === 0x5b; // [
  if (!startsArray) {
    // The first non-blank line, whole, tells NDJSON from one document.
    let lineEnd = -1;
    for (let index = 0, offset = 0; index < held.length && lineEnd === -1; offset += held[index]!.length, index += 1) {
      const at = held[index]!.indexOf(NEWLINE, Math.max(0, first - offset));
      if (at !== -1) lineEnd = offset + at;
    }
    while (lineEnd === -1 && heldBytes - first <= RECORD_BYTES_LIMIT) {
      const chunk = await chunks.next();
      if (!chunk) break;
      const at = chunk.indexOf(NEWLINE);
      if (at !== -1) lineEnd = heldBytes + at;
      held.push(chunk);
      heldBytes += chunk.length;
    }
    const end = lineEnd === -1 ? heldBytes : lineEnd;
    if (end - first <= RECORD_BYTES_LIMIT) {
      const value = parsedAlone(Buffer.concat(held).toString('utf8', first, end));
      if (value !== NOT_JSON) {
        chunks.putBack(held);
        yield* lineRecords(chunks, typeof value === 'object' && value !== null && !Array.isArray(value));
        return;
      }
    }
  }
  chunks.putBack(held);
  const parser = new JsonRecords(startsArray ? 'elements' : 'whole', (n) => `record ${n}`);
  for await (const chunk of chunks) {
    parser.write(chunk);
    yield* parser.take();
  }
  parser.end();
  yield* parser.take();
}

const NOT_JSON = Symbol('not JSON');

function parsedAlone(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** The input's lines, numbered from 1, without their line break; a line longer than RECORD_BYTES_LIMIT is an error. */
async function* linesOf(chunks: Chunks): AsyncGenerator<{ number: number; bytes: Buffer }> {
  let parts: Buffer[] = [];
  let partBytes = 0;
  let number = 0;
  const line = (last: Buffer) => {
    parts.push(last);
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    parts = [];
    partBytes = 0;
    number += 1;
    return { number, bytes: bytes.at(-1) === 0x0d ? bytes.subarray(0, -1) : bytes };
  };
  for await (const chunk of chunks) {
    let from = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
      yield line(chunk.subarray(from, at));
      from = at + 1;
    }
    if (from < chunk.length) {
      parts.push(chunk.subarray(from));
      partBytes += chunk.length - from;
      if (partBytes > RECORD_BYTES_LIMIT) throw tooLarge(`line ${number + 1}`);
    }
  }
  if (partBytes > 0) yield line(Buffer.alloc(0));
}

/** A line's JSON value: JSON.parse for a short line, as a stream (bounded) for a long one. */
function lineValue(bytes: Buffer, number: number): unknown {
  if (bytes.length <= SHORT_LINE_BYTES) {
    try {
      return JSON.parse(bytes.toString('utf8')) as unknown;
    } catch (error) {
      throw new DocumentError(`line ${number}`, '', `is not valid JSON: ${(error as Error).message}`);
    }
  }
  const parser = new JsonRecords('whole', () => `line ${number}`, number);
  parser.write(bytes);
  parser.end();
  const [record] = [...parser.take()];
  return record!.value;
}

/**
 * NDJSON: every non-blank line is a record, named by its line. A file whose first line is a JSON
 * value but not an object is read the same way, except that such a value alone in its file is the
 * file's one record (`record 1`), as a document of one value is.
 */
async function* lineRecords(chunks: Chunks, firstIsObject: boolean): AsyncGenerator<RawRecord> {
  let first: RawRecord | null = null;
  let seen = 0;
  for await (const { number, bytes } of linesOf(chunks)) {
    const blank =
      bytes.length <= SHORT_LINE_BYTES ? bytes.toString('utf8').trim() === '' : bytes.every((b) => WHITE_SPACE.has(b));
    if (blank) continue;
    const record = { label: `line ${number}`, value: lineValue(bytes, number) };
    seen += 1;
    if (firstIsObject || seen > 2) yield record;
    else if (seen === 1) first = record;
    else yield* [first!, record];
  }
  if (!firstIsObject && seen === 1) yield { ...first!, label: 'record 1' };
}
