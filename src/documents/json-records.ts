import { Tokenizer, TokenizerError, TokenParser, TokenType } from '@streamparser/json';
import type { ParsedTokenInfo } from '@streamparser/json';
import { DocumentError } from './document-error.js';
import type { RawRecord } from './document-reader.js';
import { TextPosition, type TextPoint } from './text-position.js';

/**
 * The most one record (an element of a JSON array, the one document of a file, a line of NDJSON)
 * may take: it is the one thing an import holds whole. No order document comes near (20 bookings of
 * 9 passengers with 16 coupons each, pretty-printed, are about 4 MB); a file of any size is fine.
 */
export const RECORD_BYTES_LIMIT = 16 * 1024 * 1024;
/**
 * The most values (keys included) one record may hold. Bytes alone do not bound memory: 16 MiB of
 * `[{},{},…]` would be 5.6 million objects, some 350 MB. The largest order document holds about
 * 120,000; 500,000 empty objects take about 30 MB.
 */
export const RECORD_VALUES_LIMIT = 500_000;

const MiB = 1024 * 1024;

/** The bytes JSON counts as white space: space, tab, line feed, carriage return. */
export const JSON_WHITE_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** The first byte of a UTF-8 byte order mark (EF BB BF). */
const BYTE_ORDER_MARK_START = 0xef;

/** Tokens that make a value or a key: what RECORD_VALUES_LIMIT counts. */
const VALUE_TOKENS = new Set<TokenType>([
  TokenType.LEFT_BRACE,
  TokenType.LEFT_BRACKET,
  TokenType.STRING,
  TokenType.NUMBER,
  TokenType.TRUE,
  TokenType.FALSE,
  TokenType.NULL,
]);

/** Thrown from the token callback: the input breaks at this byte. */
class BreaksAt {
  constructor(readonly offset: number) {}
}

export function tooLarge(label: string): DocumentError {
  return new DocumentError(
    label,
    '',
    `is larger than ${RECORD_BYTES_LIMIT / MiB} MiB, the most one record may take; split it, or check that the file is what you meant to import`,
  );
}

function tooManyValues(label: string): DocumentError {
  return new DocumentError(
    label,
    '',
    `holds more than ${RECORD_VALUES_LIMIT.toLocaleString('en')} values, the most one record may hold; check that the file is what you meant to import`,
  );
}

/**
 * JSON text parsed as it arrives, chunk by chunk (@streamparser/json), each record handed on as
 * soon as it is complete: the elements of a top-level array (`elements`), or the one top-level value
 * (`whole`). Only the record being read is held, never the document, and a record is bounded by
 * RECORD_BYTES_LIMIT and RECORD_VALUES_LIMIT. A syntax error names the line and column where the
 * text breaks, as `line 4: is not valid JSON: unexpected "]" at column 1`.
 *
 * Records complete in a chunk are kept in `take()` order before the chunk's error: the caller checks
 * them first, so the error reported is always the first one in the file, whatever the chunk sizes.
 */
export class JsonRecords {
  private readonly tokenizer = new Tokenizer();
  private readonly parser: TokenParser;
  private readonly position = new TextPosition();
  private readonly ready: RawRecord[] = [];
  private failure: Error | null = null;
  private count = 0;
  private values = 0;
  /** Where the record being read began: just after the one before (or the input's start). */
  private recordFrom = 0;
  private lastTokenEnd = 0;
  /** Whether a byte that is not white space has been written. */
  private started = false;

  /**
   * @param label how the n-th record (from 1) is named in errors
   * @param firstLine the input's first line number (a line of NDJSON is its file's line N)
   */
  constructor(
    shape: 'elements' | 'whole',
    private readonly label: (n: number) => string,
    private readonly firstLine = 1,
  ) {
    this.parser = new TokenParser({ paths: [shape === 'elements' ? '$.*' : '$'], keepStack: false });
    this.parser.onValue = ({ value }) => {
      this.count += 1;
      this.ready.push({ label: this.label(this.count), value });
      this.values = 0;
      this.recordFrom = this.lastTokenEnd;
    };
    this.tokenizer.onToken = (info: ParsedTokenInfo) => this.token(info);
  }

  private token(info: ParsedTokenInfo): void {
    // After the top-level value only white space may follow.
    if (this.parser.isEnded) throw new BreaksAt(info.offset);
    if (VALUE_TOKENS.has(info.token) && ++this.values > RECORD_VALUES_LIMIT) throw tooManyValues(this.inProgress());
    this.lastTokenEnd = info.offset + 1;
    try {
      this.parser.write(info);
    } catch (error) {
      if (error instanceof DocumentError) throw error;
      throw new BreaksAt(info.offset);
    }
  }

  private inProgress(): string {
    return this.label(this.count + 1);
  }

  private syntaxError(at: TextPoint): DocumentError {
    return new DocumentError(
      `line ${at.line + this.firstLine - 1}`,
      '',
      `is not valid JSON: unexpected ${at.found} at column ${at.column}`,
    );
  }

  private failed(error: unknown): Error {
    if (error instanceof DocumentError) return error;
    if (error instanceof BreaksAt) return this.syntaxError(this.position.at(error.offset));
    if (error instanceof TokenizerError) {
      const offset = /absolute position "(\d+)"/.exec(error.message)?.[1];
      return this.syntaxError(offset === undefined ? this.position.end() : this.position.at(Number(offset)));
    }
    return error as Error;
  }

  /** Parses the next chunk of the input. */
  write(chunk: Buffer): void {
    if (this.failure) return;
    this.position.feed(chunk);
    try {
      if (!this.started) this.checkStart(chunk);
      this.tokenizer.write(chunk);
      this.position.release(this.lastTokenEnd);
      if (this.position.bytesRead - this.recordFrom > RECORD_BYTES_LIMIT) throw tooLarge(this.inProgress());
    } catch (error) {
      this.failure = this.failed(error);
    }
  }

  /**
   * The tokenizer takes EF BB BF before the first value for a byte order mark, after white space too,
   * and leaves those bytes out of the offsets it gives: every error after them would name the wrong
   * column. A byte order mark stands only at the start of a file, which streamRecords skips; anywhere
   * else it is a character JSON does not allow, refused here where it is.
   */
  private checkStart(chunk: Buffer): void {
    const at = chunk.findIndex((byte) => !JSON_WHITE_SPACE.has(byte));
    if (at === -1) return;
    this.started = true;
    if (chunk[at] === BYTE_ORDER_MARK_START) throw new BreaksAt(this.position.bytesRead - chunk.length + at);
  }

  /** The input has ended: what was left open is an error at its end. */
  end(): void {
    if (this.failure) return;
    try {
      if (!this.tokenizer.isEnded) this.tokenizer.end();
    } catch (error) {
      this.failure = error instanceof TokenizerError ? this.syntaxError(this.position.end()) : this.failed(error);
      return;
    }
    if (!this.parser.isEnded) this.failure = this.syntaxError(this.position.end());
  }

  /** The records completed so far, in order, each once; then the error that ended the input, if any. */
  *take(): Generator<RawRecord> {
    yield* this.ready.splice(0);
    if (this.failure) throw this.failure;
  }

  /** How many records were completed. */
  get records(): number {
    return this.count;
  }
}
