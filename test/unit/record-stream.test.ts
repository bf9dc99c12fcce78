import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Readable } from 'node:stream';
import { DocumentError } from '../../src/documents/document-error.js';
import type { RawRecord } from '../../src/documents/document-reader.js';
import { streamRecords } from '../../src/documents/record-stream.js';
import { parseMessage } from '../helpers/refusals.js';

/**
 * The records of an import file read as a stream (docs/cli.md, "Imports"): the form told from the
 * first non-blank character and line, each record named as its errors name it, whatever the chunks.
 * The bounds of a line or record are in record-stream-bounds.test.ts.
 */

interface Streamed {
  records: RawRecord[];
  error: string | null;
}

async function stream(chunks: (string | Buffer)[]): Promise<Streamed> {
  const streamed: Streamed = { records: [], error: null };
  try {
    for await (const record of streamRecords(Readable.from(chunks))) streamed.records.push(record);
  } catch (error) {
    assert.ok(error instanceof DocumentError, String(error));
    streamed.error = error.message;
  }
  return streamed;
}

/** The text cut into chunks of `size` bytes, a character's bytes in two chunks where the cut falls. */
function cut(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

const ok = (...records: [string, unknown][]): Streamed => ({
  records: records.map(([label, value]) => ({ label, value })),
  error: null,
});

test('an empty input, or one of white space only, has no records', async () => {
  assert.deepEqual(await stream([]), ok());
  assert.deepEqual(await stream(['']), ok());
  assert.deepEqual(await stream([' \n', '\t\r\n', '  ']), ok());
});

test('a JSON array: each element a record, "record N", in chunks of any size', async () => {
  const text = ' \n[{"a":1},\n {"b":"é😀"}, 3]\n';
  const expected = ok(['record 1', { a: 1 }], ['record 2', { b: 'é😀' }], ['record 3', 3]);
  assert.deepEqual(await stream([text]), expected);
  assert.deepEqual(await stream(cut(text, 1)), expected);
  assert.deepEqual(await stream(cut(text, 5)), expected);
  assert.deepEqual(await stream(['[]']), ok());
});

test('a broken JSON array is named by the line and column where it breaks, after the records before it', async () => {
  assert.deepEqual(await stream(['[{"a":1},\n', '{"a":2},\n]']), {
    records: [
      { label: 'record 1', value: { a: 1 } },
      { label: 'record 2', value: { a: 2 } },
    ],
    error: 'line 3: is not valid JSON: unexpected "]" at column 1',
  });
  assert.deepEqual(await stream(['[1]\n[2]']), {
    records: [{ label: 'record 1', value: 1 }],
    error: 'line 2: is not valid JSON: unexpected "[" at column 1',
  });
});

test('a pretty-printed document is the one record, "record 1"; broken, it is named where it breaks', async () => {
  assert.deepEqual(await stream(['{\n  "a": 1\n}\n']), ok(['record 1', { a: 1 }]));
  assert.deepEqual(await stream(cut('\n\n{\n  "a": [1,\n 2]\n}', 3)), ok(['record 1', { a: [1, 2] }]));
  assert.deepEqual(await stream(['{\n"a":1,}']), {
    records: [],
    error: 'line 2: is not valid JSON: unexpected "}" at column 7',
  });
  assert.deepEqual(await stream(['\n\n{\n "a":1}\n{"b":2}']), {
    records: [{ label: 'record 1', value: { a: 1 } }],
    error: 'line 5: is not valid JSON: unexpected "{" at column 1',
  });
});

test('NDJSON: each non-blank line a record, "line N" by its line in the file, CRLF or LF, the last line without one too', async () => {
  const text = '\n \t\n{"a":1}\r\n\r\n  \n{"a":2}\n{"a":3}';
  const expected = ok(['line 3', { a: 1 }], ['line 6', { a: 2 }], ['line 7', { a: 3 }]);
  assert.deepEqual(await stream([text]), expected);
  assert.deepEqual(await stream(cut(text, 1)), expected);
  assert.deepEqual(await stream(cut(text, 4)), expected);
  assert.deepEqual(await stream(['{"a":1}']), ok(['line 1', { a: 1 }]));
  assert.deepEqual(await stream(['{"a":1}\n']), ok(['line 1', { a: 1 }]));
});

test('NDJSON: the first line is found whole across chunks, blank chunks and lines before it', async () => {
  assert.deepEqual(await stream(['\n', '\n', ' {"a":1}', '\n{"a":2}']), ok(['line 3', { a: 1 }], ['line 4', { a: 2 }]));
  assert.deepEqual(await stream(['{"a"', ':1}', '\n{"a":2}']), ok(['line 1', { a: 1 }], ['line 2', { a: 2 }]));
  assert.deepEqual(await stream(['\n{"a":1}\n', '{"a":2}']), ok(['line 2', { a: 1 }], ['line 3', { a: 2 }]));
  assert.deepEqual(await stream(['\n', ' {"a":1}\n{"a":2}']), ok(['line 2', { a: 1 }], ['line 3', { a: 2 }]));
  assert.deepEqual(await stream(['{"a"', ':1}\n{"a":2}']), ok(['line 1', { a: 1 }], ['line 2', { a: 2 }]));
  assert.deepEqual(await stream(['\n\n\n\n\n\n', '{}\n{"a":2}\n']), ok(['line 7', {}], ['line 8', { a: 2 }]));
});

test('NDJSON: a line that is no JSON is named by its line, with what JSON.parse says of it, after the lines before it', async () => {
  assert.deepEqual(await stream(['{"a":1}\n\n{"a":}\n{"a":3}']), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error: `line 3: is not valid JSON: ${parseMessage('{"a":}')}`,
  });
});

test('a line of white space of any kind is blank, as a trimmed line is', async () => {
  assert.deepEqual(
    await stream(['{"a":1}\n\f\n\u00a0\u2003\n\v\t\n{"a":2}']),
    ok(['line 1', { a: 1 }], ['line 5', { a: 2 }]),
  );
});

test('a value that is not an object, alone in its file, is "record 1"; with other lines, each is a line', async () => {
  assert.deepEqual(await stream(['5']), ok(['record 1', 5]));
  assert.deepEqual(await stream(['"x"\n\n']), ok(['record 1', 'x']));
  assert.deepEqual(await stream(['\nnull\n']), ok(['record 1', null]));
  assert.deepEqual(await stream(['5\n6']), ok(['line 1', 5], ['line 2', 6]));
  assert.deepEqual(
    await stream(['1\n\n{"a":2}\n3\n4']),
    ok(['line 1', 1], ['line 3', { a: 2 }], ['line 4', 3], ['line 5', 4]),
  );
});

test('a byte order mark at the start is skipped, whatever the form', async () => {
  const mark = Buffer.from([0xef, 0xbb, 0xbf]);
  assert.deepEqual(
    await stream([Buffer.concat([mark, Buffer.from('{"a":1}\n{"a":2}')])]),
    ok(['line 1', { a: 1 }], ['line 2', { a: 2 }]),
  );
  assert.deepEqual(await stream([Buffer.concat([mark, Buffer.from('[1,2]')])]), ok(['record 1', 1], ['record 2', 2]));
  assert.deepEqual(await stream(['', Buffer.concat([mark, Buffer.from('[1]')])]), ok(['record 1', 1]));
  assert.deepEqual(await stream([Buffer.concat([mark, Buffer.from('{\n"a":1}')])]), ok(['record 1', { a: 1 }]));
});

test('a byte order mark after white space is no byte order mark: it is refused where it stands', async () => {
  const mark = Buffer.from([0xef, 0xbb, 0xbf]);
  assert.deepEqual(await stream([Buffer.from('\n'), Buffer.concat([mark, Buffer.from('{"a":1}\n{"a":2}')])]), {
    records: [],
    error: 'line 2: is not valid JSON: unexpected "\\ufeff" at column 1',
  });
  assert.deepEqual(await stream([Buffer.from(' '), Buffer.concat([mark, Buffer.from('[1]')])]), {
    records: [],
    error: 'line 1: is not valid JSON: unexpected "\\ufeff" at column 2',
  });
});

test('a byte order mark anywhere but at the start is no white space', async () => {
  assert.deepEqual(await stream([Buffer.from('{"a":1}\n\uFEFF{"a":2}')]), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error: `line 2: is not valid JSON: ${parseMessage('\uFEFF{"a":2}')}`,
  });
});

test('chunks given as text are read as UTF-8 bytes', async () => {
  assert.deepEqual(await stream(['{"a":"é"}\n', '{"a":"😀"}']), ok(['line 1', { a: 'é' }], ['line 2', { a: '😀' }]));
});

test('a consumer that stops early closes the input', async () => {
  const input = Readable.from(['{"a":1}\n{"a":2}\n', '{"a":3}\n']);
  for await (const record of streamRecords(input)) {
    assert.equal(record.label, 'line 1');
    break;
  }
  assert.equal(input.destroyed, true);
});

test('an input with a bad record is closed once the error is thrown', async () => {
  const input = Readable.from(['{"a":1}\n{"a":}\n', '{"a":3}\n']);
  await assert.rejects(async () => {
    for await (const record of streamRecords(input)) assert.ok(record);
  }, DocumentError);
  assert.equal(input.destroyed, true);
});
