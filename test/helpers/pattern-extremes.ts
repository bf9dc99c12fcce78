/**
 * The shortest and the longest strings a regular expression of the simple kind JSON Schema patterns
 * use matches: literals, escapes, character classes, groups, alternatives and quantifiers. A length
 * bound written in a pattern (`{1,64}`) is a bound like maxLength, and the fuzzer sends both ends.
 * Anything else (look-arounds, back-references) gives null: the fuzzer then relies on random strings
 * that match the pattern.
 */

type Node =
  | { kind: 'chars'; first: string; last: string }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

class Unsupported extends Error {}

/** Beyond an open quantifier (`*`, `+`, `{2,}`) the longest string repeats this many times more. */
const OPEN_REPEAT = 8;

export function patternExtremes(pattern: string): { shortest: string; longest: string } | null {
  try {
    const parser = new PatternParser(pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, ''));
    const alternatives = parser.alternatives();
    if (!parser.done()) throw new Unsupported('trailing text');
    const group: Node = { kind: 'group', alternatives };
    return { shortest: render(group, 'shortest'), longest: render(group, 'longest') };
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

function render(node: Node, end: 'shortest' | 'longest'): string {
  switch (node.kind) {
    case 'chars':
      return end === 'shortest' ? node.first : node.last;
    case 'repeat':
      return render(node.node, end).repeat(end === 'shortest' ? node.min : node.max);
    case 'group': {
      const texts = node.alternatives.map((sequence) => sequence.map((item) => render(item, end)).join(''));
      return texts.reduce((best, text) =>
        (end === 'shortest' ? text.length < best.length : text.length > best.length) ? text : best,
      );
    }
  }
}

const CLASS_ESCAPES: Record<string, [string, string]> = { d: ['0', '9'], w: ['a', '_'], s: [' ', ' '] };

class PatternParser {
  private at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at >= this.text.length;
  }

  alternatives(): Node[][] {
    const alternatives: Node[][] = [this.sequence()];
    while (this.text[this.at] === '|') {
      this.at++;
      alternatives.push(this.sequence());
    }
    return alternatives;
  }

  private sequence(): Node[] {
    const items: Node[] = [];
    while (!this.done() && this.text[this.at] !== '|' && this.text[this.at] !== ')')
      items.push(this.quantified(this.atom()));
    return items;
  }

  private atom(): Node {
    const char = this.text[this.at++]!;
    if (char === '(') {
      if (this.text[this.at] === '?') {
        if (this.text[this.at + 1] !== ':') throw new Unsupported('look-around');
        this.at += 2;
      }
      const alternatives = this.alternatives();
      if (this.text[this.at++] !== ')') throw new Unsupported('unclosed group');
      return { kind: 'group', alternatives };
    }
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape(false);
    if (char === '.') return { kind: 'chars', first: 'a', last: 'z' };
    if ('^$*+?{}'.includes(char)) throw new Unsupported(`"${char}" where a character was expected`);
    return { kind: 'chars', first: char, last: char };
  }

  private escape(inClass: boolean): Node & { kind: 'chars' } {
    const char = this.text[this.at++];
    if (char === undefined) throw new Unsupported('trailing backslash');
    if (char === 'x' || char === 'u') {
      const length = char === 'x' ? 2 : 4;
      const hex = this.text.slice(this.at, this.at + length);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) throw new Unsupported('escape');
      this.at += length;
      const code = String.fromCharCode(parseInt(hex, 16));
      return { kind: 'chars', first: code, last: code };
    }
    const klass = CLASS_ESCAPES[char];
    if (klass) return { kind: 'chars', first: klass[0], last: klass[1] };
    if (/[A-Za-z0-9]/.test(char) && !(inClass && char === 'b')) throw new Unsupported(`\\${char}`);
    return { kind: 'chars', first: char, last: char };
  }

  /** A class's first and last members as written: `[A-Za-z0-9_./-]` gives "A" and "-". */
  private characterClass(): Node {
    if (this.text[this.at] === '^') throw new Unsupported('negated class');
    const members: string[] = [];
    while (this.text[this.at] !== ']') {
      if (this.done()) throw new Unsupported('unclosed class');
      const char = this.text[this.at++]!;
      const member = char === '\\' ? this.escape(true) : { first: char, last: char };
      if (this.text[this.at] === '-' && this.text[this.at + 1] !== ']' && this.at + 1 < this.text.length) {
        this.at++;
        const endChar = this.text[this.at++]!;
        const end = endChar === '\\' ? this.escape(true) : { first: endChar, last: endChar };
        members.push(member.first, end.last);
      } else {
        members.push(member.first, member.last);
      }
    }
    this.at++;
    return { kind: 'chars', first: members[0]!, last: members.at(-1)! };
  }

  private quantified(node: Node): Node {
    const char = this.text[this.at];
    if (char === '?') return this.repeat(node, 0, 1, 1);
    if (char === '*') return this.repeat(node, 0, OPEN_REPEAT, 1);
    if (char === '+') return this.repeat(node, 1, 1 + OPEN_REPEAT, 1);
    if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.at));
      if (!match) throw new Unsupported('quantifier');
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? min + OPEN_REPEAT : Number(match[3]);
      return this.repeat(node, min, max, match[0].length);
    }
    return node;
  }

  private repeat(node: Node, min: number, max: number, length: number): Node {
    this.at += length;
    if (this.text[this.at] === '?') this.at++;
    return { kind: 'repeat', node, min, max };
  }
}
