import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Readable } from 'node:stream';
import { DocumentError } from '../../src/documents/document-error.js';
import type { RawRecord } from '../../src/documents/document-reader.js';
import { RECORD_BYTES_LIMIT } from '../../src/documents/json-records.js';
import { streamRecords } from '../../src/documents/record-stream.js';

/**
 * Long lines of an import file read as a stream: a line up to 64 KiB goes through JSON.parse, a
 * longer one through the streaming parser with its bounds, and a line or a first line past 16 MiB.
 * Apart from record-stream.test.ts because some take a second or so.
 */

const SHORT_LINE_BYTES = 64 * 1024;
const TOO_LARGE =
  'is larger than 16 MiB, the most one record may take; split it, or check that the file is what you meant to import';

interface Streamed {
  records: RawRecord[];
  error: string | null;
}

function stream(chunks: (string | Buffer)[]): Promise<Streamed> {
  return streamOf(Readable.from(chunks));
}

async function streamOf(input: Readable): Promise<Streamed> {
  const streamed: Streamed = { records: [], error: null };
  try {
    for await (const record of streamRecords(input)) streamed.records.push(record);
  } catch (error) {
    assert.ok(error instanceof DocumentError, String(error));
    streamed.error = error.message;
  }
  return streamed;
}

function parseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('is JSON');
}

/** A line of exactly `bytes` bytes that breaks at its end: `{"a":"aaa…",}`. */
function brokenLine(bytes: number): string {
  return `{"a":"${'a'.repeat(bytes - 9)}",}`;
}

const labels = (streamed: Streamed) => streamed.records.map((record) => record.label);

test('a line of up to 64 KiB is read with JSON.parse, a longer one with the streaming parser, each named by its line', async () => {
  const short = brokenLine(SHORT_LINE_BYTES);
  assert.equal(Buffer.byteLength(short), SHORT_LINE_BYTES);
  assert.deepEqual(await stream([`{"a":1}\n${short}\n`]), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error: `line 2: is not valid JSON: ${parseMessage(short)}`,
  });
  const long = brokenLine(SHORT_LINE_BYTES + 1);
  assert.deepEqual(await stream([`{"a":1}\n\n${long}\n`]), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error: `line 3: is not valid JSON: unexpected "}" at column ${SHORT_LINE_BYTES + 1}`,
  });
});

test("a long line's carriage return is not part of it: a line of 64 KiB and CR is read with JSON.parse", async () => {
  const short = brokenLine(SHORT_LINE_BYTES);
  assert.deepEqual(await stream([`{"a":1}\r\n${short}\r\n`]), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error: `line 2: is not valid JSON: ${parseMessage(short)}`,
  });
});

test('a long line is read whole, whatever the chunks, and named by its line', async () => {
  const value = { a: 'é'.repeat(SHORT_LINE_BYTES) };
  const text = `{"a":1}\n${JSON.stringify(value)}\r\n{"a":3}`;
  const bytes = Buffer.from(text);
  const chunks = [bytes.subarray(0, 20), bytes.subarray(20, 70_001), bytes.subarray(70_001)];
  assert.deepEqual(await stream(chunks), {
    records: [
      { label: 'line 1', value: { a: 1 } },
      { label: 'line 2', value },
      { label: 'line 3', value: { a: 3 } },
    ],
    error: null,
  });
});

test('a long line of white space only is blank, skipped as a short one is', async () => {
  const spaces = `${' '.repeat(SHORT_LINE_BYTES)}\t \r`;
  assert.deepEqual(labels(await stream([`{"a":1}\n${spaces}\n{"a":2}\n`])), ['line 1', 'line 3']);
  // Up to 64 KiB a line is blank as a trimmed line is, form feeds included.
  const feeds = '\f'.repeat(SHORT_LINE_BYTES);
  assert.deepEqual(labels(await stream([`{"a":1}\n${feeds}\n{"a":2}\n`])), ['line 1', 'line 3']);
});

test('a long line with some white space is no blank line', async () => {
  const line = `{ "a": "${'a'.repeat(SHORT_LINE_BYTES)}" }`;
  const read = await stream([`{"a":1}\n${line}\n`]);
  assert.deepEqual(labels(read), ['line 1', 'line 2']);
  assert.equal((read.records[1]!.value as { a: string }).a.length, SHORT_LINE_BYTES);
});

test('a long line holding more than 500,000 values is refused, named by its line', async () => {
  const line = `[${'0,'.repeat(500_000)}0]`;
  assert.deepEqual(await stream([`{"a":1}\n${line}\n`]), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error:
      'line 2: holds more than 500,000 values, the most one record may hold; check that the file is what you meant to import',
  });
});

test('a line in progress may take 16 MiB; one past it is refused, named by its line, before its end', async () => {
  const a = (length: number) => Buffer.alloc(length, 'a');
  // Line 2 is {"a":"aaa…a"}: 6 bytes, 16 MiB - 8 letters, 2 bytes: 16 MiB.
  const fits = await stream([
    Buffer.from('{"a":1}\n{"a":"'),
    a(RECORD_BYTES_LIMIT - 8),
    Buffer.from('"}'),
    Buffer.from('\n'),
  ]);
  assert.equal(fits.error, null);
  assert.deepEqual(labels(fits), ['line 1', 'line 2']);
  assert.equal((fits.records[1]!.value as { a: string }).a.length, RECORD_BYTES_LIMIT - 8);
  assert.deepEqual(await stream([Buffer.from('{"a":1}\n{"a":"'), a(RECORD_BYTES_LIMIT - 5), Buffer.from('"}\n')]), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error: `line 2: ${TOO_LARGE}`,
  });
});

test('a first line of 16 MiB is tried alone: NDJSON', async () => {
  const a = Buffer.alloc(RECORD_BYTES_LIMIT - 8, 'a');
  const read = await stream([Buffer.from('\n\n{"a":"'), a, Buffer.from('"}'), Buffer.from('\n{"b":1}\n')]);
  assert.equal(read.error, null);
  assert.deepEqual(labels(read), ['line 3', 'line 4']);
});

test('a first line past 16 MiB is not tried alone: the file is read as one document', async () => {
  const a = Buffer.alloc(RECORD_BYTES_LIMIT - 7, 'a');
  const read = await stream([Buffer.from('{"a":"'), a, Buffer.from('"}'), Buffer.from('\n{"b":1}\n')]);
  assert.deepEqual(labels(read), ['record 1']);
  assert.equal(read.error, 'line 2: is not valid JSON: unexpected "{" at column 1');
});

test('a document past 16 MiB is refused as its one record, before its end', async () => {
  const a = Buffer.alloc(RECORD_BYTES_LIMIT, 'a');
  assert.deepEqual(await stream([Buffer.from('{\n"a":"'), a, Buffer.from('"}')]), {
    records: [],
    error: `record 1: ${TOO_LARGE}`,
  });
});

test('a long line that starts with a byte order mark is refused as a short one is', async () => {
  const line = `\uFEFF{"a":"${'a'.repeat(SHORT_LINE_BYTES)}"}`;
  assert.deepEqual(await stream([`{"a":1}\n${line}\n`]), {
    records: [{ label: 'line 1', value: { a: 1 } }],
    error: 'line 2: is not valid JSON: unexpected "\\ufeff" at column 1',
  });
});

test('a first line past 16 MiB is refused without reading the rest of the input', async () => {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let pulled = 0;
  async function* input() {
    for (let index = 0; index < 400; index += 1) {
      pulled += 1;
      yield index === 0 ? Buffer.from('{"a":"') : chunk;
    }
  }
  assert.deepEqual(await streamOf(Readable.from(input())), { records: [], error: `record 1: ${TOO_LARGE}` });
  // 16 MiB is 256 chunks of 64 KiB: the first line is given up on, and the record refused, at the chunk past
  // it; Readable.from reads at most 16 chunks ahead.
  assert.ok(pulled <= 256 + 2 + 16, `${pulled} chunks pulled`);
});
