/**
 * Where a byte of a UTF-8 input read chunk by chunk falls, as a line and a column, so that an
 * import error can name the line although the text before it is long gone. Columns count characters
 * as JavaScript does (UTF-16 code units), as `JSON.parse` and an editor's status bar do for most text.
 * The chunks are kept from the start of the token being read on (`release`): a syntax error is
 * found in the chunk being read, or at the start of a token that began before it.
 */
interface Chunk {
  /** Offset of the chunk's first byte in the input. */
  start: number;
  bytes: Buffer;
  /** Line breaks before the chunk. */
  linesBefore: number;
  /** Characters on the chunk's first line that came before the chunk. */
  unitsBefore: number;
}

export interface TextPoint {
  line: number;
  column: number;
  /** The character there, quoted, or "the end of the input". */
  found: string;
}

const NEWLINE = 0x0a;

/**
 * A character quoted for an error message, as JSON writes it; one that shows as nothing (a format
 * character: a byte order mark, a zero-width space) as its \u code, so that the operator sees it.
 */
export function quotedCharacter(character: string): string {
  return JSON.stringify(character).replace(/\p{Cf}/gu, (format) =>
    // Each UTF-16 unit, as JSON escapes a character outside the first plane: a tag character is two.
    format
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

/** Characters (UTF-16 code units) that the UTF-8 bytes `from` to `to` decode to. */
function utf16Units(bytes: Buffer, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i += 1) {
    const byte = bytes[i]!;
    // Continuation bytes add nothing; a four-byte sequence is a surrogate pair.
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

export class TextPosition {
  /** Oldest first; the last is the chunk being read. */
  private readonly kept: Chunk[] = [];
  private total = 0;
  private lines = 0;
  private units = 0;

  /** Takes note of the next chunk of the input, before it is parsed. */
  feed(bytes: Buffer): void {
    this.kept.push({ start: this.total, bytes, linesBefore: this.lines, unitsBefore: this.units });
    let last = -1;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) {
      this.lines += 1;
      last = at;
    }
    this.units =
      last === -1 ? this.units + utf16Units(bytes, 0, bytes.length) : utf16Units(bytes, last + 1, bytes.length);
    this.total += bytes.length;
  }

  /** Bytes fed so far. */
  get bytesRead(): number {
    return this.total;
  }

  /** Nothing before `offset` will be asked for: the chunks wholly before it are let go. */
  release(offset: number): void {
    while (this.kept.length > 1 && this.kept[0]!.start + this.kept[0]!.bytes.length <= offset) this.kept.shift();
  }

  /** The line and column of the byte at `offset` (one before the chunks kept: the first byte kept). */
  at(offset: number): TextPoint {
    const chunk = this.kept.findLast((kept) => offset >= kept.start) ?? this.kept[0];
    if (!chunk || offset >= this.total) return this.end();
    const within = Math.max(0, offset - chunk.start);
    const { bytes } = chunk;
    let line = chunk.linesBefore + 1;
    let lineStart = -1;
    for (let at = bytes.indexOf(NEWLINE); at !== -1 && at < within; at = bytes.indexOf(NEWLINE, at + 1)) {
      line += 1;
      lineStart = at;
    }
    const column =
      (lineStart === -1 ? chunk.unitsBefore + utf16Units(bytes, 0, within) : utf16Units(bytes, lineStart + 1, within)) +
      1;
    const character = String.fromCodePoint(bytes.toString('utf8', within, within + 4).codePointAt(0)!);
    return { line, column, found: quotedCharacter(character) };
  }

  /** Just after the last byte fed. */
  end(): TextPoint {
    return { line: this.lines + 1, column: this.units + 1, found: 'the end of the input' };
  }
}
