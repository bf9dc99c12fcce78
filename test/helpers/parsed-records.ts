import assert from 'node:assert/strict';
import { DocumentError } from '../../src/documents/document-error.js';
import type { RawRecord } from '../../src/documents/document-reader.js';
import { JsonRecords } from '../../src/documents/json-records.js';

/** What a JsonRecords handed on: the records, then the first error's message, if any. */
export interface ParsedRecords {
  records: RawRecord[];
  error: string | null;
}

/** Takes what each step hands on, as an import does, up to the first error. */
function collect(parser: JsonRecords, outcome: ParsedRecords): void {
  try {
    for (const record of parser.take()) outcome.records.push(record);
  } catch (error) {
    assert.ok(error instanceof DocumentError, String(error));
    outcome.error ??= error.message;
  }
}

/** The chunks written one by one to a JsonRecords of records named `record N`, then its end. */
export function parseRecords(
  shape: 'elements' | 'whole',
  chunks: (string | Buffer)[],
  firstLine?: number,
): ParsedRecords {
  const parser = new JsonRecords(shape, (n) => `record ${n}`, firstLine);
  const outcome: ParsedRecords = { records: [], error: null };
  for (const chunk of chunks) {
    parser.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    collect(parser, outcome);
  }
  parser.end();
  collect(parser, outcome);
  return outcome;
}

export const recordValues = (outcome: ParsedRecords) => outcome.records.map((record) => record.value);
