/**
 * Runs the examples of a Markdown document as written (docs/testing.md, "The docs' examples"):
 * every fenced block is a command block (`sh`), the answer printed below a command block (`json` or
 * `text` right after it), a file (any other block whose paragraph above ends with a colon and names
 * it in its last code span: "…in `orders.ndjson`:"), or an illustration marked visibly above it
 * (`*Not run by the tests: why.*`). The command blocks
 * run in order in one bash session, in a fresh directory, and each answer is compared with what its
 * block printed, ids, tokens and times aside.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../scripts/process-alive.js';
import { mutationHookOptions } from './mutation-hook.js';
import { scaled } from './time-scale.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type BlockRole = 'command' | 'answer' | 'file' | 'not-run' | 'unclassified';

export interface Block {
  /** 1-based among the document's fenced blocks. */
  index: number;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  role: BlockRole;
  /** For a file: its name, relative to the directory the commands run in. */
  fileName?: string;
  /** For a command: the answer printed below it. */
  answer?: Block;
  /** For an illustration: the reason the marker gives. */
  reason?: string;
}

const FENCE = /^( *)(`{3,}|~{3,})\s*([\w-]*)[^\n]*$/;
const NOT_RUN = /^\*Not run by the tests: (.+)\*$/;
const FILE_NAME = /^`([\w-]+(?:\/[\w.-]+)*\.\w+)`$/;
const COMMAND_LANGS = new Set(['sh']);
const ANSWER_LANGS = new Set(['json', 'text']);

/** The fenced blocks of a Markdown text, in order, each with its role. */
export function readBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  /** The paragraph above the block, on one line. */
  let previousText = '';
  let paragraphEnded = true;
  let previousBlockEnd = -2;
  for (let i = 0; i < lines.length; i += 1) {
    const open = FENCE.exec(lines[i]!);
    if (!open) {
      const line = lines[i]!.trim();
      if (line === '') paragraphEnded = true;
      else {
        previousText = paragraphEnded ? line : `${previousText} ${line}`;
        paragraphEnded = false;
      }
      continue;
    }
    const indent = open[1]!.length;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.trim().startsWith(fence) && lines[j]!.trim().replace(/[`~]/g, '') === '')) {
      body.push(lines[j]!.slice(Math.min(indent, lines[j]!.length - lines[j]!.trimStart().length)));
      j += 1;
    }
    const block: Block = {
      index: blocks.length + 1,
      line: i + 1,
      lang: open[3]!.toLowerCase(),
      text: body.join('\n'),
      role: 'unclassified',
    };
    const directlyAfterBlock =
      blocks.length > 0 && lines.slice(previousBlockEnd + 1, i).every((line) => line.trim() === '');
    const notRun = NOT_RUN.exec(previousText);
    const fileName = previousText.endsWith(':')
      ? FILE_NAME.exec([...previousText.matchAll(/`[^`]+`/g)].at(-1)?.[0] ?? '')
      : null;
    const previous = blocks.at(-1);
    if (directlyAfterBlock && previous?.role === 'command' && !previous.answer && ANSWER_LANGS.has(block.lang)) {
      block.role = 'answer';
      previous.answer = block;
    } else if (!directlyAfterBlock && notRun) {
      block.role = 'not-run';
      block.reason = notRun[1];
    } else if (!directlyAfterBlock && fileName && !COMMAND_LANGS.has(block.lang)) {
      block.role = 'file';
      block.fileName = fileName[1];
    } else if (COMMAND_LANGS.has(block.lang)) {
      block.role = 'command';
    }
    blocks.push(block);
    previousText = '';
    paragraphEnded = true;
    previousBlockEnd = j;
    i = j;
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Comparing an answer with what was printed

const MASKS: [RegExp, string][] = [
  [/\baot_[A-Za-z0-9_-]{20,}/g, 'aot_<token>'],
  [/\bwhsec_[A-Za-z0-9+/=]{20,}/g, 'whsec_<secret>'],
  [/\b(tok|evt|we|rfq|op)_[0-9a-f]{8,}\b/g, '$1_<id>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>'],
  [/\b(127\.0\.0\.1|localhost):\d{2,5}\b/g, '$1:<port>'],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g, '<time>'],
];

/** Ids, tokens, secrets and times replaced by their kind: what differs from one run to the next. */
export function mask(text: string): string {
  return MASKS.reduce((masked, [pattern, replacement]) => masked.replace(pattern, replacement), text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a printed string matches the answer's, where `…` in the answer stands for anything. */
function stringMatches(expected: string, actual: string): boolean {
  const wanted = mask(expected);
  const got = mask(actual);
  if (!wanted.includes('…')) return wanted === got;
  return new RegExp(`^${wanted.split('…').map(escapeRegExp).join('[\\s\\S]*')}$`).test(got);
}

/**
 * An answer's JSON, where a bare `…` is allowed: as a member (`{…,"A":1}`) it lets the printed
 * object have members besides those shown; as a value or an array element, anything (an element
 * `…` of an array stands for any number of elements).
 */
const ANY = Symbol('any');
const OTHERS = '\uE000others';

function quoteEllipses(text: string): string {
  let out = '';
  let inString = false;
  const stack: string[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') {
        out += text[i + 1] ?? '';
        i += 1;
      } else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      expectKey = false;
    } else if (c === '{') {
      stack.push('{');
      expectKey = true;
      out += c;
    } else if (c === '[') {
      stack.push('[');
      out += c;
    } else if (c === '}' || c === ']') {
      stack.pop();
      out += c;
    } else if (c === ',') {
      expectKey = stack.at(-1) === '{';
      out += c;
    } else if (c === '…') {
      out += expectKey ? `"${OTHERS}":0` : '"\uE000any"';
      expectKey = false;
    } else {
      out += c;
    }
  }
  return out;
}

/** Splits a text into its JSON values, one after the other (pretty or not, with or without newlines). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (i >= text.length) break;
    let end = i;
    if (text[i] === '{' || text[i] === '[') {
      let depth = 0;
      let inString = false;
      for (; end < text.length; end += 1) {
        const c = text[end]!;
        if (inString) {
          if (c === '\\') end += 1;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth += 1;
        else if (c === '}' || c === ']') {
          depth -= 1;
          if (depth === 0) break;
        }
      }
      end += 1;
    } else {
      while (end < text.length && !/\s/.test(text[end]!)) end += 1;
    }
    values.push(JSON.parse(text.slice(i, end)));
    i = end;
  }
  return values;
}

function expectedValue(value: unknown): unknown {
  if (value === '\uE000any') return ANY;
  if (Array.isArray(value)) return value.map(expectedValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, expectedValue(member)]));
  }
  return value;
}

/** The first difference between an answer's value and a printed one, as a sentence, or null. */
export function jsonDifference(expected: unknown, actual: unknown, at = '$'): string | null {
  if (expected === ANY) return null;
  if (typeof expected === 'string') {
    return typeof actual === 'string' && stringMatches(expected, actual)
      ? null
      : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${JSON.stringify(actual)}`;
    const rest = expected.indexOf(ANY);
    const head = rest === -1 ? expected : expected.slice(0, rest);
    if (rest === -1 ? actual.length !== expected.length : actual.length < head.length) {
      return `${at}: expected ${expected.length} elements, got ${actual.length}: ${JSON.stringify(actual)}`;
    }
    for (let k = 0; k < head.length; k += 1) {
      const difference = jsonDifference(head[k], actual[k], `${at}[${k}]`);
      if (difference) return difference;
    }
    return null;
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual))
      return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    const wanted = expected as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    const others = OTHERS in wanted;
    for (const key of Object.keys(wanted)) {
      if (key === OTHERS) continue;
      if (!(key in got)) return `${at}.${key}: missing`;
      const difference = jsonDifference(wanted[key], got[key], `${at}.${key}`);
      if (difference) return difference;
    }
    if (!others) {
      const extra = Object.keys(got).filter((key) => !(key in wanted));
      if (extra.length > 0) return `${at}: not in the answer: ${extra.join(', ')}`;
    }
    return null;
  }
  return Object.is(expected, actual)
    ? null
    : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** The first difference between a `text` answer and the printed lines; a line `…` stands for any lines. */
function textDifference(expected: string, actual: string): string | null {
  const lines = (text: string) =>
    text
      .replace(/^\s*\n/, '')
      .replace(/\n\s*$/, '')
      .split('\n')
      .map((line) => line.trimEnd());
  const wanted = lines(expected);
  const got = lines(actual);
  const match = (w: number, g: number): boolean => {
    if (w === wanted.length) return g === got.length;
    if (wanted[w] === '…') return match(w + 1, g) || (g < got.length && match(w, g + 1));
    return g < got.length && stringMatches(wanted[w]!, got[g]!) && match(w + 1, g + 1);
  };
  if (match(0, 0)) return null;
  for (let k = 0; k < wanted.length; k += 1) {
    if (wanted[k] === '…') break;
    if (k >= got.length || !stringMatches(wanted[k]!, got[k]!))
      return `line ${k + 1}: expected ${JSON.stringify(wanted[k])}, got ${JSON.stringify(got[k] ?? '(nothing)')}`;
  }
  return `expected ${wanted.length} lines, got ${got.length}`;
}

/** Why the printed output does not match the answer, or null when it does. */
export function answerDifference(answer: Block, printed: string): string | null {
  if (answer.lang === 'json') {
    let expected: unknown[];
    try {
      expected = jsonValues(quoteEllipses(answer.text)).map(expectedValue);
    } catch (error) {
      return `the answer is not JSON: ${(error as Error).message}`;
    }
    let actual: unknown[];
    try {
      actual = jsonValues(printed);
    } catch (error) {
      return `printed no JSON (${(error as Error).message}): ${printed.slice(0, 500)}`;
    }
    if (actual.length !== expected.length)
      return `expected ${expected.length} JSON values, printed ${actual.length}: ${printed.slice(0, 500)}`;
    for (let k = 0; k < expected.length; k += 1) {
      const difference = jsonDifference(expected[k], actual[k], expected.length > 1 ? `value ${k + 1}` : '$');
      if (difference) return difference;
    }
    return null;
  }
  return textDifference(answer.text, printed);
}

// ---------------------------------------------------------------------------------------------
// Running a document

export interface RunOptions {
  /** Variables for the session besides PATH (PORT, PGHOST…). */
  env?: Record<string, string>;
  /** Longest a block may run. */
  blockTimeoutMs?: number;
}

export interface DocumentRun {
  blocks: Block[];
  /** One line per problem, naming the block and its line. */
  problems: string[];
  /** The blocks that ran, with what they printed. */
  ran: { block: Block; printed: string }[];
}

function where(document: string, block: Block): string {
  return `${document}, block ${block.index} (line ${block.line})`;
}

/** A directory with `airorder` (the built program) and an `npx` that runs it without asking the registry. */
function shimDirectory(root: string): string {
  const dir = path.join(root, 'bin');
  fs.mkdirSync(dir);
  const bin = path.join(PROJECT_ROOT, 'bin', 'airorder.js');
  fs.writeFileSync(path.join(dir, 'airorder'), `#!/bin/sh\nexec node ${JSON.stringify(bin)} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(
    path.join(dir, 'npx'),
    '#!/bin/sh\nif [ "$1" = airorder ]; then shift; exec airorder "$@"; fi\n' +
      'echo "npx $1: only npx airorder runs in the docs\' examples" >&2\nexit 127\n',
    { mode: 0o755 },
  );
  return dir;
}

/** The processes descended from `root` (its children, theirs, and so on), read from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ended meanwhile
  }
}

/**
 * Stops what a session started (a service in the background, its workers) with SIGTERM, then
 * SIGKILL 15 s later if anything is left, and ends the session. They all stay in the test file's
 * process group, so the test runner's time limit stops them too, should this never run.
 */
async function endSession(session: ChildProcess): Promise<void> {
  const pid = session.pid!;
  const started = descendants(pid);
  for (const child of started) send(child, 'SIGTERM');
  for (let waited = 0; waited < 15000 && started.some(isAlive); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const child of started.filter(isAlive)) send(child, 'SIGKILL');
  if (session.exitCode === null && session.signalCode === null) {
    const exited = new Promise((resolve) => session.once('exit', resolve));
    session.stdin?.end();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (session.exitCode === null && session.signalCode === null) send(pid, 'SIGKILL');
  }
}

/**
 * Runs a document's command blocks in order in one bash session (what it started is stopped with
 * SIGTERM when done, whatever happened), in a fresh directory where its files are written as they
 * come, and compares each answer with what its block printed.
 */
export async function runDocument(document: string, markdown: string, options: RunOptions = {}): Promise<DocumentRun> {
  const blocks = readBlocks(markdown);
  const problems: string[] = [];
  const ran: DocumentRun['ran'] = [];
  for (const block of blocks) {
    if (block.role === 'unclassified') {
      problems.push(
        `${where(document, block)}: a \`${block.lang || 'plain'}\` block that is neither a command, the answer right below one, a file named above it, nor marked "*Not run by the tests: …*"`,
      );
    }
  }
  if (!blocks.some((block) => block.role === 'command' || block.role === 'file')) return { blocks, problems, ran };

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-docs-'));
  const work = path.join(root, 'work');
  const runner = path.join(root, 'runner');
  fs.mkdirSync(work);
  fs.mkdirSync(runner);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(DATABASE_URL|PG[A-Z]+|PORT|HOST|TEST_.*|NODE_TEST_CONTEXT|NODE_OPTIONS)$/.test(key))
      continue;
    env[key] = value;
  }
  Object.assign(env, mutationHookOptions(), options.env);
  // First on PATH whatever the caller gave: `npx airorder` must never reach the registry.
  env.PATH = `${shimDirectory(runner)}:${env.PATH ?? ''}`;
  const session = spawn('bash', ['--noprofile', '--norc'], {
    cwd: work,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let sessionOutput = '';
  let sessionEnded = false;
  const waiters: (() => void)[] = [];
  session.stdout.setEncoding('utf8');
  session.stdout.on('data', (chunk: string) => {
    sessionOutput += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  session.stderr.resume();
  session.on('exit', () => {
    sessionEnded = true;
    for (const wake of waiters.splice(0)) wake();
  });
  const blockTimeoutMs = scaled(options.blockTimeoutMs ?? 60000);
  try {
    for (const block of blocks) {
      if (block.role === 'file') {
        const target = path.join(work, block.fileName!);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, `${block.text}\n`);
        continue;
      }
      if (block.role !== 'command') continue;
      const n = block.index;
      const script = path.join(runner, `block-${n}.sh`);
      const out = path.join(runner, `out-${n}`);
      const failed = path.join(runner, `failed-${n}`);
      fs.writeFileSync(script, `${block.text}\n`);
      const sentinel = `__block_${n}_done__`;
      session.stdin.write(
        `{ set -o pipefail; trap 'printf "%s\\t%s\\n" "$?" "$BASH_COMMAND" >> ${JSON.stringify(failed)}' ERR; ` +
          `source ${JSON.stringify(script)}; } > ${JSON.stringify(out)} 2>&1 < /dev/null\ntrap - ERR; set +o pipefail\necho ${sentinel}\n`,
      );
      const deadline = Date.now() + blockTimeoutMs;
      while (!sessionOutput.includes(sentinel) && !sessionEnded && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 250);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      const printed = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
      ran.push({ block, printed });
      if (!sessionOutput.includes(sentinel)) {
        problems.push(
          `${where(document, block)}: ${sessionEnded ? 'the shell ended during the block' : `did not end within ${blockTimeoutMs} ms`}; it printed: ${printed.slice(-800)}`,
        );
        break;
      }
      const failures = fs.existsSync(failed)
        ? fs
            .readFileSync(failed, 'utf8')
            .split('\n')
            .filter(
              (line) =>
                line !== '' && !line.includes(`source ${JSON.stringify(script)}`) && !line.includes(`source ${script}`),
            )
        : [];
      const expectsError = block.answer?.lang === 'text' && /(^|\n)error: [^\n]*\s*$/.test(block.answer.text);
      if (expectsError && failures.length === 0) {
        problems.push(
          `${where(document, block)}: its answer is an error, but every command succeeded; it printed: ${printed.slice(0, 800)}`,
        );
      } else if (!expectsError && failures.length > 0) {
        problems.push(
          `${where(document, block)}: a command failed (exit status and command: ${failures.join('; ')}); it printed: ${printed.slice(0, 800)}`,
        );
      }
      if (block.answer) {
        const difference = answerDifference(block.answer, printed);
        if (difference)
          problems.push(
            `${where(document, block)}: the answer below it (line ${block.answer.line}) differs: ${difference}`,
          );
      }
    }
  } finally {
    await endSession(session);
    fs.rmSync(root, { recursive: true, force: true });
  }
  return { blocks, problems, ran };
}
