import { quotedCharacter } from './text-position.js';

/**
 * Where JSON text first breaks, as a line and column, so that an import error can name the line.
 * JSON.parse does not reliably say where (Node 20 reports "Unexpected token" with no position), so
 * this small scanner walks the text by the JSON grammar; it runs only after JSON.parse has failed.
 */
export interface JsonSyntaxError {
  line: number;
  column: number;
  /** What was found there: a quoted character, or "the end of the input". */
  found: string;
}

class SyntaxPosition {
  constructor(readonly offset: number) {}
}

const LITERAL = /true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

export function locateJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxPosition(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1;
  };
  const expect = (char: string) => {
    if (text[i] !== char) fail();
    i += 1;
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length || text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '"') {
        i += 1;
        return;
      }
      if (text[i] === '\\') {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) fail();
        i = ESCAPE.lastIndex;
      } else {
        i += 1;
      }
    }
  };
  const value = (): void => {
    space();
    if (text[i] === '"') return string();
    if (text[i] === '{' || text[i] === '[') {
      const close = text[i] === '{' ? '}' : ']';
      i += 1;
      space();
      if (text[i] === close) {
        i += 1;
        return;
      }
      for (;;) {
        if (close === '}') {
          space();
          string();
          space();
          expect(':');
        }
        value();
        space();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        expect(close);
        return;
      }
    }
    LITERAL.lastIndex = i;
    if (!LITERAL.test(text)) fail();
    i = LITERAL.lastIndex;
  };

  try {
    value();
    space();
    if (i < text.length) fail();
    return null;
  } catch (error) {
    if (!(error instanceof SyntaxPosition)) return null; // e.g. nesting too deep to scan: no position
    const before = text.slice(0, error.offset).split('\n');
    return {
      line: before.length,
      column: before.at(-1)!.length + 1,
      found: error.offset < text.length ? quotedCharacter(text[error.offset]!) : 'the end of the input',
    };
  }
}
